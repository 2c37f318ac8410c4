import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Warehouse } from '../../src/db/warehouse.ts';
import { makeHome, rows, US } from '../helpers/home.ts';
import {
  buildAll,
  dayProfit,
  landCogs,
  landOk,
  landOrders,
  orderLine,
  skuProfit,
  trafficReport,
  writeJson,
} from '../helpers/profit.ts';

// Spec 001 rule 12, the traffic rules of both profit tables, mkt_sales_and_traffic_with_cogs, and
// docs/design/PROFIT.md "Traffic". US connection; orders at noon UTC keep their date in Los Angeles.
//   D1 = 2026-03-10: T1 (child of P1) sold through SKU-T1 and SKU-T2; T2 sold through SKU-T3 and has
//        pageViews = pageViewsB2B and sessionsB2B > sessions; T3 has traffic but no SKU row.
//   D2 = 2026-03-11: only T2-like traffic (pageViews = pageViewsB2B) for T2; SKU-T1 sells, but T1 has no traffic.
const D1 = '2026-03-10';
const D2 = '2026-03-11';
const T1 = 'B0000000T1';
const T2 = 'B0000000T2';
const T3 = 'B0000000T3';
const P1 = 'B0000000P1';

const TRAFFIC = [
  'avg_buybox_percentage',
  'avg_buybox_percentage_b2b',
  'avg_buybox_percentage_b2c',
  'total_sessions',
  'sessions_b2b',
  'sessions_b2c',
  'total_page_views',
  'page_views_b2b',
  'page_views_b2c',
];

