import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Warehouse } from '../../src/db/warehouse.ts';
import { runModels } from '../../src/models/run-models.ts';
import { land, makeHome, rows, US, DE, writeOrders, type OrderLine } from '../helpers/home.ts';

const SOURCE = 'GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL';
const line = (over: OrderLine): OrderLine => ({
  'purchase-date': '2026-03-01T12:00:00+00:00',
  'last-updated-date': '2026-03-01T12:00:00+00:00',
  'order-status': 'Shipped',
  'fulfillment-channel': 'Amazon',
  sku: 'SKU-A',
  asin: 'B000000001',
  'item-status': 'Shipped',
  quantity: '1',
  currency: 'USD',
  'item-price': '10.00',
  ...over,
});

async function build(wh: Warehouse) {
  const results = await runModels(wh);
  expect(results.filter((r) => r.status !== 'success')).toEqual([]);
}

const items = (wh: Warehouse, where = 'true') =>
  rows(wh, `select * from marts.mkt_order_items_with_cogs where ${where} order by mkt_order_id, line_item_number`);

describe('mkt_order_items_with_cogs', () => {
  let wh: Warehouse;
  let dir: string;
  beforeEach(async () => ({ wh, dir } = await makeHome()));
  afterEach(async () => wh.close());

  it('dates each order in its marketplace timezone across UTC midnight', async () => {
    // US, America/Los_Angeles, PST = UTC-8 on 1 March: 07:30Z is 23:30 on 28 Feb; 08:30Z is 00:30 on 1 March.
    await land(
      wh,
      SOURCE,
      US,
      writeOrders(dir, 'us.tsv', [
        line({ 'amazon-order-id': 'US-1', 'purchase-date': '2026-03-01T07:30:00+00:00' }),
        line({ 'amazon-order-id': 'US-2', 'purchase-date': '2026-03-01T08:30:00+00:00' }),
      ]),
    );
    // DE, Europe/Berlin: CET = UTC+1 on 1 March, 23:30Z is 00:30 on 2 March;
    // CEST = UTC+2 on 1 July, 21:59Z is 23:59 on 1 July and 22:00Z is 00:00 on 2 July.
    await land(
      wh,
      SOURCE,
      DE,
      writeOrders(dir, 'de.tsv', [
        line({ 'amazon-order-id': 'DE-1', 'purchase-date': '2026-03-01T23:30:00+00:00', currency: 'EUR' }),
        line({ 'amazon-order-id': 'DE-2', 'purchase-date': '2026-07-01T21:59:00+00:00', currency: 'EUR' }),
        line({ 'amazon-order-id': 'DE-3', 'purchase-date': '2026-07-01T22:00:00+00:00', currency: 'EUR' }),
      ]),
    );
    await build(wh);
    const got = await rows(
      wh,
      `select mkt_order_id, date, order_date, order_purchased_at_utc, marketplace_country_code from marts.mkt_order_items_with_cogs order by mkt_order_id`,
    );
    expect(got).toEqual([
      {
        mkt_order_id: 'DE-1',
        date: '2026-03-02',
        order_date: '2026-03-02',
        order_purchased_at_utc: '2026-03-01 23:30:00',
        marketplace_country_code: 'DE',
      },
      {
        mkt_order_id: 'DE-2',
        date: '2026-07-01',
        order_date: '2026-07-01',
        order_purchased_at_utc: '2026-07-01 21:59:00',
        marketplace_country_code: 'DE',
      },
      {
        mkt_order_id: 'DE-3',
        date: '2026-07-02',
        order_date: '2026-07-02',
        order_purchased_at_utc: '2026-07-01 22:00:00',
        marketplace_country_code: 'DE',
      },
      {
        mkt_order_id: 'US-1',
        date: '2026-02-28',
        order_date: '2026-02-28',
        order_purchased_at_utc: '2026-03-01 07:30:00',
        marketplace_country_code: 'US',
      },
      {
        mkt_order_id: 'US-2',
        date: '2026-03-01',
        order_date: '2026-03-01',
        order_purchased_at_utc: '2026-03-01 08:30:00',
        marketplace_country_code: 'US',
      },
    ]);
  });

  it('keeps the latest version of a line, whatever order the files landed in', async () => {
    const pending = line({
      'amazon-order-id': 'O-1',
      'last-updated-date': '2026-03-01T12:05:00+00:00',
      'order-status': 'Pending',
      'item-status': '',
      'item-price': '',
    });
    const shippedV2 = line({
      'amazon-order-id': 'O-1',
      'last-updated-date': '2026-03-03T09:00:00+00:00',
      'item-price': '19.98',
      quantity: '2',
    });
    // The newer version lands first: last-updated-date decides, not landing order.
    await land(wh, SOURCE, US, writeOrders(dir, 'v2.tsv', [shippedV2]));
    await land(wh, SOURCE, US, writeOrders(dir, 'v1.tsv', [pending]));
    await build(wh);
    expect(await items(wh)).toMatchObject([
      {
        mkt_order_id: 'O-1',
        mkt_order_status: 'Shipped',
        item_status: 'Shipped',
        quantity: '2',
        item_price_value: '19.9800',
        mkt_order_updated_at: '2026-03-03 09:00:00',
      },
    ]);
  });

  it('maps cancelled and pending lines to the spec statuses with null prices', async () => {
    await land(
      wh,
      SOURCE,
      US,
      writeOrders(dir, 'o.tsv', [
        line({ 'amazon-order-id': 'C-1', 'order-status': 'Cancelled', 'item-status': 'Cancelled', 'item-price': '' }),
        line({ 'amazon-order-id': 'P-1', 'order-status': 'Pending', 'item-status': '', 'item-price': '' }),
        line({
          'amazon-order-id': 'S-1',
          'order-status': 'Shipping',
          'item-status': 'Unshipped',
          'fulfillment-channel': 'Merchant',
          'ship-promotion-discount': '-1.50',
        }),
      ]),
    );
    await build(wh);
    expect(await items(wh)).toMatchObject([
      {
        mkt_order_id: 'C-1',
        mkt_order_status: 'Canceled',
        item_status: 'Canceled',
        item_price_value: null,
        fulfillment_channel: 'Amazon',
        mkt_order_channel: 'WEBSITE',
      },
      { mkt_order_id: 'P-1', mkt_order_status: 'Pending', item_status: null, item_price_value: null },
      // A negative ship promotion discount is stored as its magnitude.
      {
        mkt_order_id: 'S-1',
        mkt_order_status: 'Unshipped',
        item_status: 'Unshipped',
        fulfillment_channel: 'Merchant',
        item_ship_promotion_discount_value: '1.5000',
      },
    ]);
  });

  it('applies the latest COGS fromDate on or before the local order date, and none before the first', async () => {
    writeFileSync(
      join(dir, 'cogs.csv'),
      [
        'asin,sku,costCurrency,fromDate,costItemValue,costItemShippingValue,itemSupplierName',
        'B000000001,SKU-A,USD,2026-01-01,5.00,0.50,Old Supplier',
        'B000000001,SKU-A,USD,2026-03-01,6.00,0.40,New Supplier',
      ].join('\n'),
    );
    await land(wh, 'cogs', US, join(dir, 'cogs.csv'));
    await land(
      wh,
      SOURCE,
      US,
      writeOrders(dir, 'o.tsv', [
        // 1 March 07:30Z is 28 Feb in Los Angeles: the 2026-01-01 row applies. 2 × (5.00 + 0.50) = 11.00.
        line({ 'amazon-order-id': 'A-1', 'purchase-date': '2026-03-01T07:30:00+00:00', quantity: '2' }),
        // 1 March 20:00Z is 1 March locally: the 2026-03-01 row applies. 1 × (6.00 + 0.40) = 6.40.
        line({ 'amazon-order-id': 'A-2', 'purchase-date': '2026-03-01T20:00:00+00:00' }),
        // Before the first fromDate: no cost applies.
        line({ 'amazon-order-id': 'A-3', 'purchase-date': '2025-12-31T20:00:00+00:00' }),
        // A SKU with no COGS row at all.
        line({ 'amazon-order-id': 'A-4', sku: 'SKU-NONE', asin: 'B000000009' }),
      ]),
    );
    await build(wh);
    const got = await rows(
      wh,
      `select mkt_order_id, cogs_item_value, cogs_shipping_value, cogs_total_value, cogs_present, cogs_currency, item_supplier_name from marts.mkt_order_items_with_cogs order by mkt_order_id`,
    );
    expect(got).toEqual([
      {
        mkt_order_id: 'A-1',
        cogs_item_value: '10.0000',
        cogs_shipping_value: '1.0000',
        cogs_total_value: '11.0000',
        cogs_present: true,
        cogs_currency: 'USD',
        item_supplier_name: 'Old Supplier',
      },
      {
        mkt_order_id: 'A-2',
        cogs_item_value: '6.0000',
        cogs_shipping_value: '0.4000',
        cogs_total_value: '6.4000',
        cogs_present: true,
        cogs_currency: 'USD',
        item_supplier_name: 'New Supplier',
      },
      {
        mkt_order_id: 'A-3',
        cogs_item_value: null,
        cogs_shipping_value: null,
        cogs_total_value: null,
        cogs_present: false,
        cogs_currency: null,
        item_supplier_name: null,
      },
      {
        mkt_order_id: 'A-4',
        cogs_item_value: null,
        cogs_shipping_value: null,
        cogs_total_value: null,
        cogs_present: false,
        cogs_currency: null,
        item_supplier_name: null,
      },
    ]);
  });

  it('rebuilds only the requested window and leaves other dates alone', async () => {
    await land(
      wh,
      SOURCE,
      US,
      writeOrders(dir, 'o.tsv', [
        line({ 'amazon-order-id': 'W-1', 'purchase-date': '2026-03-01T20:00:00+00:00' }),
        line({ 'amazon-order-id': 'W-2', 'purchase-date': '2026-03-05T20:00:00+00:00' }),
      ]),
    );
    await build(wh);
    await wh.sql.run(`update marts.mkt_order_items_with_cogs set product_name = 'marker'`);
    const results = await runModels(wh, {
      select: ['mkt_order_items_with_cogs'],
      from: '2026-03-05',
      to: '2026-03-05',
    });
    expect(results.map((r) => `${r.model} ${r.status}`)).toEqual([
      'seeds.marketplaces success',
      'staging.stg_mkt__order_items success',
      'intermediate.int_connections_described success',
      'intermediate.int_unit_costs success',
      'marts.mkt_order_items_with_cogs success',
    ]);
    expect(await rows(wh, `select mkt_order_id, product_name from marts.mkt_order_items_with_cogs order by 1`)).toEqual(
      [
        { mkt_order_id: 'W-1', product_name: 'marker' },
        { mkt_order_id: 'W-2', product_name: null },
      ],
    );
  });

  it('produces identical rows when built twice and when a file is landed twice', async () => {
    const file = writeOrders(dir, 'o.tsv', [
      line({ 'amazon-order-id': 'I-1' }),
      line({ 'amazon-order-id': 'I-1', sku: 'SKU-B' }),
    ]);
    await land(wh, SOURCE, US, file);
    await build(wh);
    const first = await items(wh);
    await land(wh, SOURCE, US, file);
    await build(wh);
    expect(await items(wh)).toEqual(first);
    expect(first.map((r) => [r.mkt_order_item_id, r.line_item_number])).toEqual([
      ['I-1/SKU-A', '1'],
      ['I-1/SKU-B', '2'],
    ]);
  });
});
