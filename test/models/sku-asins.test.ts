import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Warehouse } from '../../src/db/warehouse.ts';
import { runModels } from '../../src/models/run-models.ts';
import { makeHome, rows, US } from '../helpers/home.ts';

const model = 'intermediate.int_sku_asins';

/**
 * The model's inputs, made by hand with the columns it reads: order lines, returns, Sponsored Products and Sponsored
 * Display rows, and unit costs.
 */
async function inputs(wh: Warehouse) {
  const c = `'${US.id}'`;
  await wh.sql.run(`
    create schema if not exists staging;
    create table staging.stg_mkt__order_items as select * from (values
      (${c}, 'A', 'A1', 'Old name', timestamptz '2026-01-01 10:00:00+00'),
      (${c}, 'A', 'A2', 'New name', timestamptz '2026-02-01 10:00:00+00'),
      (${c}, 'A', null, null, timestamptz '2026-04-01 10:00:00+00')
    ) as t(connection_id, sku, asin, product_name, purchased_at);
    create table staging.stg_mkt__returns as select * from (values
      (${c}, 'A', 'A3', timestamptz '2026-03-01 10:00:00+00'),
      (${c}, 'B', 'B1', timestamptz '2026-01-05 10:00:00+00')
    ) as t(connection_id, sku, asin, returned_at);
    create table staging.stg_ads__sp_advertised_product as select * from (values
      (${c}, 'B', 'B2', date '2026-03-01'),
      (${c}, 'C', 'C1', date '2026-01-01')
    ) as t(connection_id, advertised_sku, advertised_asin, date);
    create table staging.stg_ads__sd_advertised_product as select * from (values
      (${c}, 'C', 'C2', date '2026-01-02')
    ) as t(connection_id, promoted_sku, promoted_asin, date);
    insert into control.cogs (connection_id, asin, sku, cost_currency, from_date, cost_item_value, cost_item_shipping_value, updated_at) values
      (${c}, 'D1', 'D', 'USD', date '2026-01-01', 1, 0, now()),
      (${c}, 'D2', 'D', 'USD', date '2025-06-01', 1, 0, now()),
      (${c}, '', 'E', 'USD', date '2026-01-01', 1, 0, now());
  `);
}

describe('intermediate.int_sku_asins', () => {
  let wh: Warehouse;
  beforeEach(async () => ({ wh } = await makeHome()));
  afterEach(async () => wh.close());

  it('takes the latest sighting of the most preferred source: order lines, then returns, then ads, then unit costs', async () => {
    await inputs(wh);
    // (With the order lines' sightings by date, made from them.)
    const results = await runModels(wh, { select: ['intermediate.int_sku_sightings_by_date', model], upstream: false });
    expect(results.map((r) => r.status)).toEqual(['success', 'success']);
    // A: order lines win over the later return (A3); of its lines with an ASIN the latest (A2); the product name of
    //    its latest line with a name.
    // B: no order line: the return (B1) wins over the later ad (B2).
    // C: ads only: Sponsored Display's 2026-01-02 (C2) is later than Sponsored Products' 2026-01-01 (C1).
    // D: unit costs only: the latest fromDate (D1). E: its only unit cost has no ASIN, so E has no row.
    expect(await rows(wh, `select sku, asin, product_name from ${model} order by sku`)).toEqual([
      { sku: 'A', asin: 'A2', product_name: 'New name' },
      { sku: 'B', asin: 'B1', product_name: null },
      { sku: 'C', asin: 'C2', product_name: null },
      { sku: 'D', asin: 'D1', product_name: null },
    ]);
  });
});
