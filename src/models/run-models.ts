import type { DuckDBConnection } from '@duckdb/node-api';
import type { Warehouse } from '../db/warehouse.ts';
import { MktdataError } from '../errors.ts';
import { ensureRawTables } from '../ingest/ensure-raw-tables.ts';
import { sources } from '../ingest/sources/index.ts';
import { recordChange } from '../publish/changes.ts';
import { checkColumns, CheckFailure, runChecks, type CheckFinding } from './run-checks.ts';
import { loadMacros, loadModels, type Model } from './load-models.ts';
import { allDates, quote, type DateRange } from './date-ranges.ts';
import { behind, inputsFingerprint, keepFingerprint, storedFingerprint } from './model-inputs.ts';
import { runIncremental, sliceConnections, type SliceConnection, type Unbuilt, type WindowResult } from './run-incremental.ts';
import { columnDdl, countRows, describe, inTransaction, tableColumns } from './tables.ts';

export type { CheckFinding, Unbuilt, WindowResult };
export { inTransaction };

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
  /**
   * Windowed models whose routine windows need only some dates while their other inputs are as at their last build
   * by a pipeline run (model-inputs.ts): those dates per connection, to which the dates their windowed upstream
   * models replace are added.
   */
  changed?: Map<string, Map<string, DateRange[]>>;
}

/**
 * The outcome of one model: success, error (its windows rolled back) or skipped (a dependency failed). A windowed
 * model may fail for some connections only: `unbuilt` names them, and its status is then that of the worst of them.
 */
export interface ModelResult {
  model: string;
  status: 'success' | 'error' | 'skipped';
  rows?: number;
  /** Windowed models: what each (connection, range) wrote; `from`/`to` span every date on a whole rebuild. */
  windows?: WindowResult[];
  /** Windowed models: the connections not built while others were (their old rows stand). */
  unbuilt?: Unbuilt[];
  findings: CheckFinding[];
  error?: string;
  ms: number;
}

type Outcome = Pick<ModelResult, 'rows' | 'windows' | 'unbuilt' | 'findings'> & { fingerprint?: string };

