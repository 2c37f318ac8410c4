import type { DuckDBConnection } from '@duckdb/node-api';
import type { Warehouse } from '../db/warehouse.ts';
import { MktdataError } from '../errors.ts';
import { ensureRawTables } from '../ingest/ensure-raw-tables.ts';
import { recordChange } from '../publish/changes.ts';
import { checkColumns, CheckFailure, runChecks, type CheckFinding } from './run-checks.ts';
import { loadModels, type Model } from './load-models.ts';
import { allDates, mergeRanges, quote, windowRows, type DateRange } from './date-ranges.ts';

export type { CheckFinding };

/** Options of a build (CLI `mktdata build`). */
export interface RunOptions {
  /** Model names to run, with everything upstream of them; all when empty. */
  select?: string[];
  /** With `select`: also run the models the selected ones read. @default true */
  upstream?: boolean;
  /** Inclusive date window of incremental models. @default every date */
  from?: string;
  to?: string;
  /** Drop and rebuild incremental tables whole. @default false */
  fullRefresh?: boolean;
  /** What a pipeline run rebuilds (src/pipelines); it replaces `select`, `from`, `to` and `fullRefresh`. */
  work?: RunWork;
  onModel?: (model: Model, index: number, total: number) => void;
  onResult?: (result: ModelResult) => void;
  /** @default the project's models/ folder */
  modelsDir?: string;
}

/** Exactly what a pipeline run rebuilds; a model named nowhere here is not run. */
export interface RunWork {
  /** Windowed models: the date ranges to replace, per connection id. */
  windows: Map<string, Map<string, DateRange[]>>;
  /** Models rebuilt whole. */
  whole: Set<string>;
  /** Keyed models (`increment`), run for the keys of these newly landed files. */
  keyed: Set<string>;
  newFiles: string[];
}

/** The rows one window wrote for one connection. */
export interface WindowResult extends DateRange {
  connectionId: string;
  rows: number;
}

/** The outcome of one model: success, error (its windows rolled back) or skipped (a dependency failed). */
export interface ModelResult {
  model: string;
  status: 'success' | 'error' | 'skipped';
  rows?: number;
  /** Windowed models: what each (connection, range) wrote; `from`/`to` span every date on a whole rebuild. */
  windows?: WindowResult[];
  findings: CheckFinding[];
  error?: string;
  ms: number;
}


/** Runs the models in dependency order; never throws for a model's failure, it reports it. */
export async function runModels(wh: Warehouse, options: RunOptions = {}): Promise<ModelResult[]> {
  const work = options.work;
  const all = loadModels(options.modelsDir);
  const models = work
    ? all.filter((m) => work.whole.has(m.id) || work.windows.has(m.id) || work.keyed.has(m.id))
    : selectModels(all, options.select ?? [], options.upstream ?? true);
  // Staging models read raw tables that may not have been landed into yet.
  if (models.some((m) => /\braw\./.test(m.sql))) await ensureRawTables(wh.sql);
  const failed = new Set<string>();
  const results: ModelResult[] = [];
  const report = (result: ModelResult) => {
    results.push(result);
    options.onResult?.(result);
  };
  // Looked up once per run, when the first incremental model needs them (seeds may be built before).
  let connections: Promise<SliceConnection[]> | undefined;
  for (const [index, model] of models.entries()) {
    options.onModel?.(model, index, models.length);
    const started = Date.now();
    const blocker = model.deps.find((dep) => failed.has(dep));
    if (blocker) {
      failed.add(model.id);
      report({ model: model.id, status: 'skipped', findings: [], error: `${blocker} did not succeed`, ms: 0 });
      continue;
    }
    try {
      // A build without work rebuilds keyed models whole: it does not know which files are new.
      const whole = work ? work.whole.has(model.id) : options.fullRefresh || !model.config.window;
      const outcome = model.kind === 'seed' ? await runSeed(wh.sql, model)
        : model.config.increment && !whole ? await runKeyed(wh.sql, model, work?.newFiles ?? [])
        : model.config.window ? await runIncremental(wh.sql, model, await (connections ??= sliceConnections(wh.sql)), whole ? 'whole' : windowsOf(model, options, await connections))
        : await runTable(wh.sql, model);
      report({ model: model.id, status: 'success', ...outcome, ms: Date.now() - started });
    } catch (error) {
      failed.add(model.id);
      const findings = error instanceof CheckFailure ? error.findings : [];
      report({ model: model.id, status: 'error', findings, error: describe(error), ms: Date.now() - started });
    }
  }
  return results;
}

/** The ranges to replace per connection: the work's, or the build's one window for every connection. */
function windowsOf(model: Model, options: RunOptions, connections: SliceConnection[]): Map<string, DateRange[]> {
  const window = { from: options.from ?? allDates.from, to: options.to ?? allDates.to };
  return options.work?.windows.get(model.id) ?? new Map(connections.map((c) => [c.connection_id, [window]]));
}

