// `npm run bench -- connections` (issue: a run's cost follows the data, not the number of connections): the same
// order lines held by 1, 60 and 600 connections of a single home, each landed as All Orders documents; the profit
// pipeline's first run, then the next day's documents and the run that takes them in, timed for each.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { addConnection } from '../src/control/connections/connections.ts';
import { createOrganization } from '../src/control/organizations.ts';
import { openWarehouse, type Warehouse } from '../src/db/warehouse.ts';
import { resolveHome } from '../src/home.ts';
import { findPipeline, loadPipelines } from '../src/pipelines/pipeline-config.ts';
import { landWaitingFiles } from '../src/ingest/landing.ts';
import { addDays, runPipeline } from '../src/pipelines/run-pipeline.ts';
import { clockAt } from './daily-run.ts';

const ORDERS = 'GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL';
/** The last day of the first documents; the next day's documents hold the day after. */
const LAST_DAY = '2026-10-31';

/** One holding of the same lines: its first run and its next-day run. */
export interface ConnectionsRound {
  connections: number;
  firstMs: number;
  nextMs: number;
  /** windows the next-day run replaced */
  windows: number;
}

export interface ConnectionsBenchResult {
  lines: number;
  days: number;
  rounds: ConnectionsRound[];
}

/**
 * All Orders documents of the connection `k` of `count` (every `count`-th of `lines` lines, numbered from `first`:
 * their order ids) over the `days` days ending on `last`, written with DuckDB's COPY into the connection's landing
 * folder.
 */
async function writeOrders(
  wh: Warehouse,
  ids: string[],
  lines: number,
  days: number,
  last: string,
  name: string,
  first = 0,
): Promise<void> {
  await wh.sql.run(`create or replace temp table bench_lines as
    select i, i % ${ids.length} as k, (date '${last}' - (i % ${days})::int)::timestamp + to_seconds((i * 37) % 86400) as ts, i % 40 as product
    from range(${first}, ${first + lines}) t(i)`);
  for (const [k, id] of ids.entries()) {
    const folder = join(wh.home.landing, id, ORDERS);
    mkdirSync(folder, { recursive: true });
    await wh.sql.run(`copy (
      select format('111-{:07d}-{:07d}', k, i) as "amazon-order-id", '' as "merchant-order-id",
             strftime(ts, '%Y-%m-%dT%H:%M:%S+00:00') as "purchase-date", strftime(ts + interval 1 hour, '%Y-%m-%dT%H:%M:%S+00:00') as "last-updated-date",
             'Shipped' as "order-status", 'Amazon' as "fulfillment-channel", 'Amazon.com' as "sales-channel", '' as "order-channel",
             'Standard' as "ship-service-level", 'Bench product ' || product as "product-name", 'BENCH-' || product as sku,
             format('B0BENCH{:03d}', product) as asin, 'Shipped' as "item-status", 1 + i % 3 as quantity, 'USD' as currency,
             19.99 + product as "item-price", 1.60 as "item-tax", 4.99 as "shipping-price", 0.40 as "shipping-tax",
             0.00 as "gift-wrap-price", 0.00 as "gift-wrap-tax", 0.00 as "item-promotion-discount", 0.00 as "ship-promotion-discount",
             'SEATTLE' as "ship-city", 'WA' as "ship-state", '98101' as "ship-postal-code", 'US' as "ship-country",
             '' as "promotion-ids", '' as cpf, 'false' as "is-business-order", '' as "purchase-order-number", '' as "price-designation"
      from bench_lines where k = ${k} order by i
    ) to '${join(folder, `${name}.tsv`)}' (format csv, delimiter '\t', header true)`);
  }
}

/**
 * The same `lines` order lines over `days` days held by each number of connections in turn, each in a home of its own.
 */
export async function benchConnections(
  workDir: string,
  log: (message: string) => void,
  options: { counts?: number[]; lines?: number; days?: number } = {},
): Promise<ConnectionsBenchResult> {
  const { counts = [1, 60, 600], lines = 120_000, days = 30 } = options;
  const pipeline = findPipeline(loadPipelines(), 'profit');
  const nextDay = addDays(LAST_DAY, 1);
  const rounds: ConnectionsRound[] = [];
  for (const count of counts) {
    const wh = await openWarehouse(resolveHome(join(workDir, `connections-${count}`)), 'bench', { create: true });
    try {
      const organizationId = await createOrganization(wh, { name: 'Agency', tokens: 0 });
      const ids = Array.from({ length: count }, (_, i) => `00000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`);
      for (const [i, id] of ids.entries())
        await addConnection(wh, {
          organizationId,
          id,
          name: `Seller ${i + 1}`,
          marketplaceId: 'ATVPDKIKX0DER',
          sellerId: `A0BENCH${i + 1}`,
        });
      await writeOrders(wh, ids, lines, days, LAST_DAY, `orders-${LAST_DAY}`);
      const timed = async (date: string, label: string) => {
        const models: { model: string; ms: number; windows: number }[] = [];
        const started = performance.now();
        // Landed first, as the run would (it finds nothing left to land): the run's parts are timed apart.
        const landed = await landWaitingFiles(wh, Object.keys(pipeline.sources));
        const landMs = performance.now() - started;
        const summary = await runPipeline(wh, pipeline, {
          now: clockAt(date),
          onResult: (r) => models.push({ model: r.model, ms: r.ms, windows: r.windows?.length ?? 0 }),
        });
        const ms = performance.now() - started;
        const inModels = models.reduce((sum, m) => sum + m.ms, 0);
        const slowest = models
          .sort((a, b) => b.ms - a.ms)
          .slice(0, 4)
          .map((m) => `${m.model} ${m.ms} ms/${m.windows} windows`)
          .join(', ');
        if (summary.status !== 'success') throw new Error(`${count} connections, ${label} run: ${summary.status}`);
        log(
          `  ${String(count).padStart(4)} connection(s), ${label} run: ${ms.toFixed(0)} ms (landing ${landMs.toFixed(0)} ms, models ${inModels} ms, planning, records and publish ${(ms - landMs - inModels).toFixed(0)} ms), ${summary.windows.length} windows, ${landed.length} file(s) landed; slowest: ${slowest}`,
        );
        return { ms, windows: summary.windows.length };
      };
      const first = await timed(nextDay, 'first');
      // The next day: a thirtieth of each connection's lines again, new orders dated that day.
      await writeOrders(wh, ids, Math.max(count, Math.round(lines / days)), 1, nextDay, `orders-${nextDay}`, lines);
      const next = await timed(addDays(nextDay, 1), 'next-day');
      rounds.push({ connections: count, firstMs: first.ms, nextMs: next.ms, windows: next.windows });
    } finally {
      await wh.close();
    }
  }
  return { lines, days, rounds };
}