/** Runs the models in dependency order; never throws for a model's failure, it reports it. */
export async function runModels(wh: Warehouse, options: RunOptions = {}): Promise<ModelResult[]> {
  const work = options.work;
  const all = loadModels(options.modelsDir);
  const models = work
    ? all.filter((m) => work.whole.has(m.id) || work.windows.has(m.id) || work.keyed.has(m.id))
    : selectModels(all, options.select ?? [], options.upstream ?? true);
  // Staging models read raw tables that may not have been landed into yet.
  if (models.some((m) => /\braw\./.test(m.sql))) await ensureRawTables(wh.sql);
  const macros = loadMacros(options.modelsDir);
  if (macros.trim()) {
    await wh.sql.run(macros).catch((error: Error) => {
      throw new MktdataError('ERR_INPUT_INVALID', { where: 'models/macros.sql', reason: error.message.split('\n')[0]! }, { cause: error });
    });
  }
  const failed = new Set<string>();
  // Per model, the connections it did not build while it built others: the models reading it skip them.
  const failedFor = new Map<string, Set<string>>();
  const results: ModelResult[] = [];
  const report = (result: ModelResult) => {
    results.push(result);
    options.onResult?.(result);
  };
  // Looked up once per run, when the first incremental model needs them (seeds may be built before).
  let connections: Promise<SliceConnection[]> | undefined;
  const keyedRun: KeyedRun = { files: work?.newFiles ?? [], keyed: new Set() };
  const byId = new Map(all.map((m) => [m.id, m]));
  // Per windowed model run, the dates it replaced per connection (its readers replace them too).
  const replaced = new Map<string, Map<string, DateRange[]>>();
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
      // A build without work rebuilds keyed models whole: it does not know which files are new. A model keyed on
      // another's rows is rebuilt whole when that one was.
      const reads = model.config.increment?.reads;
      const whole = (work ? work.whole.has(model.id) : options.fullRefresh || !model.config.window) || (reads !== undefined && !keyedRun.keyed.has(reads));
      const { fingerprint, ...outcome }: Outcome = model.kind === 'seed' ? await runSeed(wh.sql, model)
        : model.config.increment && !whole ? await runKeyed(wh.sql, model, keyedRun)
        : model.config.window ? await runWindowed(wh.sql, model, whole, await (connections ??= sliceConnections(wh.sql)))
        : model.config.materialized === 'view' ? await runView(wh.sql, model)
        : await runTable(wh.sql, model);
      const unbuilt = outcome.unbuilt?.length ? outcome.unbuilt : undefined;
      // A pipeline run's build keeps its fingerprint; a build outside one forgets it (it may have used other inputs).
      if (model.config.window && !unbuilt && (!work || fingerprint)) await keepFingerprint(wh.sql, model.id, fingerprint);
      if (!unbuilt) {
        report({ model: model.id, status: 'success', ...outcome, unbuilt, ms: Date.now() - started });
        continue;
      }
      failedFor.set(model.id, new Set(unbuilt.map((u) => u.connectionId)));
      const errors = unbuilt.filter((u) => u.status === 'error');
      const error = `not built for ${unbuilt.length} connection(s)${errors.length > 0 ? `; ${errors[0]!.connectionId}: ${errors[0]!.error}` : ''}`;
      report({ model: model.id, status: errors.length > 0 ? 'error' : 'success', ...outcome, unbuilt, error, ms: Date.now() - started });
    } catch (error) {
      failed.add(model.id);
      const findings = error instanceof CheckFailure ? error.findings : [];
      report({ model: model.id, status: 'error', findings, error: describe(error), ms: Date.now() - started });
    }
  }
  return results;

  /**
   * A windowed model's run: its windows, or only the dates `work.changed` names and those its windowed upstream
   * models replaced, when its inputs' fingerprint is the one kept at its last build by a pipeline run.
   */
  async function runWindowed(sql: DuckDBConnection, model: Model, whole: boolean, connections: SliceConnection[]): Promise<Outcome> {
    const ranges = whole ? 'whole' : windowsOf(model, options, connections);
    const changed = whole ? undefined : work?.changed?.get(model.id);
    const fingerprint = changed && (await inputsFingerprint(sql, behind(model, byId), macros));
    const compute = changed && fingerprint === (await storedFingerprint(sql, model.id)) ? withUpstream(changed, model.deps.map((dep) => replaced.get(dep))) : undefined;
    const outcome = await runIncremental(sql, model, connections, ranges, new Set(model.deps.flatMap((dep) => [...(failedFor.get(dep) ?? [])])), compute);
    replaced.set(model.id, compute ?? (ranges === 'whole' ? new Map(connections.map((c) => [c.connection_id, [allDates]])) : ranges));
    return { ...outcome, fingerprint };
  }
}