function selectModels(models: Model[], select: string[], upstream: boolean): Model[] {
  if (select.length === 0) return models;
  const byName = new Map(models.flatMap((m) => [[m.name, m], [m.id, m]] as const));
  const wanted = new Set<string>();
  const add = (model: Model) => {
    if (wanted.has(model.id)) return;
    wanted.add(model.id);
    if (upstream) model.deps.forEach((dep) => add(byName.get(dep)!));
  };
  for (const name of select) {
    const model = byName.get(name);
    if (!model) throw new MktdataError('ERR_MODEL_UNKNOWN', { name });
    add(model);
  }
  return models.filter((m) => wanted.has(m.id));
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message.split('\n')[0]! : String(error);
}

async function runSeed(sql: DuckDBConnection, model: Model) {
  const findings = await inTransaction(sql, async () => {
    await sql.run(`create or replace table ${model.id} as select * from read_csv($path, header=true)`, { path: model.path });
    return runChecks(sql, model, model.id);
  });
  return { rows: await countRows(sql, model.id), findings };
}

/** Replaces the whole table in one transaction: readers and a failure see the old rows. */
async function runTable(sql: DuckDBConnection, model: Model) {
  let findings: CheckFinding[] = [];
  await inTransaction(sql, async () => {
    if (model.config.catalog) {
      await checkColumns(sql, model);
      await sql.run(`create or replace table ${model.id} (${columnDdl(model)})`);
      await sql.run(`insert into ${model.id} by name ${model.sql}`);
    } else {
      await sql.run(`create or replace table ${model.id} as ${model.sql}`);
    }
    findings = await runChecks(sql, model, model.id);
    await recordChange(sql, model, 'whole');
  });
  return { rows: await countRows(sql, model.id), findings };
}

/** A connection an incremental model is sliced by, with the values of its SQL's `$` parameters besides the window. */
interface SliceConnection {
  connection_id: string;
  /** The marketplace's timezone: `timezone($timezone, ts)` is far faster than a per-row zone column. */
  timezone: string;
}

async function sliceConnections(sql: DuckDBConnection): Promise<SliceConnection[]> {
  const seeded = (await tableColumns(sql, 'seeds.marketplaces')) !== undefined;
  const zones = seeded ? 'seeds.marketplaces' : `(select null::varchar as marketplace_id, null::varchar as timezone)`;
  const reader = await sql.runAndReadAll(`
    select c.id as connection_id, coalesce(m.timezone, 'UTC') as timezone
    from control.connections as c left join ${zones} as m using (marketplace_id)
    order by c.id`);
  return reader.getRowObjectsJson() as unknown as SliceConnection[];
}


/**
 * The statement with its `$name` parameters replaced by quoted values. DuckDB plans a prepared statement
 * again once its values are bound (to push them into scans); inlined, a statement is planned once.
 */
const inline = (statement: string, params: Record<string, string>) =>
  statement.replace(/\$([a-z_]+)\b/g, (match, name: string) => (name in params ? quote(params[name]!) : match));

/**
 * Replaces date ranges of connections' slices (the SQL runs once per connection and range) in one transaction,
 * then checks the rows it wrote: a failure keeps all the old rows, and a check's fixed cost (plans, scans of
 * the tables it compares with) is paid once per model rather than once per slice.
 * `whole`, or a table whose columns no longer match the `.yml`, rebuilds every connection's every date.
 */
async function runIncremental(sql: DuckDBConnection, model: Model, connections: SliceConnection[], ranges: 'whole' | Map<string, DateRange[]>) {
  const { date_column: dateColumn, connection_column: connectionColumn } = model.config.window!;
  await checkColumns(sql, model);
  // A table with other columns than the .yml is rebuilt whole; a missing one is created and gets the ranges asked for.
  const exists = (await tableColumns(sql, model.id)) !== undefined;
  const rebuild = ranges === 'whole' || (exists && !(await tableMatches(sql, model)));
  const create = rebuild || !exists;
  const slices = connections
    .map((connection) => ({ connection, ranges: rebuild ? [allDates] : mergeRanges((ranges as Map<string, DateRange[]>).get(connection.connection_id) ?? []) }))
    .filter((slice) => slice.ranges.length > 0);
  if (!create && slices.length === 0) return { rows: await countRows(sql, model.id), windows: [], findings: [] };
  // Each slice's rows are written in date order, so that replacing a recent window later deletes from only the
  // few row groups that hold it (a checkpoint rewrites every row group with deleted rows) and readers skip the rest.
  const insert = `insert into ${model.id} by name select * from (${model.sql}) where ${connectionColumn} = $connection_id and ${dateColumn} between $from::date and $to::date order by ${dateColumn}`;
  const changed = slices.map((s) => ({ connectionId: s.connection.connection_id, ranges: s.ranges }));
  const replaced = windowRows(model, changed);
  // Every date of every connection sliced: the next publish copies the table rather than replacing its rows.
  const everyDate = slices.every((s) => s.ranges.some((r) => r.from <= allDates.from && r.to >= allDates.to));
  const windows: WindowResult[] = [];
  const findings = await inTransaction(sql, async () => {
    if (create) await sql.run(`create or replace table ${model.id} (${columnDdl(model)})`);
    else await sql.run(`delete from ${model.id} where ${replaced}`);
    for (const { connection, ranges } of slices) {
      for (const range of ranges) {
        const result = await sql.run(inline(insert, { ...connection, ...range }));
        windows.push({ connectionId: connection.connection_id, ...range, rows: Number(result.rowsChanged) });
      }
    }
    await recordChange(sql, model, create || everyDate ? 'whole' : changed);
    // Only the replaced rows: every other row was checked when it was written.
    return runChecks(sql, model, create ? model.id : `(select * from ${model.id} where ${replaced})`);
  });
  return { rows: await countRows(sql, model.id), windows, findings };
}


