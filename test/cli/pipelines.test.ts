import { describe, expect, it } from 'vitest';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../../src/api/app.ts';
import { mcpRoutes } from '../../src/mcp/http-route.ts';
import { openWarehouse } from '../../src/db/warehouse.ts';
import { resolveHome } from '../../src/home.ts';
import { localClock } from '../../src/pipelines/plan.ts';
import { cli } from '../helpers/home.ts';

const lastLine = (text: string) => text.trim().split('\n').at(-1)!;
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const demo = 'fixtures/demo';
const us = '6f1c2f0e-3b7a-4c55-9d0e-1a2b3c4d5e01';

describe('mktdata plan, run and runs', () => {
  it('lands the landing folder, rebuilds the planned windows, lists them, and reports freshness', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mktdata-pipelines-'));
    const home = join(dir, 'home');
    const h = ['--home', home];
    expect((await cli(['init', ...h])).code).toBe(0);
    const org = lastLine((await cli(['org', 'create', '--name', 'Acme', ...h])).stdout);
    const key = lastLine((await cli(['keys', 'create', '--org', org, ...h])).stdout);
    expect(
      (
        await cli([
          'connections',
          'add',
          '--org',
          org,
          '--name',
          'Acme US',
          '--marketplace',
          'ATVPDKIKX0DER',
          '--id',
          us,
          ...h,
        ])
      ).code,
    ).toBe(0);
    // The demo's US files, as a user or a connector drops them: landing/<sellerOrVendorId>/<SOURCE>/.
    for (const source of readdirSync(join(demo, 'us'), { withFileTypes: true }).filter((d) => d.isDirectory())) {
      cpSync(join(demo, 'us', source.name), join(home, 'landing', us, source.name), { recursive: true });
    }
    mkdirSync(join(home, 'landing', us, 'cogs'));
    cpSync(join(demo, 'us', 'cogs.csv'), join(home, 'landing', us, 'cogs', 'cogs.csv'));
    mkdirSync(join(home, 'landing', 'not-a-connection', 'cogs'), { recursive: true });
    cpSync(join(demo, 'us', 'cogs.csv'), join(home, 'landing', 'not-a-connection', 'cogs', 'cogs.csv'));

    const today = localClock(new Date(), 'America/Los_Angeles').date;
    const plan = await cli(['plan', '--pipeline', 'profit', '--format', 'json', ...h]);
    expect(plan.code, plan.stderr).toBe(0);
    const planned = JSON.parse(plan.stdout) as Record<string, string>[];
    expect(planned.filter((w) => w.table === 'mkt_order_items_with_cogs').map((w) => [w.kind, w.stage, w.to])).toEqual([
      ['INITIAL', 'FIRST_STAGE', today],
      ['INITIAL', 'SECOND_STAGE', planned.find((w) => w.stage === 'SECOND_STAGE')!.to],
    ]);
    const waiting = await cli(['plan', '--pipeline', 'profit', ...h]);
    expect(waiting.stdout).toMatch(
      new RegExp(`^landing/${us}/GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL: 2 file\\(s\\) to land$`, 'm'),
    );
    expect(waiting.stdout).toContain('landing/not-a-connection/cogs: 1 file(s) not landed: no such connection');

    // The run succeeds, but a folder it could not land makes the command fail, naming it.
    const run = await cli(['run', '--pipeline', 'profit', ...h]);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain('landing/not-a-connection/cogs: 1 file(s) not landed: no such connection');
    expect(run.stderr).toMatch(/^mktdata: 1 file\(s\) or folder\(s\) not landed/m);
    const runId = lastLine(run.stdout);
    expect(runId).toMatch(uuid);
    expect(run.stdout).toMatch(/^landed +GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL /m);
    expect(run.stdout).toMatch(/^success profit mkt_profit_by_date .* CONTINUOUS\/SECOND_STAGE /m);
    expect(existsSync(join(home, 'landing', us, 'GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL'))).toBe(true);
    expect(readdirSync(join(home, 'landing', us, 'GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL'))).toEqual([]);

    const runs = JSON.parse((await cli(['runs', '--pipeline', 'profit', '--format', 'json', ...h])).stdout) as Record<
      string,
      unknown
    >[];
    expect(new Set(runs.map((r) => r.run))).toEqual(new Set([runId]));
    expect(runs.every((r) => r.status === 'success' && r.run_status === 'success')).toBe(true);
    expect(runs.find((r) => r.table === 'mkt_order_items_with_cogs' && r.stage === 'SECOND_STAGE')).toMatchObject({
      kind: 'INITIAL',
      rows: expect.any(Number),
    });

    // A mistyped source folder names the sources there are.
    rmSync(join(home, 'landing', 'not-a-connection'), { recursive: true });
    mkdirSync(join(home, 'landing', us, 'GET_FLAT_FILE_ALL_ORDERS_DATA'), { recursive: true });
    cpSync(join(demo, 'us', 'cogs.csv'), join(home, 'landing', us, 'GET_FLAT_FILE_ALL_ORDERS_DATA', 'orders.tsv'));
    const mistyped = await cli(['run', '--pipeline', 'profit', ...h]);
    expect(mistyped.code).toBe(1);
    expect(mistyped.stderr).toMatch(
      /GET_FLAT_FILE_ALL_ORDERS_DATA: 1 file\(s\) not landed: no source is called GET_FLAT_FILE_ALL_ORDERS_DATA; the sources are .*GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL, /,
    );
    rmSync(join(home, 'landing', us, 'GET_FLAT_FILE_ALL_ORDERS_DATA'), { recursive: true });

    // Nothing new and nothing due in the same refresh slot: nothing is rebuilt or published.
    const again = await cli(['run', '--pipeline', 'profit', ...h]);
    expect(again.stdout).toContain('profit: nothing new landed and nothing planned');

    const backfill = await cli(['run', '--pipeline', 'profit', '--from', '2026-09-01', '--to', '2026-09-30', ...h]);
    expect(backfill.code, backfill.stderr).toBe(0);
    expect(backfill.stdout).toMatch(
      /^success profit mkt_profit_by_sku_and_date \S+ BACKFILL 2026-09-01\.\.2026-09-30 \d+ rows, \d+ ms$/m,
    );
    expect((await cli(['run', '--from', '2026-09-01', ...h])).stderr).toBe(
      'mktdata: --from/--to: a backfill needs both --from and --to\n',
    );
    expect((await cli(['run', '--pipeline', 'nope', ...h])).stderr).toMatch(
      /^mktdata: --pipeline: no pipeline nope; known: awd, fba, listings, profit, promotions, replenishment\n$/,
    );

    // Freshness in the catalog entry and on the table's page: profit is final 35 days back (settlements' daily window).
    const wh = await openWarehouse(resolveHome(home), 'test');
    try {
      const app = await buildApp({ wh, home: resolveHome(home), requestsPerSecond: 100, extensions: [mcpRoutes] });
      const scheme = (
        await app.inject({ method: 'GET', url: '/api/v1/spec/data-scheme?query=mkt_profit_by_date' })
      ).json();
      const entry = scheme.sources.find((s: { tableName: string }) => s.tableName === 'mkt_profit_by_date');
      const finalThrough = new Date(Date.parse(`${today}T00:00:00Z`) - 35 * 86_400_000).toISOString().slice(0, 10);
      // Fed by dropped files only: never fetched, no failed fetch.
      expect(entry.freshness).toEqual({
        lastRefreshedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
        finalThrough,
        lastFetchedAt: null,
        failedFetches: 0,
      });
      const page = (await app.inject({ method: 'GET', url: '/api/v1/spec/data-scheme/mkt_profit_by_date.md' })).body;
      expect(page).toContain(`final through ${finalThrough}`);
      const listings = scheme.sources.find((s: { tableName: string }) => s.tableName === 'mkt_listings_with_cogs');
      expect(listings?.freshness?.finalThrough ?? null).toBeNull();
      // The MCP tool describe_table says it per connection: the organization's one, final 35 days back too.
      const described = await app.inject({
        method: 'POST',
        url: '/mcp',
        headers: { 'service-api-key': key, accept: 'application/json, text/event-stream' },
        payload: {
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'describe_table', arguments: { tableName: 'mkt_profit_by_date' } },
        },
      });
      expect(described.json().result.structuredContent.freshnessByConnection).toEqual([
        { sellerOrVendorId: us, lastRefreshedAt: entry.freshness.lastRefreshedAt, finalThrough },
      ]);
      await app.close();
    } finally {
      await wh.close();
    }
  });
});
