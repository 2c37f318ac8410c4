import { connectorFetcher } from '../../pipelines/fetch/connector-fetcher.ts';
import type { FetchEvent } from '../../pipelines/fetch/execute-fetches.ts';
import { createApiKey, createOrganization, organizationNamed } from '../../control/organizations.ts';
import { openWarehouse, type Warehouse } from '../../db/warehouse.ts';
import { connectDemoSellers, demoConnections, startDemoMarketplace } from '../../demo/demo-marketplace.ts';
import type { Home } from '../../home.ts';
import type { ModelResult } from '../../models/run-models.ts';
import { loadPipelines } from '../../pipelines/pipeline-config.ts';
import { publishDeferred, runPipeline, type RunSummary } from '../../pipelines/run-pipeline.ts';
import { readManifest, withSnapshot } from '../../publish/open-snapshot.ts';
import { formatTable } from '../output.ts';
import { serve, type ServeOptions } from './serve.ts';
import { demoDir } from '../../lib/project-paths.ts';

/** The bundled example files the demo drops by hand (promotions: the marketplace has no operation for them). */

/** The demo organization (created once) and a new API key for it. */
async function demoOrganization(wh: Warehouse): Promise<{ organizationId: string; key: string }> {
  const organizationId =
    (await organizationNamed(wh.db, 'Demo organization')) ??
    (await createOrganization(wh, { name: 'Demo organization', tokens: 1000 }));
  return { organizationId, key: await createApiKey(wh, organizationId) };
}

/** How a fetch request ended, in the order the demo counts them. */
const statuses: FetchEvent['status'][] = ['landed', 'empty', 'pending', 'failed', 'abandoned'];

/** A model that failed or warned is worth a line; the rest are summed up per pipeline. */
function printResult(r: ModelResult): void {
  if (r.status !== 'success') console.log(`${r.status === 'error' ? 'ERROR  ' : 'skipped'} ${r.model}  ${r.error}`);
  for (const f of r.findings)
    console.log(`        ${f.severity === 'warn' ? 'warn' : 'fail'}: ${r.model} ${f.name}: ${f.badRows} bad row(s)`);
}

/** Runs every pipeline once through the connectors: the two sellers' first load. */
async function firstLoad(wh: Warehouse, demo: Awaited<ReturnType<typeof startDemoMarketplace>>): Promise<void> {
  const fetched = new Map<string, number>();
  const onFetched = (e: FetchEvent) => {
    fetched.set(e.status, (fetched.get(e.status) ?? 0) + 1);
    if (e.status === 'failed' || e.status === 'abandoned')
      console.log(`fetch ${e.status}: ${e.request.source} ${e.request.from ?? ''}..${e.request.to ?? ''}: ${e.error}`);
  };
  const fetcher = connectorFetcher(demo.connectors, { onFetched });
  const summaries: RunSummary[] = [];
  for (const pipeline of loadPipelines()) {
    const started = Date.now();
    const summary = await runPipeline(wh, pipeline, {
      fetcher,
      deferPublish: true,
      onResult: printResult,
      onLanded: (r) => r.status === 'refused' && console.log(`refused ${r.source} ${r.file}: ${r.reason}`),
    });
    summaries.push(summary);
    const requests = [...fetched.values()].reduce((a, b) => a + b, 0);
    const counts =
      requests === 0
        ? 'nothing to fetch'
        : `${requests} upstream request(s) (${statuses
            .filter((s) => fetched.has(s))
            .map((s) => `${fetched.get(s)} ${s}`)
            .join(', ')})`;
    console.log(
      `${summary.status === 'success' ? 'ok     ' : 'FAILED '} ${pipeline.name}: ${counts}, ${summary.landed} document(s) landed, ${summary.windows.length} window(s) rebuilt, ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    fetched.clear();
  }
  await publishDeferred(wh, summaries);
}

/**
 * `mktdata demo` (npm start): starts a fake marketplace in this process with two sellers, connects them, does their
 * first load through the live connectors (on a clock that starts a day ago and moves while they wait: the documented
 * rate limits allow one report a minute), prints a first look, then serves the API while the pipelines keep fetching.
 */
export async function demo(home: Home, options: ServeOptions): Promise<void> {
  const market = await startDemoMarketplace();
  try {
    const wh = await openWarehouse(home, 'demo', { create: true });
    let loaded: { organizationId: string; key: string };
    try {
      loaded = await demoOrganization(wh);
      await connectDemoSellers(wh, loaded.organizationId, market, demoDir);
      console.log(
        `fake marketplace on ${market.fake.url}; first load of ${market.sellers.map((s) => s.name).join(' and ')} through the connectors (on a clock a day behind, which moves while they wait)`,
      );
      await firstLoad(wh, market);
    } finally {
      await wh.close();
    }
    // From here the scheduler fetches on real time: the next refresh times take in the day the clock skipped.
    market.clock.catchUp();
    const manifest = readManifest(home);
    console.log(
      `\n${formatTable(
        ['table', 'rows'],
        (manifest?.tables ?? []).map((t) => [t.name, String(t.rows)]),
      )}`,
    );
    console.log(`\norganization ${loaded.organizationId}\napi key (shown once): ${loaded.key}`);
    await printProfit(home);
    await serve(home, { ...options, connectors: market.connectors }, (api) => printTry(home, api, loaded.key));
  } finally {
    await market.fake.close();
  }
}

async function printProfit(home: Home): Promise<void> {
  await withSnapshot(home, async (sql) => {
    const reader = await sql.runAndReadAll(`
      select seller_or_vendor_name as connection, currency, min(date) as first_day, max(date) as last_day,
             sum(total_sales) as total_sales, sum(total_fees) as total_fees, sum(ad_spend) as ad_spend,
             sum(cogs_total) as cogs_total, sum(refund_cost) as refund_cost, sum(profit) as profit,
             round(sum(profit) / nullif(sum(total_sales), 0) * 100, 1) as margin_pct
      from mkt_profit_by_date group by all order by all`);
    console.log(`\n${formatTable(reader.columnNames(), reader.getRowsJson())}`);
  });
}

function printTry(home: Home, api: string, key: string): void {
  const us = demoConnections[0]!.id;
  console.log(`
Try it:
  npx mktdata query --home ${home.root} "select date, seller_or_vendor_name, total_sales, total_fees, ad_spend, cogs_total, profit, roi from mkt_profit_by_date order by date desc limit 7"
  npx mktdata runs --home ${home.root} --limit 1
  duckdb -readonly ${home.published}    # or any DuckDB client, read-only

The console: ${api.replace(/\/api\/v1$/, '/')} (sign in with the key below)

The API (key: ${key}):
  curl -s '${api}/spec/data-scheme?query=pnl'
  curl -s -H "service-api-key: ${key}" ${api}/util/sellers-and-vendors
  curl -s -H "service-api-key: ${key}" -H 'content-type: application/json' ${api}/exports -d '{"sellerOrVendorIds": ["${us}"], "tableName": "mkt_profit_by_date", "from": "<date>", "to": "<date>", "dateInterval": "WEEK", "aggregations": [{"column": "profit", "aggregation": "sum"}]}'
  curl -sL -H "service-api-key: ${key}" ${api}/exports/<exportId>/raw
`);
}