/**
 * Replaces the rows of the keys that `files` hold (see `increment` in model-config.ts), in one transaction: the
 * model's SQL reads its raw table restricted to those keys. With no table yet, or other columns, it rebuilds whole.
 */
async function runKeyed(sql: DuckDBConnection, model: Model, files: string[]) {
  const { raw, raw_key: rawKey, key } = model.config.increment!;
  const exists = (await tableColumns(sql, model.id)) !== undefined;
  if (!exists || !(await sameColumns(sql, model))) return runTable(sql, model);
  if (files.length === 0) return { rows: await countRows(sql, model.id), findings: [] };
  const fileList = files.length > 0 ? files.map(quote).join(', ') : 'null';
  const keyMatch = (alias: string, columns: string[]) => columns.map((c, i) => `${alias}.${c} is not distinct from changed.k${i}`).join(' and ');
  const findings = await inTransaction(sql, async () => {
    await sql.run(`create or replace temp table changed as select distinct ${rawKey.map((c, i) => `${c} as k${i}`).join(', ')} from ${raw} where _file_id in (${fileList})`);
    await sql.run(`delete from ${model.id} as this using changed where ${keyMatch('this', key)}`);
    const restricted = `(select landed.* from ${raw} as landed semi join changed on ${keyMatch('landed', rawKey)})`;
    await sql.run(`insert into ${model.id} by name ${model.sql.replaceAll(raw, restricted)}`);
    return runChecks(sql, model, `(select * from ${model.id} as this semi join changed on ${keyMatch('this', key)})`);
  });
  return { rows: await countRows(sql, model.id), findings };
}

/** Whether a table built from the model's SQL has the columns the SQL now produces. */
async function sameColumns(sql: DuckDBConnection, model: Model): Promise<boolean> {
  const reader = await sql.runAndReadAll(`describe ${model.sql.replace(/;\s*$/, '')}`);
  const produced = reader.getRowsJson().map(([name, type]) => `${name} ${type}`);
  return produced.join(',') === ((await tableColumns(sql, model.id)) ?? []).join(',');
}

async function tableMatches(sql: DuckDBConnection, model: Model): Promise<boolean> {
  const actual = (await tableColumns(sql, model.id)) ?? [];
  return actual.join(',') === model.config.columns.map((c) => `${c.name} ${c.dataType}`).join(',');
}

/**
 * A table's columns as `name TYPE`, in order; undefined when there is no such table. `pragma_table_info`
 * reads one catalog entry, where `information_schema` and `duckdb_columns()` list every column of every table.
 */
async function tableColumns(sql: DuckDBConnection, table: string): Promise<string[] | undefined> {
  try {
    const reader = await sql.runAndReadAll(`select name, type from pragma_table_info(${quote(table)})`);
    return reader.getRowsJson().map(([name, type]) => `${name} ${type}`);
  } catch (error) {
    if (/^Catalog Error/.test(describe(error))) return undefined;
    throw error;
  }
}

const columnDdl = (model: Model) => model.config.columns.map((c) => `${c.name} ${c.dataType}`).join(', ');

async function countRows(sql: DuckDBConnection, table: string): Promise<number> {
  return Number((await sql.runAndReadAll(`select count(*)::bigint from ${table}`)).getRowsJson()[0]?.[0] ?? 0);
}

/** Runs `work` in a transaction, rolling back on any error. */
export async function inTransaction<T>(sql: DuckDBConnection, work: () => Promise<T>): Promise<T> {
  await sql.run('begin transaction');
  try {
    const result = await work();
    await sql.run('commit');
    return result;
  } catch (error) {
    await sql.run('rollback');
    throw error;
  }
}
