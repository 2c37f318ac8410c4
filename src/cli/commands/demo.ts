import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { addConnection } from '../../control/connections.ts';
import { createApiKey, createOrganization } from '../../control/organizations.ts';
import { openWarehouse, type Warehouse } from '../../db/warehouse.ts';
import type { Home } from '../../home.ts';
import { landFile } from '../../ingest/land-file.ts';
import { findSource } from '../../ingest/sources/index.ts';
import { withSnapshot } from '../../publish/open-snapshot.ts';
import { formatTable } from '../output.ts';
import { build } from './build.ts';
import { serve, type ServeOptions } from './serve.ts';

/** The bundled demo set. */
export const demoDir = resolve(fileURLToPath(import.meta.url), '../../../../fixtures/demo');

const demoConnections = z.array(
  z.object({ key: z.string(), id: z.string().uuid(), name: z.string(), marketplaceId: z.string(), sellerId: z.string() }),
);

/**
 * Lands the bundled demo data for the demo organization (idempotently: files land once) and returns the
 * organization with a new API key; the caller builds.
 */
export async function loadDemoData(wh: Warehouse): Promise<{ organizationId: string; key: string }> {
  const connections = demoConnections.parse(JSON.parse(readFileSync(join(demoDir, 'connections.json'), 'utf8')));
  const org = await wh.db.selectFrom('control.organizations').select('id').where('name', '=', 'Demo organization').executeTakeFirst();
  const organizationId = org?.id ?? (await createOrganization(wh, { name: 'Demo organization', tokens: 1000 }));
  const key = await createApiKey(wh, organizationId);
  for (const c of connections) {
    const exists = await wh.db.selectFrom('control.connections').select('id').where('id', '=', c.id).executeTakeFirst();
    if (!exists) await addConnection(wh, { organizationId, id: c.id, name: c.name, marketplaceId: c.marketplaceId, sellerId: c.sellerId });
    const folder = join(demoDir, c.key);
    for (const sourceName of readdirSync(folder, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name)) {
      const source = findSource(sourceName);
      for (const file of readdirSync(join(folder, sourceName)).sort()) {
        const result = await landFile(wh, source, { id: c.id, marketplaceId: c.marketplaceId }, join(folder, sourceName, file));
        console.log(`${result.status.padEnd(8)} ${c.key}/${sourceName}/${file}`);
      }
    }
    await landFile(wh, findSource('cogs'), { id: c.id, marketplaceId: c.marketplaceId }, join(folder, 'cogs.csv'));
  }
  return { organizationId, key };
}

/** Loads the bundled demo data into a home, builds and publishes it, prints a first look, then serves the API. */
export async function demo(home: Home, options: ServeOptions): Promise<void> {
  const wh = await openWarehouse(home, 'demo', { create: true });
  let key: string;
  try {
    const loaded = await loadDemoData(wh);
    key = loaded.key;
    const { published } = await build(wh, {});
    console.log(`\n${formatTable(['table', 'rows'], published.tables.map((t) => [t.name, String(t.rows)]))}`);
    console.log(`\norganization ${loaded.organizationId}\napi key (shown once): ${key}`);
  } finally {
    await wh.close();
  }
  await withSnapshot(home, async (sql) => {
    const reader = await sql.runAndReadAll(`
      select seller_or_vendor_name as connection, currency, min(date) as first_day, max(date) as last_day,
             sum(total_sales) as total_sales, sum(total_fees) as total_fees, sum(ad_spend) as ad_spend,
             sum(cogs_total) as cogs_total, sum(refund_cost) as refund_cost, sum(profit) as profit,
             round(sum(profit) / nullif(sum(total_sales), 0) * 100, 1) as margin_pct
      from mkt_profit_by_date group by all order by all`);
    console.log(`\n${formatTable(reader.columnNames(), reader.getRowsJson())}`);
  });
  console.log(`
Try it:
  npx mktdata query --home ${home.root} "select date, seller_or_vendor_name, total_sales, total_fees, ad_spend, cogs_total, profit, roi from mkt_profit_by_date order by date desc limit 7"
  npx mktdata query --home ${home.root} "select sku, sum(profit) as profit from mkt_profit_by_sku_and_date group by all order by profit desc limit 10"
  npx mktdata export --home ${home.root} --table mkt_order_items_with_cogs --connection ${'6f1c2f0e-3b7a-4c55-9d0e-1a2b3c4d5e01'} --from 2026-09-01 --to 2026-09-30 --format csv --out orders.csv
  duckdb -readonly ${home.published}    # or any DuckDB client, read-only
`);
  await serve(home, options, (api) =>
    console.log(`
The API (key: ${key}):
  curl -s '${api}/spec/data-scheme?query=pnl'
  curl -s -H "service-api-key: ${key}" ${api}/util/organization
  curl -s -H "service-api-key: ${key}" ${api}/util/sellers-and-vendors
  curl -s -H "service-api-key: ${key}" -H 'content-type: application/json' ${api}/exports -d '{"sellerOrVendorIds": ["6f1c2f0e-3b7a-4c55-9d0e-1a2b3c4d5e01"], "tableName": "mkt_profit_by_date", "from": "2026-09-01", "to": "2026-09-30", "dateInterval": "WEEK", "aggregations": [{"column": "profit", "aggregation": "sum"}]}'
  curl -sL -H "service-api-key: ${key}" ${api}/exports/<exportId>/raw
`),
  );
}
