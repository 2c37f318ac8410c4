// The query tool's engine on a real published home (./query-fixture.ts): answers, types, caps, scope, and the lock
// of the sandbox instance checked statement by statement on its own connection, without the statement checks.
import { copyFileSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Warehouse } from '../../src/db/warehouse.ts';
import type { Home } from '../../src/home.ts';
import { closeReaders } from '../../src/mcp/query/attached-snapshots.ts';
import { openSandbox } from '../../src/mcp/query/open-sandbox.ts';
import { querySlots } from '../../src/mcp/query/query-slots.ts';
import { runScopedQuery } from '../../src/mcp/query/run-scoped-query.ts';
import { DE, makeHome, US } from '../helpers/home.ts';
import { landOrders } from '../helpers/profit.ts';
import { B1, BULK_LINES, buildAndPublish, buildQueryHome, line, ORDERS, PROFIT, scopeA } from './query-fixture.ts';

describe('runScopedQuery', () => {
  let home: Home;
  let wh: Warehouse;
  let dir: string;

  beforeAll(async () => {
    ({ home, wh, dir } = await buildQueryHome());
  });
  afterAll(async () => {
    await closeReaders();
    await wh?.close();
  });

  it("sums organization A's profit by SKU as worked out by hand, with DuckDB's column types", async () => {
    const result = await runScopedQuery(
      home,
      scopeA,
      `select sku, sum(profit) as profit, sum(total_units_sold)::integer as units from ${PROFIT} group by sku order by sku`,
    );
    // BULK:  2000 lines × 1.00, no cost                                     = 2000.00
    // CUP:   21.00 - 3 × (2.50 + 0.25) = 21.00 - 8.25                        =   12.75
    // MUG:   (30.00 + 15.50) - 3 × (4.00 + 1.00) = 45.50 - 15.00            =   30.50 (B1's 99.00 MUG is not A's)
    // TASSE: 9.99 - 1.60 tax (Amazon.de prices include it), no cost         =    8.39
    expect(result.rows).toEqual([
      { sku: 'BULK', profit: 2000, units: BULK_LINES },
      { sku: 'CUP', profit: 12.75, units: 3 },
      { sku: 'MUG', profit: 30.5, units: 3 },
      { sku: 'TASSE', profit: 8.39, units: 1 },
    ]);
    expect(result.columns).toEqual([
      { name: 'sku', type: 'VARCHAR' },
      { name: 'profit', type: 'DECIMAL(38,2)' }, // amounts are read in cents, as an export has them
      { name: 'units', type: 'INTEGER' },
    ]);
    expect(result).toMatchObject({ rowCount: 4, truncated: false, tables: [PROFIT] });
  });

  it('renders dates, timestamps, exact decimals and big integers JSON-safe', async () => {
    const result = await runScopedQuery(
      home,
      scopeA,
      `select date, order_purchased_at_utc, item_price_value, 12345678901234567.1234::decimal(38,4) as wide,
         9007199254740993::bigint as big, 42::bigint as small, timestamptz '2026-03-02 12:00:00.25+00' as at
       from ${ORDERS} where mkt_order_id = 'A-3'`,
    );
    expect(result.rows).toEqual([
      {
        date: '2026-03-03',
        order_purchased_at_utc: '2026-03-03T12:00:00',
        item_price_value: 21,
        // 21 significant digits: more than a JavaScript number holds exactly, so the exact text
        wide: '12345678901234567.1234',
        big: '9007199254740993',
        small: 42,
        at: '2026-03-02T12:00:00.25Z',
      },
    ]);
    expect(result.columns.map((c) => c.type)).toEqual([
      'DATE',
      'TIMESTAMP',
      'DECIMAL(18,2)',
      'DECIMAL(38,4)',
      'BIGINT',
      'BIGINT',
      'TIMESTAMP WITH TIME ZONE',
    ]);
  });

  it('cuts the answer at the row cap and says it is truncated', async () => {
    const result = await runScopedQuery(home, scopeA, `select mkt_order_id from ${ORDERS} order by mkt_order_id`, {
      rowCap: 5,
    });
    expect(result.rows).toEqual(['A-1', 'A-2', 'A-3', 'A-4', 'BULK-1'].map((id) => ({ mkt_order_id: id })));
    expect(result).toMatchObject({ rowCount: 5, truncated: true });
    // exactly the cap: nothing more existed, not truncated
    const exact = await runScopedQuery(home, scopeA, `select * from ${PROFIT} where sku in ('MUG', 'CUP')`, {
      rowCap: 3,
    });
    // MUG on 03-02 and 03-03, CUP on 03-03
    expect(exact).toMatchObject({ rowCount: 3, truncated: false });
  });

  it('cuts the answer before its rows as JSON pass the size cap', async () => {
    // each row is {"s":"x…x"}: 1000 x and 8 characters around them = 1008; two make 2016, a third 3024 > 3000
    const result = await runScopedQuery(home, scopeA, `select repeat('x', 1000) as s from range(10)`, {
      maxBytes: 3000,
    });
    expect(result).toMatchObject({ rowCount: 2, truncated: true });
  });

  it("shows only organization A's rows, whatever the statement asks", async () => {
    const ids = await runScopedQuery(
      home,
      scopeA,
      `select distinct seller_or_vendor_id as id from (select seller_or_vendor_id from ${PROFIT} union all select seller_or_vendor_id from ${ORDERS}) order by id`,
    );
    expect(ids.rows).toEqual([{ id: US.id }, { id: DE.id }].sort((a, b) => a.id.localeCompare(b.id)));
    const other = await runScopedQuery(home, scopeA, `select * from ${ORDERS} where seller_or_vendor_id = '${B1.id}'`);
    expect(other).toMatchObject({ rows: [], rowCount: 0, truncated: false });
    // and B sees its own, none of A's
    const b = await runScopedQuery(home, { sellerOrVendorIds: [B1.id], tables: [ORDERS] }, `select sku from ${ORDERS}`);
    expect(b.rows.map((r) => r.sku).sort()).toEqual(['MUG', 'SECRET-SKU']);
    const none = await runScopedQuery(home, { sellerOrVendorIds: [], tables: [ORDERS] }, `select * from ${ORDERS}`);
    expect(none.rowCount).toBe(0);
  });

  it('reads every shard of a scaled-out install through one view per table', async () => {
    // Two shards holding copies of the same snapshot: each of A's rows comes once from each.
    const shards = join(dir, 'shards');
    for (const shard of ['a', 'b']) {
      mkdirSync(join(shards, shard, 'published'), { recursive: true });
      for (const file of ['warehouse.duckdb', 'manifest.json'])
        copyFileSync(join(home.publishedDir, file), join(shards, shard, 'published', file));
    }
    const result = await runScopedQuery({ ...home, shards }, scopeA, `select sum(profit) as p from ${PROFIT}`);
    // 2 × (2000.00 + 12.75 + 30.50 + 8.39) = 2 × 2051.64
    expect(result.rows).toEqual([{ p: 4103.28 }]);
  });

  it('answers ERR_NOT_PUBLISHED before the first publish', async () => {
    const fresh = await makeHome();
    try {
      await expect(runScopedQuery(fresh.home, scopeA, `select 1`)).rejects.toMatchObject({
        code: 'ERR_NOT_PUBLISHED',
      });
    } finally {
      await fresh.wh.close();
    }
  });

  it('runs two sandboxes at once and queues the others', async () => {
    const slow = `with recursive r(n) as (select 1 union all select n + 1 from r) select count(*) from r`;
    const calls = [1, 2, 3].map(() =>
      runScopedQuery(home, scopeA, slow, { timeoutMs: 600 }).catch((e: { code: string }) => e.code),
    );
    const deadline = Date.now() + 5_000;
    while (querySlots().waiting === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    expect(querySlots()).toEqual({ running: 2, waiting: 1 });
    expect(await Promise.all(calls)).toEqual(['ERR_QUERY_TIMEOUT', 'ERR_QUERY_TIMEOUT', 'ERR_QUERY_TIMEOUT']);
    expect(querySlots()).toEqual({ running: 0, waiting: 0 });
  });

  describe('the sandbox instance, without the statement checks', () => {
    it('reads no file, attaches nothing, writes no file, and its configuration is locked', async () => {
      const sandbox = await openSandbox(home, [US.id], [ORDERS], '64MB');
      const error = async (sql: string) => {
        try {
          await sandbox.sql.run(sql);
          return 'ran';
        } catch (e) {
          return (e as Error).message.split('\n')[0]!;
        }
      };
      try {
        const setting = async (name: string) =>
          (await sandbox.sql.runAndReadAll(`select current_setting('${name}')::varchar`)).getRowsJson()[0]![0];
        // The reader's limit is QUERY_SLOTS (2) × 64MB = 128MB = 122.0 MiB, shared by the statements running at once.
        expect(await setting('memory_limit')).toBe('122.0 MiB');
        expect(await setting('enable_external_access')).toBe('false');
        expect(await setting('lock_configuration')).toBe('true');
        expect(await setting('max_temp_directory_size')).toBe('0 bytes');
        expect(await setting('temp_directory')).toBe('');
        expect(await setting('threads')).toBe('2');
        // (DuckDB 1.5's current_setting('disabled_filesystems') reads '' even when set: its refusals show it is.)
        expect(await error(`select * from read_csv('/etc/passwd')`)).toMatch(/^Permission Error.*LocalFileSystem/);
        expect(await error(`attach '${join(dir, 'other.duckdb')}' as other`)).toMatch(/^Permission Error/);
        expect(await error(`copy (select 1) to '${join(dir, 'leak.csv')}'`)).toMatch(/^Permission Error/);
        expect(existsSync(join(dir, 'leak.csv'))).toBe(false);
        expect(await error(`install httpfs`)).toMatch(/Error/);
        for (const set of [
          `set enable_external_access = true`,
          `set lock_configuration = false`,
          `set memory_limit = '10GB'`,
          `set disabled_filesystems = ''`,
          `set temp_directory = '${dir}'`,
        ])
          expect(await error(set), set).toMatch(/locked|disabled/);
        // No spilling: a sort larger than the cap fails instead of writing temporary files.
        expect(await error(`select * from range(20000000) order by random()`)).toMatch(/^Out of Memory Error/);
        expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
        // The view holds the given connection's rows only, and no other connection of the reader sees it.
        const ids = await sandbox.sql.runAndReadAll(`select distinct seller_or_vendor_id from ${ORDERS}`);
        expect(ids.getRowsJson()).toEqual([[US.id]]);
        const other = await openSandbox(home, [B1.id], [], '64MB');
        expect(other.sql).not.toBe(sandbox.sql);
        await expect(other.sql.run(`select * from ${ORDERS}`)).rejects.toThrow(/Catalog Error/);
        other.close();
      } finally {
        sandbox.close();
      }
    });
  });

  it('answers from a new snapshot as soon as it is published (a prepared instance of the old one is not used)', async () => {
    const count = `select count(*)::integer as n from ${ORDERS} where mkt_order_id = 'A-5'`;
    expect((await runScopedQuery(home, scopeA, count)).rows).toEqual([{ n: 0 }]);
    await landOrders(wh, dir, US, [line('A-5', '2026-03-04', 'MUG', '1', '10.00')]);
    await buildAndPublish(wh);
    expect((await runScopedQuery(home, scopeA, count)).rows).toEqual([{ n: 1 }]);
  });
});
