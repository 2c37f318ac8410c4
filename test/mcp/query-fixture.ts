// A published home with two organizations for the query sandbox's tests, built once per test file.
//
// Organization A (makeHome's "Test org"): connections US (Amazon.com, America/Los_Angeles, prices without tax) and
// DE (Amazon.de, prices with tax). Organization B: connection B1 (Amazon.com). Every order line is shipped and
// bought at 12:00 UTC, the same date in Los Angeles (04:00) and Berlin (13:00).
//
//  connection  order  date        sku         units  item-price  item-tax  unit cost (item + shipping)
//  US          A-1    2026-03-02  MUG         2      30.00                 4.00 + 1.00
//  US          A-2    2026-03-03  MUG         1      15.50                 4.00 + 1.00
//  US          A-3    2026-03-03  CUP         3      21.00                 2.50 + 0.25
//  DE          A-4    2026-03-02  TASSE       1       9.99     1.60        none
//  US          BULK-n 2026-03-01  BULK        1       1.00                 none        (n = 1..2000: the largest table)
//  B1          B-1    2026-03-02  MUG         1      99.00                 none
//  B1          B-2    2026-03-03  SECRET-SKU  1     500.00                 none
//
// Profit of a line = sales - sales tax (DE only, prices include it) - fees (none: no settlement) - cost of goods
// (units × unit cost) - ad spend (none) + refund cost (none) (spec 001, profit measure rules).
import type { Warehouse } from '../../src/db/warehouse.ts';
import { addConnection } from '../../src/control/connections/connections.ts';
import { createOrganization } from '../../src/control/organizations.ts';
import type { Home } from '../../src/home.ts';
import { runModels } from '../../src/models/run-models.ts';
import { publish } from '../../src/publish/publish.ts';
import type { QueryScope } from '../../src/mcp/query/run-scoped-query.ts';
import { DE, makeHome, US, type OrderLine } from '../helpers/home.ts';
import { landCogs, landOrders } from '../helpers/profit.ts';

export const B1 = { id: '00000000-0000-4000-8000-00000000b001', marketplaceId: US.marketplaceId };
export const BULK_LINES = 2000;
export const PROFIT = 'mkt_profit_by_sku_and_date';
export const ORDERS = 'mkt_order_items_with_cogs';

/** Organization A may read the two tables; mkt_cogs is published too, but not in its scope. */
export const scopeA: QueryScope = { sellerOrVendorIds: [US.id, DE.id], tables: [PROFIT, ORDERS] };

/** A shipped order line bought at 12:00 UTC on `date`. */
export const line = (id: string, date: string, sku: string, quantity: string, price: string, tax = ''): OrderLine => ({
  'amazon-order-id': id,
  'purchase-date': `${date}T12:00:00+00:00`,
  'last-updated-date': `${date}T12:00:00+00:00`,
  'order-status': 'Shipped',
  'item-status': 'Shipped',
  'fulfillment-channel': 'Amazon',
  sku,
  asin: `B0${sku.replace(/\W/g, '').padEnd(8, '0').slice(0, 8)}`,
  quantity,
  currency: 'USD',
  'item-price': price,
  'item-tax': tax,
});

/** Builds and publishes the home described above. */
export async function buildQueryHome(): Promise<{ home: Home; wh: Warehouse; dir: string }> {
  const made = await makeHome();
  const { wh, dir } = made;
  const other = await createOrganization(wh, { name: 'Other org', tokens: 10 });
  await addConnection(wh, { organizationId: other, id: B1.id, name: 'Other US', marketplaceId: B1.marketplaceId });
  await landCogs(wh, dir, US, [
    'B0MUG00000,MUG,USD,2026-01-01,4.00,1.00,S1',
    'B0CUP00000,CUP,USD,2026-01-01,2.50,0.25,S2',
  ]);
  const bulk = Array.from({ length: BULK_LINES }, (_, n) => line(`BULK-${n + 1}`, '2026-03-01', 'BULK', '1', '1.00'));
  await landOrders(wh, dir, US, [
    line('A-1', '2026-03-02', 'MUG', '2', '30.00'),
    line('A-2', '2026-03-03', 'MUG', '1', '15.50'),
    line('A-3', '2026-03-03', 'CUP', '3', '21.00'),
    ...bulk,
  ]);
  await landOrders(wh, dir, DE, [{ ...line('A-4', '2026-03-02', 'TASSE', '1', '9.99', '1.60'), currency: 'EUR' }]);
  await landOrders(wh, dir, B1, [
    line('B-1', '2026-03-02', 'MUG', '1', '99.00'),
    line('B-2', '2026-03-03', 'SECRET-SKU', '1', '500.00'),
  ]);
  await buildAndPublish(wh);
  return made;
}

/** Builds the tables the tests read and publishes them. */
export async function buildAndPublish(wh: Warehouse): Promise<void> {
  const results = await runModels(wh, { select: [`marts.${PROFIT}`, `marts.${ORDERS}`, 'marts.mkt_cogs'] });
  const failed = results.filter((r) => r.status !== 'success');
  if (failed.length) throw new Error(failed.map((r) => `${r.model}: ${r.error}`).join('; '));
  await publish(wh);
}
