import type { DuckDBConnection } from '@duckdb/node-api';
import type { Model } from './load-models.ts';
import { runChecks } from './run-checks.ts';
import { runTable } from './run-table.ts';
import { MktdataError } from '../errors.ts';
import { quote, countRows, describe, inTransaction, tableColumns } from '../db/sql.ts';
import { firstLandingOf, landingStamp, makeNewFiles } from '../control/landed-files.ts';

/** The keyed models of one run: its new files, and the models that replaced only their changed keys. */
export interface KeyedRun {
  files: string[];
  keyed: Set<string>;
}

/**
 * Replaces the rows of the keys that `run.files` change (see makeChanged), in one transaction: the model's SQL reads
 * its raw table (or the model it `reads`) restricted to those keys, and the checks read the rows it made. With no
 * table yet, other columns, or keys as many as half its rows, it rebuilds whole; with no such key, it does nothing.
 */
export async function runKeyed(sql: DuckDBConnection, model: Model, run: KeyedRun) {
  const { raw, raw_key: rawKey, key, reads = raw, reads_key: readsKey = rawKey } = model.config.increment!;
  const exists = (await tableColumns(sql, model.id)) !== undefined;
  if (!exists || !(await sameColumns(sql, model))) return runTable(sql, model);
  const unchanged = async () => {
    run.keyed.add(model.id);
    return { rows: await countRows(sql, model.id), findings: [] };
  };
  if (run.files.length === 0) return unchanged();
  // (Made before the transaction: DuckDB reads a table made inside one more slowly.)
  const table = await makeChanged(sql, model, run.files);
  const changed = await countRows(sql, table);
  if (changed === 0) return unchanged();
  // Keys as many as half the rows (a first load's history after its first stage): rebuilding whole is cheaper.
  if (changed * 2 >= (await countRows(sql, model.id))) return runTable(sql, model);
  run.keyed.add(model.id);
  const keys = await describeKeys(sql, table, rawKey.length);
  const keyMatch = (alias: string, columns: string[]) => matchKeys(keys, alias, columns);
  const listed = (alias: string, columns: string[]) => listedKeys(keys, alias, columns);
  const since = model.config.increment!.since;
  const least = since && (await leastSince(sql, model, table, run.files));
  const narrowed = (alias: string, columns: string[], column?: string) =>
    listed(alias, columns) + (least ? ` and ${alias}.${column} >= ${least}` : '');
  // A view, not a subquery, so that the SQL may also pass the table to a table macro (models/macros.sql).
  await sql.run(
    `create or replace temp view changed_input as select input.* from ${reads} as input semi join ${table} as changed on ${keyMatch('input', readsKey)} where true${narrowed('input', readsKey, since?.raw)}`,
  );
  // The changed keys' rows after the run are exactly these: the checks read them, not the whole table.
  await sql.run(`create or replace temp table changed_rows as ${model.sql.replaceAll(reads, 'changed_input')}`);
  try {
    const findings = await inTransaction(sql, async () => {
      await sql.run(
        `delete from ${model.id} as this using ${table} as changed where ${keyMatch('this', key)}${narrowed('this', key, since?.column)}`,
      );
      await sql.run(`insert into ${model.id} by name select * from changed_rows`);
      return runChecks(sql, model, 'changed_rows');
    });
    return { rows: await countRows(sql, model.id), findings };
  } finally {
    await sql.run('drop table changed_rows');
  }
}

/** What each temp table makeChanged made holds, per connection. */
const changedHolds = new WeakMap<DuckDBConnection, Map<string, string>>();

/**
 * Makes a temp table hold, as k0, k1, …, the keys of `model`'s raw table that `files` change, and returns its name:
 * the rows of its increment's `changed` SQL (with temp table new_files holding the files; `changed_keys_<model>`),
 * else every key of the files' rows (`changed_keys_<raw table>`). While nothing else lands, a call for the same keys
 * of the same files takes the table as it is: the models keyed on the same raw table and key share it, and a
 * pipeline's plan makes it for its touchedDates (`changedKeysOf`) before the model's run takes it.
 */
