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
import { profitReferenceDifferences } from '../helpers/profit-reference.ts';
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
  });
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
  });

  it('rebuild every table whole as one statement per connection does', async () => {
    const built = await runModels(wh, { fullRefresh: true });
    expect(built.filter((r) => r.status !== 'success')).toEqual([]);
    expect(await differences()).toEqual([]);
  });

  // test/models/reference/ works out rules 1-10 and rule 12's traffic a second way, from the catalog tables and the
  // traffic rows (not the line views both profit tables share); rule 11 is checked on each row's own amounts.
  it('give the profit measures the reference SQL works out again', async () => {
    const { differences, referenceRows, trafficRows } = await profitReferenceDifferences(wh.sql);
    expect(referenceRows).toBeGreaterThan(400);
    expect(trafficRows).toBeGreaterThan(100);
    const none = Object.fromEntries(Object.keys(differences).map((name) => [name, 0]));
    expect(differences).toEqual(none);
  });
});
