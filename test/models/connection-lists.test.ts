// Models that take their connections as a list (`in $connection_ids`, one statement for every connection with the
// same window and timezone) build exactly the rows they build one connection a statement: the demo sellers' files
// landed for three connections each (each a different part of them), built both ways, every mart compared with
// `except all` both ways. A model that let one connection's rows meet another's (a join or window without the
// connection) differs here: the copies hold different orders, costs and reports.
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Warehouse } from '../../src/db/warehouse.ts';
import { runModels } from '../../src/models/run-models.ts';
import { landDemoFixtures } from '../helpers/demo-fixtures.ts';
import { makeHome } from '../helpers/home.ts';

describe('models taking connections as a list', () => {
  let wh: Warehouse;
  let perConnection: string;
  let marts: string[];

  beforeAll(async () => {
    let dir: string;
    ({ wh, dir } = await makeHome());
    await landDemoFixtures(wh, { copies: 2 });
    // The same models with `= $connection_id`: one statement per connection, the path they replace.
    perConnection = join(dir, 'models');
    cpSync('models', perConnection, { recursive: true });
    for (const entry of readdirSync(perConnection, { recursive: true, encoding: 'utf8' }).filter((f) =>
      f.endsWith('.sql'),
    )) {
      const path = join(perConnection, entry);
      writeFileSync(path, readFileSync(path, 'utf8').replaceAll('in $connection_ids', '= $connection_id'));
    }
    const built = await runModels(wh, { modelsDir: perConnection });
    expect(built.filter((r) => r.status !== 'success')).toEqual([]);
    const reader = await wh.sql.runAndReadAll(
      `select table_name from duckdb_tables() where schema_name = 'marts' order by 1`,
    );
    marts = reader.getRowsJson().map(([name]) => String(name));
    await wh.sql.run('create schema expected');
    for (const table of marts) await wh.sql.run(`create table expected.${table} as select * from marts.${table}`);
  }, 300_000);
  afterAll(async () => wh?.close());

  /** Per mart: rows only in the built table and only in the expected one. */
  async function differences() {
    const out: { table: string; onlyBuilt: number; onlyExpected: number }[] = [];
    const count = async (query: string) =>
      Number((await wh.sql.runAndReadAll(`select count(*) from (${query})`)).getRowsJson()[0]![0]);
    for (const table of marts) {
      const onlyBuilt = await count(`select * from marts.${table} except all select * from expected.${table}`);
      const onlyExpected = await count(`select * from expected.${table} except all select * from marts.${table}`);
      if (onlyBuilt + onlyExpected > 0) out.push({ table, onlyBuilt, onlyExpected });
    }
    return out;
  }

  it('is every windowed model: none builds one connection a statement', () => {
    const sql = readdirSync('models/marts')
      .filter((f) => f.endsWith('.sql'))
      .map((f) => [f, readFileSync(join('models/marts', f), 'utf8')] as const);
    expect(sql.filter(([, text]) => /\$connection_id\b/.test(text)).map(([f]) => f)).toEqual([]);
    expect(sql.filter(([, text]) => text.includes('in $connection_ids')).length).toBe(13);
  });

  it('rebuild windows of every connection as one statement per connection does', async () => {
    const built = await runModels(wh, { from: '2026-09-20', to: '2026-10-15' });
    expect(built.filter((r) => r.status !== 'success')).toEqual([]);
    // Three connections a marketplace and timezone: each statement's window covers three.
    expect(await differences()).toEqual([]);
  }, 300_000);

  it('rebuild every table whole as one statement per connection does', async () => {
    const built = await runModels(wh, { fullRefresh: true });
    expect(built.filter((r) => r.status !== 'success')).toEqual([]);
    expect(await differences()).toEqual([]);
  }, 300_000);

  // test/models/reference/ holds the two profit tables' SQL as it was before rules 1-10 moved to one definition
  // (intermediate.int_profit_lines), each table computing them itself: both must give the same rows.
  it('build the profit tables the reference SQL of each builds', async () => {
    const ids = (await wh.db.selectFrom('control.connections').select('id').execute())
      .map((c) => `'${c.id}'`)
      .join(', ');
    const count = async (query: string) =>
      Number((await wh.sql.runAndReadAll(`select count(*) from (${query})`)).getRowsJson()[0]![0]);
    for (const table of ['mkt_profit_by_sku_and_date', 'mkt_profit_by_date']) {
      const reference = readFileSync(join('test/models/reference', `${table}.sql`), 'utf8').replaceAll(
        '$connection_ids',
        `(${ids})`,
      );
      // Into the table's own column types, as the runner inserts its rows.
      await wh.sql.run(`create or replace table expected.reference_${table} as select * from marts.${table} limit 0`);
      await wh.sql.run(`insert into expected.reference_${table} by name ${reference}`, {
        from: '1900-01-01',
        to: '9999-12-31',
      });
      const rows = await count(`select * from marts.${table}`);
      expect(rows, table).toBeGreaterThan(400);
      expect(
        await count(`select * from marts.${table} except all select * from expected.reference_${table}`),
        table,
      ).toBe(0);
      expect(
        await count(`select * from expected.reference_${table} except all select * from marts.${table}`),
        table,
      ).toBe(0);
    }
  }, 300_000);
});