export async function makeChanged(sql: DuckDBConnection, model: Model, files: string[]): Promise<string> {
  const { raw, raw_key: rawKey, changed } = model.config.increment!;
  const table = `changed_keys_${changed ? model.name : raw.slice('raw.'.length)}`;
  const landed = await landingStamp(sql);
  const holds = JSON.stringify([raw, rawKey, changed ?? null, [...files].sort(), landed]);
  const made = changedHolds.get(sql) ?? new Map<string, string>();
  changedHolds.set(sql, made);
  if (made.get(table) === holds) return table;
  made.delete(table);
  if (changed) {
    await makeNewFiles(sql, files);
    await sql.run(`create or replace temp table ${table} as ${changed}`).catch((error: Error) => {
      throw new MktdataError(
        'ERR_INPUT_INVALID',
        { where: `${model.path.replace(/\.sql$/, '.yml')} increment.changed`, reason: describe(error) },
        { cause: error },
      );
    });
  } else {
    const keys = rawKey.map((c, i) => `${c} as k${i}`).join(', ');
    await sql.run(
      `create or replace temp table ${table} as select distinct ${keys} from ${raw} where _file_id in (${files.map(quote).join(', ')})${await landedSince(sql, files)}`,
    );
  }
  made.set(table, holds);
  return table;
}

/**
 * ` and _landed_at >= '…'`, the files' first landing time, when every one of them is a landed file: a raw row's
 * _landed_at is its file's landed_at, and the scan then skips the row groups of older files (most of the scan on
 * years of orders).
 */
async function landedSince(sql: DuckDBConnection, files: string[]): Promise<string> {
  const { count, since } = await firstLandingOf(sql, files);
  return count === new Set(files).size && since ? ` and _landed_at >= ${quote(since)}::timestamptz` : '';
}

/**
 * The least value of the increment's `since` column among the rows a keyed run can keep, as a literal: the files' rows
 * of the changed keys, and the rows the model holds for them (makeHeld). A row of the raw table below it is an older
 * version that lost to a row the model holds, and loses again; so the run reads and deletes from there on, and the
 * scans skip the older row groups. None when one of those rows has no value.
 */
async function leastSince(
  sql: DuckDBConnection,
  model: Model,
  table: string,
  files: string[],
): Promise<string | undefined> {
  const { raw, raw_key: rawKey, since } = model.config.increment!;
  const held = await makeHeld(sql, model, table);
  const reader = await sql
    .runAndReadAll(
      `
    select count(*) = count(v), min(v)::varchar, any_value(typeof(v)) from (
      select ${since!.raw} as v from ${raw} as found semi join ${table} as changed on ${rawKey.map((c, i) => `found.${c} is not distinct from changed.k${i}`).join(' and ')}
      where _file_id in (${files.map(quote).join(', ')})${await landedSince(sql, files)}
      union all
      select since from ${held}
    )`,
    )
    .catch(sinceError(model));
  const [valued, value, type] = reader.getRowsJson()[0] as [boolean, string | null, string | null];
  return valued && value !== null ? `${quote(value)}::${type}` : undefined;
}

const heldTable = (model: Model) => `held_${model.name}`;

/**
 * Forgets the rows makeHeld read for a model: what it holds changes when it runs, and a later plan reads them again.
 */
export const forgetHeld = (sql: DuckDBConnection, model: Model) => changedHolds.get(sql)?.delete(heldTable(model));

/**
 * Makes a temp table hold (k0, k1, …, since) for each row the model holds for the keys in `table` (makeChanged's):
 * the row's key and `since` column, read before its run replaces them. The marts show those rows now; an older raw
 * version of those keys shows nowhere. Without the model's table yet (or its columns), every raw version of the keys
 * (`since.raw`).
 * A pipeline's touchedDates reads it as `held` (changedKeysOf), and the model's run takes it as it is.
 * No literal list of the keys (listedKeys; describeKeys makes none): the keyed runs insert every connection's changed
 * rows together, so the keys' rows lie in any row group of the model's table; a list of more than one value skips none
 * there and only filters every row again, which is slower than none. The raw fallback comes
 * with a first load (or a table of an earlier version), rarely enough that its lookup is not worth a second form.
 */
