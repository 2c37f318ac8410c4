// The hostile SQL suite of the query tool (issue 59): each statement is answered by a refusal, a capped error or
// rows of organization A only, within the time cap and a margin; the process stays fine, and its memory bounded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Warehouse } from '../../src/db/warehouse.ts';
import type { Home } from '../../src/home.ts';
import { closeReaders } from '../../src/mcp/query/attached-snapshots.ts';
import { QUERY_SLOTS } from '../../src/mcp/query/query-slots.ts';
import { runScopedQuery } from '../../src/mcp/query/run-scoped-query.ts';
import { B1, buildQueryHome, ORDERS, PROFIT, scopeA } from './query-fixture.ts';

const REFUSED = 'ERR_QUERY_REFUSED';
const INVALID = 'ERR_QUERY_INVALID';
const TIMEOUT = 'ERR_QUERY_TIMEOUT';
const MEMORY = 'ERR_QUERY_MEMORY';
/** A cap hit, whichever comes first on this machine: the time cap or the memory cap. */
const CAPPED = [TIMEOUT, MEMORY];

/** What a statement must get: error codes, or an answer (rows of A only, the number given when it matters). */
type Expected = string | string[] | { rows: number };

const forever = 'with recursive r(n) as (select 1 union all select n + 1 from r)';
const hostile: [string, Expected][] = [
  // writes and DDL
  [`insert into ${PROFIT} select * from ${PROFIT}`, REFUSED],
  [`update ${ORDERS} set sku = 'x'`, REFUSED],
  [`delete from ${ORDERS}`, REFUSED],
  [`drop view ${PROFIT}`, REFUSED],
  [`create table stolen as select * from ${ORDERS}`, REFUSED],
  [`create or replace view ${PROFIT} as select 1`, REFUSED],
  [`create macro m() as 1`, REFUSED],
  // other databases, files, extensions, settings
  [`attach '/tmp/other.duckdb' as other`, REFUSED],
  [`detach database if exists other`, REFUSED],
  [`copy ${ORDERS} to '/tmp/leak.csv'`, REFUSED],
  [`copy (select * from ${ORDERS}) to '/tmp/leak.parquet' (format parquet)`, REFUSED],
  [`export database '/tmp/leak'`, REFUSED],
  [`install httpfs`, REFUSED],
  [`load httpfs`, REFUSED],
  [`set enable_external_access = true`, REFUSED],
  [`set lock_configuration = false`, REFUSED],
  [`reset memory_limit`, REFUSED],
  [`pragma enable_profiling`, REFUSED],
  [`pragma database_list`, REFUSED],
  [`call duckdb_settings()`, REFUSED],
  [`begin transaction`, REFUSED],
  [`checkpoint`, REFUSED],
  [`explain analyze select * from ${ORDERS}`, REFUSED],
  [`pivot ${ORDERS} on sku using count(*)`, REFUSED],
  // file and network table functions, replacement scans
  [`select * from read_csv('/etc/passwd')`, REFUSED],
  [`select * from read_csv_auto('/etc/passwd', header = false)`, REFUSED],
  [`select * from read_parquet('/tmp/published/warehouse.parquet')`, REFUSED],
  [`select * from read_text('/etc/passwd')`, REFUSED],
  [`select * from read_json('https://example.com/x.json')`, REFUSED],
  [`select * from glob('/etc/*')`, REFUSED],
  [`select * from '/etc/passwd'`, REFUSED],
  [`from 'file.csv'`, REFUSED],
  [`select * from 'https://example.com/data.parquet'`, REFUSED],
  [`select * from query('select * from control.connections')`, REFUSED],
  [`select * from query_table('mkt_cogs')`, REFUSED],
  [`select * from json_execute_serialized_sql('{}')`, REFUSED],
  [`select 1 where exists (from glob('*'))`, REFUSED],
  [`select * from unnest((select list(column0) from read_csv('/etc/passwd')))`, REFUSED],
  // system, catalog and settings metadata
  [`select * from duckdb_settings()`, REFUSED],
  [`select * from duckdb_tables()`, REFUSED],
  [`select * from duckdb_databases()`, REFUSED],
  [`select * from duckdb_tables`, REFUSED],
  [`select (select count(*) from duckdb_columns())`, REFUSED],
  [`select * from information_schema.tables`, REFUSED],
  [`select * from pg_catalog.pg_class`, REFUSED],
  [`select * from sqlite_master`, REFUSED],
  [`select * from pragma_table_info('${PROFIT}')`, REFUSED],
  [`select current_setting('memory_limit')`, REFUSED],
  [`select getenv('HOME')`, REFUSED],
  [`select nextval('s')`, REFUSED],
  [`select sleep_ms(60000)`, REFUSED],
  [`show tables`, REFUSED],
  [`describe ${PROFIT}`, REFUSED],
  [`summarize ${ORDERS}`, REFUSED],
  // the control plane's tables, however written
  [`select * from control.connections`, REFUSED],
  [`SELECT * FROM CONTROL.API_KEYS`, REFUSED],
  [`select * from "control"."organizations"`, REFUSED],
  [`select * from ${ORDERS}, lateral (select * from control.organizations)`, REFUSED],
  [`select * from ${PROFIT} where seller_or_vendor_id in (select id from control.connections)`, REFUSED],
  // stacked statements and comments hiding keywords
  [`select 1; drop view ${PROFIT}`, REFUSED],
  [`select 1; select 2`, REFUSED],
  [`select 1 --\n; attach '/tmp/other.duckdb' as other`, REFUSED],
  [`/* select */ attach '/tmp/other.duckdb' as other`, REFUSED],
  [`sel/**/ect 1`, INVALID],
  [`select 1 /* ; drop view ${PROFIT} */`, { rows: 1 }],
  // CTEs and subqueries reaching out
  [`with c as (select * from control.connections) select * from c`, REFUSED],
  [`${forever.replace('from r', 'from r, control.connections')} select * from r`, REFUSED],
  [`with a as (select * from b), b as (select 1) select * from a`, REFUSED],
  [`select * from (with x as (select 1) select * from x), x`, REFUSED],
  [`with duckdb_tables as (select 1 as x) select * from (select * from duckdb_tables)`, { rows: 1 }],
  // the attached snapshot and other databases, by guessed names
  [`select * from s_0000000000000000.main.${PROFIT}`, REFUSED],
  [`select * from s_0000000000000000.${PROFIT}`, REFUSED],
  [`select * from snapshot.main.${PROFIT}`, REFUSED],
  [`select * from shard_0.main.${PROFIT}`, REFUSED],
  [`select * from memory.main.${PROFIT}`, REFUSED],
  [`select * from temp.main.x`, REFUSED],
  [`select * from ${PROFIT} at (version => 1)`, REFUSED],
  [`select s_0000000000000000.main.profit_of(1, 0, 0, 0, 0, 0)`, REFUSED],
  // a table published but not in the organization's scope
  [`select * from mkt_cogs`, REFUSED],
  // another organization's connection: no refusal, the views simply have none of its rows
  [`select * from ${PROFIT} where seller_or_vendor_id = '${B1.id}'`, { rows: 0 }],
  [
    `select * from ${ORDERS} where false union all select * from ${ORDERS} where seller_or_vendor_id = '${B1.id}'`,
    { rows: 0 },
  ],
  [`select * from ${ORDERS} where sku = 'SECRET-SKU' or mkt_order_id like 'B-%'`, { rows: 0 }],
  // A's two connections, and the literal
  [`select distinct seller_or_vendor_id from ${ORDERS} union select '${B1.id}'`, { rows: 3 }],
  // statements the caps stop
  [`${forever} select * from r`, TIMEOUT],
  [`${forever} select count(*) from r`, TIMEOUT],
  [`select * from ${ORDERS} a, ${ORDERS} b order by a.product_name, b.mkt_order_id, a.sku`, CAPPED],
  [
    `select sum(hash(a.mkt_order_id, b.mkt_order_id, c.mkt_order_id)) from ${ORDERS} a, ${ORDERS} b, ${ORDERS} c`,
    CAPPED,
  ],
  [`select * from range(1000000000000) order by 1 desc`, CAPPED],
  [`select string_agg(repeat('x', 100000), ',') from range(100000)`, CAPPED],
  [`select list(i) from range(1000000000) t(i)`, CAPPED],
  [
    `select * from generate_series(timestamp '2000-01-01', timestamp '3000-01-01', interval 1 second) order by 1 desc`,
    CAPPED,
  ],
  // big values: cut at the size cap (4 MiB = 4,194,304 characters); each row {"s":"x…x"} is 100,008 characters:
  // 41 rows make 4,100,328, a 42nd would make 4,200,336 (50 rows, not more: beside two other copies of the suite,
  // making 1000 of them took longer than the 1.5 s cap)
  [`select repeat('x', 100000) as s from range(50)`, { rows: 41 }],
  // the statement's own mistakes

  [`select nope from ${ORDERS}`, INVALID],
  [`select 1 / 0::integer, 'x'::integer`, INVALID],
  [`select $1`, INVALID],
  [`select 1 ${' '.repeat(100_000)}`, REFUSED],
];

