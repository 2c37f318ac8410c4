import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Warehouse } from '../../src/db/warehouse.ts';
import { land, makeHome, rows, US } from '../helpers/home.ts';
import { buildAll, landCogs, writeJson } from '../helpers/profit.ts';

// mkt_sales_and_traffic_with_cogs from Amazon's published example (sellerSalesAndTrafficReport.json examples[0], DAY /
// SKU, 2021-06-11..2021-06-14), narrowed to its first day: the daily tables take one-day reports only. Its by-ASIN
// entries carry what the schema defines per ASIN and nothing shipped or refunded; the by-date block has those, for
// the whole account (2021-06-11: 59 units shipped in 54 orders for 650.72, 1 unit refunded, refund rate 4.35 = 1 / 23
// units ordered × 100), and none of it belongs to one ASIN.
const DAY = '2021-06-11';
const example = JSON.parse(
  readFileSync(new URL('../../fixtures/upstream-samples/GET_SALES_AND_TRAFFIC_REPORT.example.json', import.meta.url), 'utf8'),
);
const oneDay = {
  ...example,
  reportSpecification: { ...example.reportSpecification, dataStartTime: DAY, dataEndTime: DAY },
  salesAndTrafficByDate: example.salesAndTrafficByDate.slice(0, 1),
};

const SHIPPED_AND_REFUNDED = [
  'shipped_product_sales',
  'shipped_product_sales_b2b',
  'units_shipped',
  'units_shipped_b2b',
  'orders_shipped',
  'orders_shipped_b2b',
  'units_refunded',
  'units_refunded_b2b',
  'refund_rate',
  'refund_rate_b2b',
];
const none = Object.fromEntries(SHIPPED_AND_REFUNDED.map((c) => [c, null]));

describe("mkt_sales_and_traffic_with_cogs from Amazon's example report", () => {
  let wh: Warehouse;
  let dir: string;
  let landed: unknown;

  beforeAll(async () => {
    ({ wh, dir } = await makeHome());
    expect(oneDay.salesAndTrafficByDate[0].date).toBe(DAY);
    landed = await land(wh, 'GET_SALES_AND_TRAFFIC_REPORT', US, writeJson(dir, 'example-one-day.json', oneDay));
    // One unit cost, for the second SKU: 4.00 item + 0.25 shipping.
    await landCogs(wh, dir, US, ['B234567890,CD-2E3F-GHIJ,USD,2021-01-01,4.00,0.25,Supplier Y']);
    await buildAll(wh);
  });

  afterAll(async () => wh?.close());

  it('lands one row per by-ASIN entry', () => {
    expect(landed).toMatchObject({ status: 'landed', rows: 3 });
  });

  it('holds each entry as sent, with null shipped and refunded columns', async () => {
    const got = await rows(
      wh,
      `select date, child_asin, parent_asin, product_name, buybox_percentage, buybox_percentage_b2b,
        units_session_percentage, page_views, page_views_b2b, browser_page_views, mobile_session, mobile_page_views,
        session, sessions_b2b, browser_session, total_sales, total_units, total_units_b2b, total_orders,
        ${SHIPPED_AND_REFUNDED.join(', ')}, cogs_item_value, cogs_shipping_value, cogs_total_value, cogs_present
      from marts.mkt_sales_and_traffic_with_cogs where seller_or_vendor_id = $c order by child_asin`,
      { c: US.id },
    );
    // No entry has B2B fields: the B2B counts are 0. No order of these ASINs landed: no product name.
    const common = { date: DAY, product_name: null, buybox_percentage_b2b: '0.0000', page_views_b2b: '0.0000' };
    const b2b = { sessions_b2b: '0.0000', total_units_b2b: '0.0000' };
    expect(got).toEqual([
      {
        ...common,
        child_asin: 'B123456789',
        parent_asin: 'B123456789',
        buybox_percentage: '95.2400',
        // As sent: 7.69, though 1 unit / 18 sessions would be 5.56.
        units_session_percentage: '7.6900',
        // Page views 21 browser + 22 mobile = 43; sessions 13 + 5 = 18.
        page_views: '43.0000',
        browser_page_views: '21.0000',
        mobile_page_views: '22.0000',
        session: '18.0000',
        browser_session: '13.0000',
        mobile_session: '5.0000',
        ...b2b,
        total_sales: '16.7900',
        total_units: '1.0000',
        total_orders: '1.0000',
        ...none,
        cogs_item_value: null,
        cogs_shipping_value: null,
        cogs_total_value: null,
        cogs_present: false,
      },
      {
        ...common,
        child_asin: 'B234567890',
        parent_asin: 'B234567890',
        buybox_percentage: '0.0000',
        units_session_percentage: '37.5000',
        // 21 + 12 = 33 page views; 8 + 5 = 13 sessions.
        page_views: '33.0000',
        browser_page_views: '21.0000',
        mobile_page_views: '12.0000',
        session: '13.0000',
        browser_session: '8.0000',
        mobile_session: '5.0000',
        ...b2b,
        // 3 units in 2 order items for 26.25.
        total_sales: '26.2500',
        total_units: '3.0000',
        total_orders: '2.0000',
        ...none,
        // Unit cost × units ordered: 4.00 × 3 = 12.00; 0.25 × 3 = 0.75; (4.00 + 0.25) × 3 = 12.75.
        cogs_item_value: '12.0000',
        cogs_shipping_value: '0.7500',
        cogs_total_value: '12.7500',
        cogs_present: true,
      },
      {
        ...common,
        child_asin: 'B345678901',
        parent_asin: 'B345678901',
        buybox_percentage: '100.0000',
        // As sent, above 100: 3 units / 6 sessions would be 50.
        units_session_percentage: '300.0000',
        // 41 + 22 = 63 page views; 1 + 5 = 6 sessions.
        page_views: '63.0000',
        browser_page_views: '41.0000',
        mobile_page_views: '22.0000',
        session: '6.0000',
        browser_session: '1.0000',
        mobile_session: '5.0000',
        ...b2b,
        total_sales: '45.0000',
        total_units: '3.0000',
        total_orders: '3.0000',
        ...none,
        cogs_item_value: null,
        cogs_shipping_value: null,
        cogs_total_value: null,
        cogs_present: false,
      },
    ]);
  });

  it("keeps the day's total ordered sales the sum of its entries", async () => {
    const [sum] = await rows(
      wh,
      `select sum(total_sales)::varchar as total_sales, sum(total_units)::varchar as total_units
      from marts.mkt_sales_and_traffic_with_cogs where seller_or_vendor_id = $c and date = $d`,
      { c: US.id, d: DAY },
    );
    // 16.79 + 26.25 + 45.00 = 88.04; units 1 + 3 + 3 = 7.
    expect(sum).toEqual({ total_sales: '88.0400', total_units: '7.0000' });
  });
});