export async function makeHeld(sql: DuckDBConnection, model: Model, table: string): Promise<string> {
  const { raw, raw_key: rawKey, key, since } = model.config.increment!;
  const held = heldTable(model);
  const made = changedHolds.get(sql)!;
  const holds = `${table} ${made.get(table)}`;
  if (made.get(held) === holds) return held;
  made.delete(held);
  const keys = await describeKeys(sql, table, rawKey.length, false);
  // (A table built by an earlier version of the model may lack the columns: its run rebuilds it whole.)
  const built = new Set(((await tableColumns(sql, model.id)) ?? []).map((c) => c.split(' ')[0]));
  const [from, columns, value] = [...key, since!.column].every((c) => built.has(c))
    ? [model.id, key, since!.column]
    : [raw, rawKey, since!.raw];
  await sql
    .run(
      `create or replace temp table ${held} as select ${columns.map((c, i) => `this.${c} as k${i}`).join(', ')}, this.${value} as since from ${from} as this semi join ${table} as changed on ${matchKeys(keys, 'this', columns)}`,
    )
    .catch(sinceError(model));
  made.set(held, holds);
  return held;
}

const sinceError = (model: Model) => (error: Error) => {
  throw new MktdataError(
    'ERR_INPUT_INVALID',
    { where: `${model.path.replace(/\.sql$/, '.yml')} increment.since`, reason: describe(error) },
    { cause: error },
  );
};

type Keys = { nulls: boolean; list?: string }[];

/** `alias`'s columns matched to the keys k0, k1, … of `changed` (describeKeys tells which may be null). */
const matchKeys = (keys: Keys, alias: string, columns: string[]) =>
  columns.map((c, i) => `${alias}.${c} ${keys[i]!.nulls ? 'is not distinct from' : '='} changed.k${i}`).join(' and ');

/** ` and <column> in (…)` for each key column with a literal list. */
const listedKeys = (keys: Keys, alias: string, columns: string[]) =>
  columns.map((c, i) => (keys[i]!.list ? ` and ${alias}.${c} ${keys[i]!.list}` : '')).join('');

/** Keys of a column this few or fewer are also given to the scans as a literal list. */
const MOST_LISTED = 1000;

/**
 * Per key column of the keys in `table`: whether one of its values is null, and (`listed`) `in (…)` its values when
 * they are few and none is null. Without a null, `=` matches the same rows as `is not distinct from`, and DuckDB can
 * push it into the scan of the other side. A literal list it filters in the scan before reading the other columns,
 * and it skips the row groups the list misses (two settlements' rows among
 * years of raw rows: a twentieth of the time).
 */
async function describeKeys(sql: DuckDBConnection, table: string, columns: number, listed = true): Promise<Keys> {
  const keys: Keys = [];
  for (let i = 0; i < columns; i++) {
    const listing = listed
      ? `if(count(distinct k${i}) <= ${MOST_LISTED}, list(distinct k${i}::varchar), null)`
      : 'null';
    const reader = await sql.runAndReadAll(
      `select count(k${i}) < count(*), any_value(typeof(k${i})), ${listing} from ${table}`,
    );
    const [nulls, type, values] = reader.getRowsJson()[0] as [boolean, string, string[] | null];
    keys.push({
      nulls,
      list: !nulls && values ? `in (${values.map((v) => `${quote(v)}::${type}`).join(', ')})` : undefined,
    });
  }
  return keys;
}

/** Whether a table built from the model's SQL has the columns the SQL now produces. */
async function sameColumns(sql: DuckDBConnection, model: Model): Promise<boolean> {
  const reader = await sql.runAndReadAll(`describe ${model.sql.replace(/;\s*$/, '')}`);
  const produced = reader.getRowsJson().map(([name, type]) => `${name} ${type}`);
  return produced.join(',') === ((await tableColumns(sql, model.id)) ?? []).join(',');
}