describe('runScopedQuery against hostile SQL', () => {
  let home: Home;
  let wh: Warehouse;
  const timeoutMs = 1500;
  const memoryLimit = '128MB';
  /** setting up and closing a sandbox, and scheduling on a busy machine */
  const marginMs = 2000;

  beforeAll(async () => {
    ({ home, wh } = await buildQueryHome());
  });
  afterAll(async () => {
    await closeReaders();
    await wh?.close();
  });

  it('has at least 40 statements', () => expect(hostile.length).toBeGreaterThanOrEqual(40));

  /** The outcome of one statement: its error code, or its rows after checking that none is B's. */
  async function answer(sql: string): Promise<{ code?: string; rows?: number }> {
    try {
      const result = await runScopedQuery(home, scopeA, sql, { timeoutMs, memoryLimit });
      const text = JSON.stringify(result.rows);
      // (one statement selects B's id as a literal: that is its own text, not B's row)
      if (!sql.includes(`select '${B1.id}'`)) expect(text, sql).not.toContain(B1.id);
      expect(text, sql).not.toMatch(/SECRET-SKU|"B-[12]"/);
      return { rows: result.rowCount };
    } catch (error) {
      return { code: (error as { code?: string }).code ?? (error as Error).message };
    }
  }

  it('answers each with a refusal, a capped error or rows of A only, within the time cap; the process stays fine', async () => {
    const rssBefore = process.memoryUsage().rss;
    let rssMax = rssBefore;
    // sampled while the statements run (DuckDB works on its own threads), not only between them
    const sampler = setInterval(() => (rssMax = Math.max(rssMax, process.memoryUsage().rss)), 10);
    const outcomes: string[] = [];
    try {
      for (const [sql, expected] of hostile) {
        const started = performance.now();
        const outcome = await answer(sql);
        const ms = performance.now() - started;
        outcomes.push(`${sql.slice(0, 60)} → ${JSON.stringify(outcome)} in ${ms.toFixed(0)} ms`);
        expect(ms, sql).toBeLessThan(timeoutMs + marginMs);
        if (typeof expected === 'object' && !Array.isArray(expected)) expect(outcome, sql).toEqual(expected);
        else expect([expected].flat(), `${sql}: ${JSON.stringify(outcome)}`).toContain(outcome.code);
      }
    } finally {
      clearInterval(sampler);
    }
    // The process is fine: a normal query still answers.
    const after = await runScopedQuery(home, scopeA, `select count(*)::integer as n from ${ORDERS}`);
    // 2000 BULK lines and on US, A-4 on DE
    expect(after.rows).toEqual([{ n: 2004 }]);
    // Memory: DuckDB holds each sandbox under its cap, and at most QUERY_SLOTS run at once (here one); the rest is
    // the allocator's slack and the JavaScript heap. Bound: growth under QUERY_SLOTS × the cap + 128 MB.
    const growthMb = (rssMax - rssBefore) / 2 ** 20;
    expect(growthMb, `${growthMb.toFixed(0)} MB\n${outcomes.join('\n')}`).toBeLessThan(QUERY_SLOTS * 128 + 128);
  });
});