/** `changed` with the dates of upstream replacements added, per connection. */
function withUpstream(changed: Map<string, DateRange[]>, upstream: (Map<string, DateRange[]> | undefined)[]): Map<string, DateRange[]> {
  const all = new Map([...changed].map(([id, ranges]) => [id, [...ranges]]));
  for (const [id, ranges] of upstream.flatMap((m) => [...(m ?? [])])) all.set(id, [...(all.get(id) ?? []), ...ranges]);
  return all;
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

/** (Re)creates a view: nothing to count or check, its readers' rows are. */
async function runView(sql: DuckDBConnection, model: Model): Promise<Outcome> {
  await sql.run(`create or replace view ${model.id} as ${model.sql}`);
  return { findings: [] };
}

/**
 * The keyed models of one run: its new files, the models that replaced only their changed keys, and the raw table
 * (with its key) whose changed keys the temp table `changed` holds, for the next model keyed on the same.
 */
interface KeyedRun {
  files: string[];
  keyed: Set<string>;
  changedOf?: string;
}

/**
 * Replaces the rows of the keys that `run.files` hold (see `increment` in model-config.ts), in one transaction: the
 * model's SQL reads its raw table (or the model it `reads`) restricted to those keys, and the checks read the rows it
 * made. With no table yet, other columns, or keys as many as half its rows, it rebuilds whole; with no such key, it
 * does nothing.
 */
async function runKeyed(sql: DuckDBConnection, model: Model, run: KeyedRun) {
  const { raw, raw_key: rawKey, key, reads = raw, reads_key: readsKey = rawKey } = model.config.increment!;
  const exists = (await tableColumns(sql, model.id)) !== undefined;
  if (!exists || !(await sameColumns(sql, model))) return runTable(sql, model);
  const unchanged = async () => {
    run.keyed.add(model.id);
    return { rows: await countRows(sql, model.id), findings: [] };
  };
  if (run.files.length === 0) return unchanged();
  const skipRepeated = model.config.increment!.skip_repeated;
  const keysOf = `${raw} (${rawKey.join(', ')})${skipRepeated ? ' skip_repeated' : ''}`;
  if (run.changedOf !== keysOf) {
    // (Made before the transaction: DuckDB reads a table made inside one more slowly.)
    const files = run.files.map(quote).join(', ');
    const keys = rawKey.map((c, i) => `${c} as k${i}`).join(', ');
    const newRows = `${raw} where _file_id in (${files})${await landedSince(sql, run.files)}`;
    await sql.run(`create or replace temp table changed as ${skipRepeated ? changedKeys(raw, rawKey, files, newRows) : `select distinct ${keys} from ${newRows}`}`);
    run.changedOf = keysOf;
  }
  const changed = await countRows(sql, 'changed');
  if (changed === 0) return unchanged();
  // Keys as many as half the rows (a first load's history after its first stage): rebuilding whole is cheaper.
  if (changed * 2 >= (await countRows(sql, model.id))) return runTable(sql, model);
  run.keyed.add(model.id);
  const keys = await describeKeys(sql, rawKey.length);
  const keyMatch = (alias: string, columns: string[]) => columns.map((c, i) => `${alias}.${c} ${keys[i]!.nulls ? 'is not distinct from' : '='} changed.k${i}`).join(' and ');
  const narrowed = (alias: string, columns: string[]) => columns.map((c, i) => (keys[i]!.list ? ` and ${alias}.${c} ${keys[i]!.list}` : '')).join('');
  // A view, not a subquery, so that the SQL may also pass the table to a table macro (models/macros.sql).
  await sql.run(`create or replace temp view changed_input as select input.* from ${reads} as input semi join changed on ${keyMatch('input', readsKey)} where true${narrowed('input', readsKey)}`);
  // The changed keys' rows after the run are exactly these: the checks read them, not the whole table.
  await sql.run(`create or replace temp table changed_rows as ${model.sql.replaceAll(reads, 'changed_input')}`);
  try {
    const findings = await inTransaction(sql, async () => {
      await sql.run(`delete from ${model.id} as this using changed where ${keyMatch('this', key)}${narrowed('this', key)}`);
      await sql.run(`insert into ${model.id} by name select * from changed_rows`);
      return runChecks(sql, model, 'changed_rows');
    });
    return { rows: await countRows(sql, model.id), findings };
  } finally {
    await sql.run('drop table changed_rows');
  }
}

/**
 * The keys (as k0, k1, …) whose rows in some new file differ from those of the key's last landed file before: in
 * count, row hashes (every column but the lineage ones), or order (n·Σ(h·line) − Σh·Σline does not change when the
 * rows shift together in the file). That file is looked for among the connection's files landed in the day before
 * its last one (a daily report repeats yesterday's), so that the scan skips the history; a key in none of them is
 * taken as changed. `newRows` is `raw where <the new files' rows>`.
 */
function changedKeys(raw: string, rawKey: string[], files: string, newRows: string): string {
  const key = rawKey.join(', ');
  const on = (a: string, b: string) => rawKey.map((c) => `${a}.${c} = ${b}.${c}`).join(' and ');
  const hashed = `${key}, _file_id, _landed_at, _line_number, hash(*columns(* exclude (_file_id, _line_number, _landed_at))) as h`;
  const names = sources.filter((s) => s.table === raw).map((s) => quote(s.name));
  return `
    with new_rows as (select ${hashed} from ${newRows}),
    recent as (
        select id, landed_at from (
            select id, landed_at, max(landed_at) over (partition by connection_id) as last
            from control.landed_files
            where source in (${names.join(', ') || 'null'}) and row_count > 0 and id not in (${files})
                and connection_id in (select distinct _connection_id from new_rows)
        )
        where landed_at >= last - interval 1 day
    ),
    previous_rows as (
        select ${hashed} from ${raw} as r
        semi join new_rows as n on ${on('n', 'r')}
        where r._file_id in (select id from recent) and r._landed_at >= (select min(landed_at) from recent)
    ),
    previous as (select ${key}, arg_max(_file_id, _landed_at) as _file_id from previous_rows group by all),
    versions as (
        select ${key}, _file_id in (${files}) as new, count(*) as n, sum(h::hugeint) as s,
            count(*) * sum(h::hugeint * _line_number) - sum(h::hugeint) * sum(_line_number) as m
        from (select * from new_rows union all select * from previous_rows semi join previous using (${key}, _file_id))
        group by ${key}, _file_id
    )
    select distinct ${rawKey.map((c, i) => `${c} as k${i}`).join(', ')}
    from (select ${key}, n, s, m from versions where new except select ${key}, n, s, m from versions where not new)`;
}

/**
 * ` and _landed_at >= '…'`, the files' first landing time, when every one of them is a landed file: a raw row's
 * _landed_at is its file's landed_at, and the scan then skips the row groups of older files (267 → 45 ms on four
 * years of orders).
 */
async function landedSince(sql: DuckDBConnection, files: string[]): Promise<string> {
  const reader = await sql.runAndReadAll(`select count(*)::integer, min(landed_at)::varchar from control.landed_files where id in (${files.map(quote).join(', ')})`);
  const [count, since] = reader.getRowsJson()[0] as [number, string | null];
  return count === new Set(files).size && since ? ` and _landed_at >= ${quote(since)}::timestamptz` : '';
}

/** Keys of a column this few or fewer are also given to the scans as a literal list. */
const MOST_LISTED = 1000;

/**
 * Per key column of `changed`: whether one of its values is null, and `in (…)` its values when they are few and none
 * is null. Without a null, `=` matches the same rows as `is not distinct from`, and DuckDB can push it into the scan
 * of the other side. A literal list it filters in the scan before reading the other columns, and it skips the row
 * groups the list misses (two settlements' rows: 950 ms on two years' 15M raw rows, 45 ms with the list).
 */
async function describeKeys(sql: DuckDBConnection, columns: number): Promise<{ nulls: boolean; list?: string }[]> {
  const keys: { nulls: boolean; list?: string }[] = [];
  for (let i = 0; i < columns; i++) {
    const reader = await sql.runAndReadAll(
      `select count(k${i}) < count(*), any_value(typeof(k${i})), if(count(distinct k${i}) <= ${MOST_LISTED}, list(distinct k${i}::varchar), null) from changed`,
    );
    const [nulls, type, values] = reader.getRowsJson()[0] as [boolean, string, string[] | null];
    keys.push({ nulls, list: !nulls && values ? `in (${values.map((v) => `${quote(v)}::${type}`).join(', ')})` : undefined });
  }
  return keys;
}

/** Whether a table built from the model's SQL has the columns the SQL now produces. */
async function sameColumns(sql: DuckDBConnection, model: Model): Promise<boolean> {
  const reader = await sql.runAndReadAll(`describe ${model.sql.replace(/;\s*$/, '')}`);
  const produced = reader.getRowsJson().map(([name, type]) => `${name} ${type}`);
  return produced.join(',') === ((await tableColumns(sql, model.id)) ?? []).join(',');
}

