import type { DuckDBConnection } from '@duckdb/node-api';
import { recordChange } from './changes.ts';
import { allDates, mergeRanges, windowRows, type DateRange } from './date-ranges.ts';
import type { Model } from './load-models.ts';
import { checkColumns, CheckFailure, runChecks, type CheckFinding } from './run-checks.ts';
import { columnDdl, replaceRows, tableMatches } from './tables.ts';
import { quote, countRows, describe, inTransaction, tableColumns } from '../db/sql.ts';
import { connectionTimezonesIn } from '../control/connections/connections.ts';

/** A connection an incremental model is sliced by, with the values of its SQL's `$` parameters besides the window. */
export interface SliceConnection {
  connection_id: string;
  /** The marketplace's timezone: `timezone($timezone, ts)` is far faster than a per-row zone column. */
  timezone: string;
}

/** The connections an incremental model is sliced by, by id, with their marketplaces' timezones. */
export async function sliceConnections(sql: DuckDBConnection): Promise<SliceConnection[]> {
  return connectionTimezonesIn(sql);
}

/** The rows one window wrote for one connection. */
export interface WindowResult extends DateRange {
  connectionId: string;
  rows: number;
}

/** A connection whose slice of a model was not built (its old rows stand), and why. */
export interface Unbuilt {
  connectionId: string;
  status: 'error' | 'skipped';
  error: string;
}

interface Slice {
  connection: SliceConnection;
  ranges: DateRange[];
}

/**
 * The statement with its `$name` parameters replaced by quoted values, a list by `('a', 'b')`. DuckDB plans a
 * prepared statement again once its values are bound (to push them into scans); inlined, a statement is planned once.
 */
export const inline = (statement: string, params: Record<string, string | string[]>) =>
  statement.replace(/\$([a-z_]+)\b/g, (match, name: string) => {
    const value = params[name];
    return value === undefined ? match : Array.isArray(value) ? `(${value.map(quote).join(', ')})` : quote(value);
  });

/**
 * The slices one statement per range replaces together: those with the same ranges and timezone, when the model's
 * SQL takes its connections as a list (`in $connection_ids`); one slice a statement when it reads `$connection_id`.
 */
function batchesOf(model: Model, slices: Slice[]): Slice[][] {
  if (!/\$connection_ids\b/.test(model.sql)) return slices.map((slice) => [slice]);
  const byKey = new Map<string, Slice[]>();
  for (const slice of slices) {
    const key = JSON.stringify([slice.connection.timezone, slice.ranges]);
    byKey.set(key, [...(byKey.get(key) ?? []), slice]);
  }
  return [...byKey.values()];
}

/**
 * Replaces date ranges of connections' slices in one transaction, a statement per batch of connections and range
 * (see batchesOf), then checks the rows it wrote: a check's fixed cost is paid once per model rather than per slice.
 * When that fails, each connection is tried again in a transaction of its own, so that one connection's bad rows
 * leave the others built (its old rows stand, and it is reported in `unbuilt`); connections in `excluded` (an
 * upstream model failed for them) are not run. `whole`, or a table whose columns no longer match the `.yml`,
 * rebuilds every connection's every date.
 */
export async function runIncremental(
  sql: DuckDBConnection,
  model: Model,
  connections: SliceConnection[],
  ranges: 'whole' | Map<string, DateRange[]>,
  excluded: ReadonlySet<string>,
  changed?: Map<string, DateRange[]>,
) {
  await checkColumns(sql, model);
  // A table with other columns than the .yml is rebuilt whole; a missing one is created and gets the ranges asked for.
  const exists = (await tableColumns(sql, model.id)) !== undefined;
  const rebuild = ranges === 'whole' || (exists && !(await tableMatches(sql, model)));
  const create = rebuild || !exists;
  if (rebuild) return buildSlices(sql, model, connections, 'whole', create, excluded);
  if (create || !changed) return buildSlices(sql, model, connections, ranges, create, excluded);
  const outcome = await buildSlices(sql, model, connections, changed, create, excluded);
  // The windows asked for, with the rows they hold now: those of the dates not rebuilt are as they were.
  const failed = new Set(outcome.unbuilt.map((u) => u.connectionId));
  return { ...outcome, windows: await heldRows(sql, model, new Map([...ranges].filter(([id]) => !failed.has(id)))) };
}

async function buildSlices(
  sql: DuckDBConnection,
  model: Model,
  connections: SliceConnection[],
  ranges: 'whole' | Map<string, DateRange[]>,
  create: boolean,
  excluded: ReadonlySet<string>,
) {
  const slices = connections
    .map((connection) => ({
      connection,
      ranges: ranges === 'whole' ? [allDates] : mergeRanges(ranges.get(connection.connection_id) ?? []),
    }))
    .filter((slice) => slice.ranges.length > 0);
  // A rebuilt table holds every connection: one whose upstream rows failed is built from the rows they kept.
  const wanted = create ? slices : slices.filter((s) => !excluded.has(s.connection.connection_id));
  const unbuilt: Unbuilt[] = slices
    .filter((s) => !wanted.includes(s))
    .map((s) => ({
      connectionId: s.connection.connection_id,
      status: 'skipped',
      error: 'a model it reads failed for this connection',
    }));
  if (!create && wanted.length === 0)
    return { rows: await countRows(sql, model.id), windows: [], findings: [], unbuilt };
  try {
    const outcome = await inTransaction(sql, () => replaceSlices(sql, model, wanted, create));
    return { rows: await countRows(sql, model.id), ...outcome, unbuilt };
  } catch (error) {
    if (wanted.length < 2) throw error;
    const windows: WindowResult[] = [];
    const findings: CheckFinding[] = [];
    let created = !create;
    let built = 0;
    for (const slice of wanted) {
      try {
        // (The first connection built creates the table: should every one fail, the old table stands.)
        const outcome = await inTransaction(sql, () => replaceSlices(sql, model, [slice], !created));
        created = true;
        built += 1;
        windows.push(...outcome.windows);
        findings.push(...outcome.findings);
      } catch (failure) {
        if (failure instanceof CheckFailure) findings.push(...failure.findings);
        unbuilt.push({ connectionId: slice.connection.connection_id, status: 'error', error: describe(failure) });
      }
    }
    // Every connection failed: the model failed.
    if (built === 0) throw error;
    return { rows: await countRows(sql, model.id), windows, findings, unbuilt };
  }
}