describe('traffic measures', () => {
  let wh: Warehouse;
  let dir: string;

  beforeAll(async () => {
    ({ wh, dir } = await makeHome());
    await landOrders(wh, dir, US, [
      orderLine({
        'amazon-order-id': 'O-1',
        sku: 'SKU-T1',
        asin: T1,
        'product-name': 'Widget One',
        'purchase-date': `${D1}T12:00:00+00:00`,
      }),
      orderLine({
        'amazon-order-id': 'O-2',
        sku: 'SKU-T2',
        asin: T1,
        'product-name': 'Widget One',
        'purchase-date': `${D1}T12:00:00+00:00`,
      }),
      orderLine({
        'amazon-order-id': 'O-3',
        sku: 'SKU-T3',
        asin: T2,
        'product-name': 'Widget Two',
        'purchase-date': `${D1}T12:00:00+00:00`,
      }),
      orderLine({
        'amazon-order-id': 'O-4',
        sku: 'SKU-T1',
        asin: T1,
        'product-name': 'Widget One',
        'purchase-date': `${D2}T12:00:00+00:00`,
      }),
    ]);
    // Unit cost of T1 (through SKU-T1 only): 5.00 item + 0.50 shipping.
    await landCogs(wh, dir, US, ['B0000000T1,SKU-T1,USD,2026-01-01,5.00,0.50,Supplier X']);
    await landOk(
      wh,
      'GET_SALES_AND_TRAFFIC_REPORT',
      US,
      writeJson(
        dir,
        'traffic-d1.json',
        trafficReport(D1, US.marketplaceId, [
          {
            childAsin: T1,
            parentAsin: P1,
            salesByAsin: {
              unitsOrdered: 4,
              unitsOrderedB2B: 1,
              orderedProductSales: { amount: 45.5, currencyCode: 'USD' },
              orderedProductSalesB2B: { amount: 11.0, currencyCode: 'USD' },
              totalOrderItems: 3,
              totalOrderItemsB2B: 1,
            },
            trafficByAsin: {
              browserSessions: 60,
              mobileAppSessions: 50,
              sessions: 100,
              sessionsB2B: 20,
              browserPageViews: 90,
              mobileAppPageViews: 70,
              pageViews: 150,
              pageViewsB2B: 30,
              buyBoxPercentage: 90.0,
              buyBoxPercentageB2B: 80.0,
              unitSessionPercentage: 4.0,
              unitSessionPercentageB2B: 5.0,
            },
          },
          {
            childAsin: T2,
            salesByAsin: {
              unitsOrdered: 1,
              orderedProductSales: { amount: 10.0, currencyCode: 'USD' },
              totalOrderItems: 1,
            },
            trafficByAsin: {
              sessions: 10,
              sessionsB2B: 15,
              pageViews: 20,
              pageViewsB2B: 20,
              buyBoxPercentage: 50.0,
              buyBoxPercentageB2B: 40.0,
            },
          },
          {
            childAsin: T3,
            salesByAsin: {
              unitsOrdered: 0,
              orderedProductSales: { amount: 0, currencyCode: 'USD' },
              totalOrderItems: 0,
            },
            trafficByAsin: {
              sessions: 7,
              sessionsB2B: 2,
              pageViews: 12,
              pageViewsB2B: 0,
              buyBoxPercentage: 100.0,
              buyBoxPercentageB2B: 0,
            },
          },
        ]),
      ),
    );
    await landOk(
      wh,
      'GET_SALES_AND_TRAFFIC_REPORT',
      US,
      writeJson(
        dir,
        'traffic-d2.json',
        trafficReport(D2, US.marketplaceId, [
          {
            childAsin: T2,
            salesByAsin: {
              unitsOrdered: 0,
              orderedProductSales: { amount: 0, currencyCode: 'USD' },
              totalOrderItems: 0,
            },
            trafficByAsin: {
              sessions: 5,
              sessionsB2B: 5,
              pageViews: 8,
              pageViewsB2B: 8,
              buyBoxPercentage: 60.0,
              buyBoxPercentageB2B: 60.0,
            },
          },
        ]),
      ),
    );
    await buildAll(wh);
  });

  afterAll(async () => wh?.close());

  it("gives every SKU row of a child ASIN that ASIN's traffic, and traffic-only ASINs a sku null row (D1)", async () => {
    const got = (await skuProfit(wh, US.id, ['parent_asin', ...TRAFFIC])).filter((r) => r.date === D1);
    // T1: buy box 90, b2b 80; b2c = (90 × 150 − 80 × 30) / (150 − 30) = (13500 − 2400) / 120 = 92.5.
    //     sessions 100, b2b 20, b2c max(100 − 20, 0) = 80; page views 150, b2b 30, b2c 120. Both SKUs get all of it.
    const t1 = {
      avg_buybox_percentage: '90.0000',
      avg_buybox_percentage_b2b: '80.0000',
      avg_buybox_percentage_b2c: '92.5000',
      total_sessions: '100.0000',
      sessions_b2b: '20.0000',
      sessions_b2c: '80.0000',
      total_page_views: '150.0000',
      page_views_b2b: '30.0000',
      page_views_b2c: '120.0000',
    };
    expect(got).toEqual([
      { date: D1, child_asin: T1, sku: 'SKU-T1', parent_asin: P1, ...t1 },
      { date: D1, child_asin: T1, sku: 'SKU-T2', parent_asin: P1, ...t1 },
      // T2: pageViews = pageViewsB2B = 20 → b2c buy box null; sessions_b2c = max(10 − 15, 0) = 0; page_views_b2c =
      // max(20 − 20, 0) = 0.
      //     parentAsin not given: trafficReport sets it to the child ASIN.
      {
        date: D1,
        child_asin: T2,
        sku: 'SKU-T3',
        parent_asin: T2,
        avg_buybox_percentage: '50.0000',
        avg_buybox_percentage_b2b: '40.0000',
        avg_buybox_percentage_b2c: null,
        total_sessions: '10.0000',
        sessions_b2b: '15.0000',
        sessions_b2c: '0.0000',
        total_page_views: '20.0000',
        page_views_b2b: '20.0000',
        page_views_b2c: '0.0000',
      },
      // T3: no SKU row → sku null; b2c buy box = (100 × 12 − 0 × 0) / (12 − 0) = 100; sessions_b2c 7 − 2 = 5;
      // page_views_b2c 12.
      {
        date: D1,
        child_asin: T3,
        sku: null,
        parent_asin: T3,
        avg_buybox_percentage: '100.0000',
        avg_buybox_percentage_b2b: '0.0000',
        avg_buybox_percentage_b2c: '100.0000',
        total_sessions: '7.0000',
        sessions_b2b: '2.0000',
        sessions_b2c: '5.0000',
        total_page_views: '12.0000',
        page_views_b2b: '0.0000',
        page_views_b2c: '12.0000',
      },
    ]);
  });

  it('averages buy box over child ASINs and sums sessions and page views in the account table', async () => {
    const got = await dayProfit(wh, US.id, TRAFFIC);
    expect(got).toEqual([
      {
        date: D1,
        currency: 'USD',
        // Plain averages over the three child ASINs (not over SKU rows): (90 + 50 + 100) / 3 = 80; b2b (80 + 40 + 0) /
        // 3 = 40.
        avg_buybox_percentage: '80.0000',
        avg_buybox_percentage_b2b: '40.0000',
        // b2c over the ASINs where it is defined (T1 92.5, T3 100; T2 null): (92.5 + 100) / 2 = 96.25.
        avg_buybox_percentage_b2c: '96.2500',
        // Sums over child ASINs: sessions 100 + 10 + 7 = 117; b2b 20 + 15 + 2 = 37; b2c 80 + 0 + 5 = 85 (not 117 − 37 =
        // 80).
        total_sessions: '117.0000',
        sessions_b2b: '37.0000',
        sessions_b2c: '85.0000',
        // Page views 150 + 20 + 12 = 182; b2b 30 + 20 + 0 = 50; b2c 120 + 0 + 12 = 132.
        total_page_views: '182.0000',
        page_views_b2b: '50.0000',
        page_views_b2c: '132.0000',
      },
      {
        date: D2,
        currency: 'USD',
        // Only T2: buy box 60, b2b 60; pageViews = pageViewsB2B → no ASIN with a b2c buy box → null.
        avg_buybox_percentage: '60.0000',
        avg_buybox_percentage_b2b: '60.0000',
        avg_buybox_percentage_b2c: null,
        // sessions 5, b2b 5, b2c 0; page views 8, b2b 8, b2c 0.
        total_sessions: '5.0000',
        sessions_b2b: '5.0000',
        sessions_b2c: '0.0000',
        total_page_views: '8.0000',
        page_views_b2b: '8.0000',
        page_views_b2c: '0.0000',
      },
    ]);
  });

  it('gives a traffic-only ASIN a sku null row on a day it sold nothing (D2)', async () => {
    const got = (await skuProfit(wh, US.id, TRAFFIC)).filter((r) => r.date === D2 && r.child_asin === T2);
    // T2 sold nothing on D2: one row with sku null; b2c buy box null (8 = 8); sessions_b2c 0; page_views_b2c 0.
    expect(got).toEqual([
      {
        date: D2,
        child_asin: T2,
        sku: null,
        avg_buybox_percentage: '60.0000',
        avg_buybox_percentage_b2b: '60.0000',
        avg_buybox_percentage_b2c: null,
        total_sessions: '5.0000',
        sessions_b2b: '5.0000',
        sessions_b2c: '0.0000',
        total_page_views: '8.0000',
        page_views_b2b: '8.0000',
        page_views_b2c: '0.0000',
      },
    ]);
  });

  it('gives a SKU row of a child ASIN without traffic that day zero traffic and a null b2c buy box (D2)', async () => {
    const got = (await skuProfit(wh, US.id, TRAFFIC)).filter((r) => r.date === D2 && r.child_asin === T1);
    // T1 is in no D2 report: page views 0 = page views b2b 0, so rule 12's quotient (… − …) / (0 − 0) is undefined →
    // null (docs/design/PROFIT.md "Traffic"); every other traffic measure is 0.
    expect(got).toEqual([
      {
        date: D2,
        child_asin: T1,
        sku: 'SKU-T1',
        avg_buybox_percentage: '0.0000',
        avg_buybox_percentage_b2b: '0.0000',
        avg_buybox_percentage_b2c: null,
        total_sessions: '0.0000',
        sessions_b2b: '0.0000',
        sessions_b2c: '0.0000',
        total_page_views: '0.0000',
        page_views_b2b: '0.0000',
        page_views_b2c: '0.0000',
      },
    ]);
  });

  it('maps a by-ASIN entry onto mkt_sales_and_traffic_with_cogs with its unit cost', async () => {
    const got = await rows(
      wh,
      `select * exclude (marketplace_id, marketplace_country_code, marketplace_country_name, seller_or_vendor_id, seller_or_vendor_name, marketplace_seller_id)
      from marts.mkt_sales_and_traffic_with_cogs where seller_or_vendor_id = $c and child_asin = $a and date = $d`,
      { c: US.id, a: T1, d: D1 },
    );
    expect(got).toEqual([
      {
        date: D1,
        child_asin: T1,
        parent_asin: P1,
        // From the orders of the ASIN.
        product_name: 'Widget One',
        buybox_percentage: '90.0000',
        buybox_percentage_b2b: '80.0000',
        units_session_percentage: '4.0000',
        page_views: '150.0000',
        page_views_b2b: '30.0000',
        browser_page_views: '90.0000',
        // mobile_session = mobileAppSessions, mobile_page_views = mobileAppPageViews; browser + mobile may exceed the
        // total.
        mobile_session: '50.0000',
        mobile_page_views: '70.0000',
        session: '100.0000',
        sessions_b2b: '20.0000',
        browser_session: '60.0000',
        // total_sales = orderedProductSales, total_units = unitsOrdered, total_orders = totalOrderItems.
        total_sales: '45.5000',
        total_units: '4.0000',
        total_units_b2b: '1.0000',
        total_orders: '3.0000',
        // The report has no shipped or refunded figures per ASIN (only by date, for the whole account).
        shipped_product_sales: null,
        shipped_product_sales_b2b: null,
        units_shipped: null,
        units_shipped_b2b: null,
        orders_shipped: null,
        orders_shipped_b2b: null,
        units_refunded: null,
        units_refunded_b2b: null,
        refund_rate: null,
        refund_rate_b2b: null,
        // Unit cost × units ordered: 5.00 × 4 = 20.00, 0.50 × 4 = 2.00, (5.00 + 0.50) × 4 = 22.00.
        cogs_item_value: '20.0000',
        cogs_shipping_value: '2.0000',
        cogs_total_value: '22.0000',
        cogs_present: true,
        cogs_currency: 'USD',
        item_supplier_name: 'Supplier X',
      },
    ]);
  });
});
