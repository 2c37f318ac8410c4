// `npm run bench -- mcp`: what a typical `query` tool call costs (issue 59): profit by SKU for 30 days of one
// connection, called through the SDK's client over Streamable HTTP at /mcp of a listening app, as an assistant calls
// it. Targets: p95 under 150 ms on the demo home; under 3× a bare DuckDB run of the same SQL on the published file of
// a two-year home (the median of paired attempts, bench/paired.ts).
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { DuckDBInstance } from '@duckdb/node-api';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { mcpRoutes } from '../src/mcp/http-route.ts';
import { buildApp, type App } from '../src/api/app.ts';
import { addConnection } from '../src/control/connections/connections.ts';
import { createApiKey, createOrganization } from '../src/control/organizations.ts';
import { addTokens } from '../src/control/tokens.ts';
import { openWarehouse, type Warehouse } from '../src/db/warehouse.ts';
import { resolveHome, type Home } from '../src/home.ts';
import { publish } from '../src/publish/publish.ts';
import { call, httpClient, mcpHome } from '../test/helpers/mcp-home.ts';
import { log, type Benchmark } from './benchmark.ts';
import { generateProfit, lastDay, profitConnections, profitRows, profitTable } from './mcp-data.ts';
import { medianRatio, takeTurns } from './paired.ts';

const DEMO_CALLS = 200;
const PAIRS = 40;
/** The demo's US seller and the last day of its files (fixtures/demo). */
const demo = { connection: '6f1c2f0e-3b7a-4c55-9d0e-1a2b3c4d5e01', lastDay: '2026-10-15' };

/** The typical question: profit by SKU over the 30 days to `day`, one connection, best first. */
const profitBySku = (connection: string, day: string) =>
  `select sku, sum(profit) as profit, sum(total_sales) as total_sales from ${profitTable} ` +
  `where seller_or_vendor_id = '${connection}' and date > date '${day}' - 30 group by sku order by profit desc`;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

/** The app of `home` listening on loopback with a client of `key`; the rate limit out of the way. */
async function served(wh: Warehouse, home: Home, key: string): Promise<{ app: App; client: Client }> {
  const app = await buildApp({ wh, home, logger: false, extensions: [mcpRoutes], requestsPerSecond: 1_000_000 });
  const origin = await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, client: await httpClient(origin, key) };
}

/** One timed tool call; throws unless it answered rows. */
async function timedCall(client: Client, sql: string): Promise<number> {
  const start = performance.now();
  const { isError, value } = await call(client, 'query', { sql });
  const ms = performance.now() - start;
  if (isError || value.rowCount === 0) throw new Error(`query tool: ${JSON.stringify(value).slice(0, 500)}`);
  return ms;
}

async function demoCalls(): Promise<number[]> {
  const { home, wh, key, org } = await mcpHome();
  await addTokens(wh, org, 10 * DEMO_CALLS); // each call costs 5 (a premium table)
  const { app, client } = await served(wh, home, key);
  try {
    const sql = profitBySku(demo.connection, demo.lastDay);
    await timedCall(client, sql);
    const times: number[] = [];
    for (let i = 0; i < DEMO_CALLS; i++) times.push(await timedCall(client, sql));
    return times;
  } finally {
    await client.close();
    await app.close();
    await wh.close();
  }
}

/** Back to back, without settling the disks between: both sides hot, the tool's fixed cost laid bare. */
async function hotTurns(side: () => Promise<number>, other: () => Promise<number>): Promise<[number[], number[]]> {
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < PAIRS; i++) {
    a.push(await side());
    b.push(await other());
  }
  return [a, b];
}

interface TwoYears {
  tool: number[];
  bare: number[];
  hot: [number[], number[]];
}

async function twoYearPairs(workDir: string): Promise<TwoYears> {
  const home = resolveHome(join(workDir, 'two-years'));
  const wh = await openWarehouse(home, 'bench', { create: true });
  const org = await createOrganization(wh, { name: 'Bench MCP', tokens: 1_000_000_000 });
  for (const c of profitConnections)
    await addConnection(wh, {
      organizationId: org,
      id: c.id,
      name: `Bench ${c.country}`,
      marketplaceId: c.marketplaceId,
    });
  await generateProfit(wh);
  await publish(wh);
  log(`  two-year home: ${profitRows.toLocaleString('en-US')} rows of ${profitTable} published`);
  const { app, client } = await served(wh, home, await createApiKey(wh, org));
  const engine = await DuckDBInstance.create(home.published, { access_mode: 'READ_ONLY' });
  const bare = await engine.connect();
  try {
    const sql = profitBySku(profitConnections[0]!.id, lastDay);
    const tool = () => timedCall(client, sql);
    const bareRun = async () => {
      const start = performance.now();
      await bare.runAndReadAll(sql);
      return performance.now() - start;
    };
    const [toolMs, bareMs] = await takeTurns(PAIRS, tool, bareRun, () => {});
    return { tool: toolMs, bare: bareMs, hot: await hotTurns(tool, bareRun) };
  } finally {
    bare.closeSync();
    engine.closeSync();
    await client.close();
    await app.close();
    await wh.close();
  }
}

export const mcpBenchmark: Benchmark = {
  name: 'mcp',
  async run(workDir) {
    const demoTimes = await demoCalls();
    const { tool, bare, hot } = await twoYearPairs(workDir);
    const demoP95 = percentile(demoTimes, 95);
    const ratio = medianRatio(tool, bare);
    return {
      steps: [
        { step: `query tool, demo home (p50 of ${DEMO_CALLS})`, ms: percentile(demoTimes, 50), rows: 1 },
        { step: `query tool, demo home (p95 of ${DEMO_CALLS})`, ms: demoP95, rows: 1 },
        { step: `query tool, two-year home (p50 of ${PAIRS})`, ms: percentile(tool, 50), rows: 1 },
        { step: `bare DuckDB, two-year home (p50 of ${PAIRS})`, ms: percentile(bare, 50), rows: 1 },
        { step: `query tool, two-year home (p95 of ${PAIRS})`, ms: percentile(tool, 95), rows: 1 },
        { step: `bare DuckDB, two-year home (p95 of ${PAIRS})`, ms: percentile(bare, 95), rows: 1 },
      ],
      summary: [
        `mcp query tool on the demo home: p95 ${demoP95.toFixed(0)} ms (target < 150 ms)` +
          (demoP95 >= 150 ? '  ← above target' : ''),
        `mcp query tool / bare DuckDB on the two-year home = ${ratio.toFixed(2)}x, the median of ${PAIRS} pairs (target < 3x)` +
          (ratio >= 3 ? '  ← above target' : ''),
        `mcp query tool / bare DuckDB, both hot (back to back, no settling) = ${medianRatio(...hot).toFixed(2)}x: p50 ${percentile(hot[0], 50).toFixed(1)} ms against ${percentile(hot[1], 50).toFixed(1)} ms (no target: the tool's fixed cost, HTTP, MCP, key, control plane, against a query DuckDB answers from its cache)`,
      ],
    };
  },
};