/**
 * Deletes (or creates the table without) the slices' rows and writes them again, or, for a window that holds a small
 * part of the table, writes only the rows that differ from those it held; call it in a transaction.
 */
async function replaceSlices(sql: DuckDBConnection, model: Model, slices: Slice[], create: boolean) {
  const { date_column: dateColumn, connection_column: connectionColumn } = model.config.window!;
  // Each slice's rows are written in date order, so that replacing a recent window later deletes from only the
  // few row groups that hold it (a checkpoint rewrites every row group with deleted rows) and readers skip the rest;
  // rows made aside are not sorted (replaceRows writes those that differ in date order).
  const insert = (table: string) =>
    `insert into ${table} by name select * from (${model.sql}) where ${connectionColumn} in $connection_ids and ${dateColumn} between $from::date and $to::date` +
    (table === model.id ? ` order by ${dateColumn}` : '');
  const changed = slices.map((s) => ({ connectionId: s.connection.connection_id, ranges: s.ranges }));
  const replaced = windowRows(model, changed);
  // Every date of every connection sliced: the next publish copies the table rather than replacing its rows.
  const everyDate = slices.every((s) => s.ranges.some((r) => r.from <= allDates.from && r.to >= allDates.to));
  const windows: WindowResult[] = [];
  // A window that holds a small part of the table (a daily run's) mostly gets back the rows it had: they are made
  // aside, and only those that differ are written (replaceRows), which writes far less than
  // replacing the window.
  const aside =
    !create &&
    !everyDate &&
    (await countRows(sql, `(select 1 from ${model.id} where ${replaced})`)) * 2 < (await countRows(sql, model.id));
  const into = aside ? 'window_rows' : model.id;
  if (create) await sql.run(`create or replace table ${model.id} (${columnDdl(model)})`);
  else if (aside) await sql.run(`create or replace temp table window_rows as select * from ${model.id} limit 0`);
  else await sql.run(`delete from ${model.id} where ${replaced}`);
  for (const batch of batchesOf(model, slices)) {
    const ids = batch.map((s) => s.connection.connection_id);
    for (const range of batch[0]!.ranges) {
      const result = await sql.run(inline(insert(into), { ...batch[0]!.connection, connection_ids: ids, ...range }));
      if (batch.length === 1) windows.push({ connectionId: ids[0]!, ...range, rows: Number(result.rowsChanged) });
      else windows.push(...(await rowsByConnection(sql, model, into, ids, range)));
    }
  }
  if (aside) {
    await replaceRows(sql, model.id, 'window_rows', replaced, dateColumn);
    await sql.run('drop table window_rows');
  }
  await recordChange(sql, model, create || everyDate ? 'whole' : changed);
  // Only the replaced rows: every other row was checked when it was written. Their keys are looked for in the whole
  // table when the key has no date (an event can move to another date and must not stay on its old one too); a key
  // with the date can repeat only within it.
  const ranges = slices.flatMap((s) => s.ranges);
  const dates = {
    from: ranges.reduce((a, r) => (r.from < a ? r.from : a), allDates.to),
    to: ranges.reduce((a, r) => (r.to > a ? r.to : a), allDates.from),
  };
  const findings = await runChecks(
    sql,
    model,
    create ? model.id : `(select * from ${model.id} where ${replaced})`,
    create ? undefined : { table: model.id, dates },
  );
  return { windows, findings };
}

/** The rows the model's table holds in each connection's ranges, a statement per distinct range. */
async function heldRows(
  sql: DuckDBConnection,
  model: Model,
  ranges: Map<string, DateRange[]>,
): Promise<WindowResult[]> {
  const byRange = new Map<string, { range: DateRange; ids: string[] }>();
  for (const [id, list] of ranges) {
    for (const range of mergeRanges(list)) {
      const key = `${range.from}/${range.to}`;
      byRange.set(key, { range, ids: [...(byRange.get(key)?.ids ?? []), id] });
    }
  }
  const windows: WindowResult[] = [];
  for (const { range, ids } of byRange.values())
    windows.push(...(await rowsByConnection(sql, model, model.id, ids, range)));
  return windows;
}

/** The rows a batch's statement wrote into `table` for each of its connections in a range. */
async function rowsByConnection(
  sql: DuckDBConnection,
  model: Model,
  table: string,
  ids: string[],
  range: DateRange,
): Promise<WindowResult[]> {
  const { date_column: dateColumn, connection_column: connectionColumn } = model.config.window!;
  const reader = await sql.runAndReadAll(
    inline(
      `
    select ${connectionColumn}, count(*)::bigint from ${table}
    where ${connectionColumn} in $connection_ids and ${dateColumn} between $from::date and $to::date group by all`,
      { connection_ids: ids, ...range },
    ),
  );
  const counts = new Map(reader.getRowsJson().map(([id, n]) => [String(id), Number(n)]));
  return ids.map((connectionId) => ({ connectionId, ...range, rows: counts.get(connectionId) ?? 0 }));
}
