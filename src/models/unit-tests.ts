import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { installMacros, loadMacros } from '../db/macros.ts';
import { describe } from '../db/sql.ts';
import { duckDbOptions } from '../db/warehouse.ts';
import type { Model } from './load-models.ts';
import { inline } from './run-incremental.ts';
import { columnDdl } from './tables.ts';
import { varsOf, type UnitTest } from './unit-test-config.ts';
import { expectedTexts, isExactNumber, plainNumber, rowsDiff, rowsSelect } from './unit-test-rows.ts';
import type { ShapeColumn, TableShapes } from './unit-test-shapes.ts';

export { TableShapes } from './unit-test-shapes.ts';
export type { UnitTest } from './unit-test-config.ts';

/** What a unit test found: `failure` says what differs (a table of the rows) or what failed; none when it passed. */
export interface UnitTestOutcome {
  failure?: string;
  ms: number;
}

/** Every model with unit tests, with each of its tests. */
export const unitTestsOf = (models: Model[]) =>
  models.flatMap((model) => (model.config.unit_tests ?? []).map((test) => ({ model, test })));

/**
 * Runs one unit test in a database of its own, in memory: the macros, a table per table the model reads (the given
 * rows, or none), the model's SQL with the test's vars (a windowed model cut to its window, a catalog table into its
 * `.yml` columns, as a build does), then the rows compared with the expected ones on the columns those name.
 */
export async function runUnitTest(
  model: Model,
  test: UnitTest,
  shapes: TableShapes,
  modelsDir?: string,
): Promise<UnitTestOutcome> {
  const started = Date.now();
  const instance = await DuckDBInstance.create(':memory:', duckDbOptions);
  const sql = await instance.connect();
  try {
    await sql.run(`set TimeZone = 'UTC'`);
    await installMacros(sql, modelsDir);
    const failure = (await createInputs(sql, model, test, shapes, modelsDir)) ?? (await compare(sql, model, test));
    return { failure, ms: Date.now() - started };
  } finally {
    sql.closeSync();
    instance.closeSync();
  }
}

/** The tables the model reads, given or empty; a failure when a given row names a column its table lacks. */
async function createInputs(
  sql: DuckDBConnection,
  model: Model,
  test: UnitTest,
  shapes: TableShapes,
  modelsDir?: string,
): Promise<string | undefined> {
  const named = (text: string) => [...text.matchAll(/\b(?:raw|control)\.[a-z0-9_]+/g)].map(([t]) => t);
  // The raw and control tables the SQL names, and those of the macros (a macro reading one hides it).
  const tables = new Set([...model.deps, ...named(model.sql), ...named(loadMacros(modelsDir))]);
  for (const { input } of test.given) tables.add(input);
  for (const table of tables) {
    const given = test.given.find((g) => g.input === table);
    const columns = await shapes.of(table);
    if (!columns) {
      if (given) return `${table}: no such table`;
      continue; // a table a macro names that this model does not read
    }
    await sql.run(`create schema if not exists ${table.split('.')[0]}`);
    await sql.run(`create table ${table} (${columns.map((c) => `${c.name} ${c.type}`).join(', ')})`);
    if (!given?.rows.length) continue;
    const unknown = [...new Set(given.rows.flatMap(Object.keys))].filter((k) => !columns.some((c) => c.name === k));
    if (unknown.length) return `given ${table}: no column ${unknown.join(', ')}`;
    const select = rowsSelect(given.rows, columns);
    const error = await sql.run(`insert into ${table} by name ${select}`).then(
      () => undefined,
      (e: unknown) => describe(e),
    );
    if (error) return `given ${table}: ${error}`;
  }
  return undefined;
}

/** Runs the model's SQL and compares its rows with the expected ones; the difference, if any. */
async function compare(sql: DuckDBConnection, model: Model, test: UnitTest): Promise<string | undefined> {
  const vars = varsOf(test);
  const window = model.config.window;
  const query = window
    ? `select * from (${model.sql}) where ${window.connection_column} in $connection_ids and ${window.date_column} between $from::date and $to::date`
    : model.sql;
  const run = model.config.catalog
    ? [`create table actual (${columnDdl(model)})`, `insert into actual by name ${query}`]
    : [`create table actual as ${query}`];
  for (const statement of run) {
    const error = await sql.run(inline(statement, vars)).then(
      () => undefined,
      (e: unknown) => describe(e),
    );
    if (error) return `${model.id}: ${error}`;
  }
  const all = (await sql.runAndReadAll(`select name, type from pragma_table_info('actual')`)).getRowObjectsJson();
  const names = [...new Set(test.expect.rows.flatMap(Object.keys))];
  const columns = names.map((name) => all.find((c) => c.name === name) as ShapeColumn | undefined);
  const missing = names.filter((_, i) => !columns[i]);
  if (missing.length) return `${model.id} gives no column ${missing.join(', ')}`;
  const texts = async (select: string) =>
    (await sql.runAndReadAll(select)).getRowsJson().map((row) => row.map((v) => (v === null ? null : String(v))));
  const shape = columns as ShapeColumn[];
  const actual = (
    await texts(`select ${shape.map((c) => `${c.name}::varchar`).join(', ') || 'null'} from actual`)
  ).map((row) => (shape.length ? row : []).map((v, i) => (v !== null && isExactNumber(shape[i]!.type) ? plainNumber(v) : v)));
  const expected = await expectedTexts(test.expect.rows, shape, texts);
  const diff = rowsDiff(names, expected, actual);
  return diff ? `${model.id} unit test ${test.name}: rows differ (- expected, + given by the model)\n${diff}` : undefined;
}
