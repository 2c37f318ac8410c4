import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Warehouse } from '../../src/db/warehouse.ts';
import { makeHome, US } from '../helpers/home.ts';
import { buildAll, dayProfit, landOrders, orderLine, skuProfit } from '../helpers/profit.ts';

// Spec 001 "Profit measure rules" 5: total_units_b2b/b2c (ordered quantity, canceled excluded, unshipped included),
// total_units_sold(_b2b/_b2c) (shipped quantity) and total_orders (distinct order ids among shipped items).
// US connection (America/Los_Angeles, PDT = UTC-7 from 8 March 2026): noon UTC on 10 March is 05:00 local, date
// 2026-03-10;
// noon UTC on 11 March is 2026-03-11.
const DAY = '2026-03-10';
const NEXT = '2026-03-11';
const columns = [
  'total_units_b2b',
  'total_units_b2c',
  'total_units_sold',
  'total_units_sold_b2b',
  'total_units_sold_b2c',
  'total_orders',
];

const a = (over: Parameters<typeof orderLine>[0]) => orderLine({ sku: 'SKU-A', asin: 'B000000001', ...over });
const b = (over: Parameters<typeof orderLine>[0]) => orderLine({ sku: 'SKU-B', asin: 'B000000002', ...over });
const unshipped = { 'order-status': 'Unshipped', 'item-status': 'Unshipped' };
const cancelled = { 'item-status': 'Cancelled' };

describe('profit rule 5: units and orders', () => {
  let wh: Warehouse;

  beforeAll(async () => {
    const home = await makeHome();
    wh = home.wh;
    await landOrders(wh, home.dir, US, [
      // O-1: one order with two SKUs, both shipped, non-business.
      a({ 'amazon-order-id': 'O-1', quantity: '2', 'item-price': '20.00', 'is-business-order': 'false' }),
      b({ 'amazon-order-id': 'O-1', quantity: '1', 'item-price': '10.00', 'is-business-order': 'false' }),
      // O-2: shipped business order.
      a({ 'amazon-order-id': 'O-2', quantity: '3', 'item-price': '30.00', 'is-business-order': 'true' }),
      // O-3: unshipped, non-business.
      a({ 'amazon-order-id': 'O-3', quantity: '1', ...unshipped, 'is-business-order': 'false' }),
      // O-4: cancelled, non-business.
      a({
        'amazon-order-id': 'O-4',
        quantity: '4',
        'order-status': 'Cancelled',
        ...cancelled,
        'item-price': '',
        'is-business-order': 'false',
      }),
      // O-5: unshipped business order.
      b({ 'amazon-order-id': 'O-5', quantity: '5', ...unshipped, 'is-business-order': 'true' }),
      // O-6: pending, item-status empty (null), is-business-order empty (false).
      b({ 'amazon-order-id': 'O-6', quantity: '1', 'order-status': 'Pending', 'item-status': '', 'item-price': '' }),
      // O-7: two shipped lines of the same SKU in one order.
      a({ 'amazon-order-id': 'O-7', quantity: '1', 'is-business-order': 'false' }),
      a({ 'amazon-order-id': 'O-7', quantity: '1', 'is-business-order': 'false' }),
      // O-8: SKU-A shipped, SKU-B cancelled in the same order.
      a({ 'amazon-order-id': 'O-8', quantity: '2', 'is-business-order': 'false' }),
      b({ 'amazon-order-id': 'O-8', quantity: '1', ...cancelled, 'item-price': '', 'is-business-order': 'false' }),
      // O-9: the next day, shipped business order.
      a({
        'amazon-order-id': 'O-9',
        quantity: '1',
        'purchase-date': '2026-03-11T12:00:00+00:00',
        'last-updated-date': '2026-03-11T12:00:00+00:00',
        'is-business-order': 'true',
      }),
    ]);
    await buildAll(wh);
  });

  afterAll(async () => wh?.close());

  it('SKU rows: ordered units without canceled lines, shipped units and distinct shipped orders', async () => {
    expect(await skuProfit(wh, US.id, columns)).toEqual([
      {
        date: DAY,
        child_asin: 'B000000001',
        sku: 'SKU-A',
        // Not canceled, business: O-2 3 -> 3.
        total_units_b2b: '3.0000',
        // Not canceled, non-business: O-1 2 + O-3 1 (unshipped included) + O-7 1 + 1 + O-8 2 = 7 (O-4's 4 canceled
        // units excluded).
        total_units_b2c: '7.0000',
        // Shipped: O-1 2 + O-2 3 + O-7 1 + 1 + O-8 2 = 9; business O-2 3; non-business 2 + 1 + 1 + 2 = 6.
        total_units_sold: '9.0000',
        total_units_sold_b2b: '3.0000',
        total_units_sold_b2c: '6.0000',
        // Distinct shipped order ids: O-1, O-2, O-7 (two lines, once), O-8 = 4.
        total_orders: '4.0000',
      },
      {
        date: DAY,
        child_asin: 'B000000002',
        sku: 'SKU-B',
        // Not canceled, business: O-5 5 (unshipped included) -> 5.
        total_units_b2b: '5.0000',
        // Not canceled, non-business: O-1 1 + O-6 1 (null item status is not canceled) = 2 (O-8's canceled unit
        // excluded).
        total_units_b2c: '2.0000',
        // Shipped: only O-1's 1 unit, non-business.
        total_units_sold: '1.0000',
        total_units_sold_b2b: '0.0000',
        total_units_sold_b2c: '1.0000',
        // Distinct shipped order ids: O-1 = 1 (O-8's SKU-B line is canceled, O-5 unshipped, O-6 pending).
        total_orders: '1.0000',
      },
      {
        date: NEXT,
        child_asin: 'B000000001',
        sku: 'SKU-A',
        // O-9: 1 shipped business unit, 1 order.
        total_units_b2b: '1.0000',
        total_units_b2c: '0.0000',
        total_units_sold: '1.0000',
        total_units_sold_b2b: '1.0000',
        total_units_sold_b2c: '0.0000',
        total_orders: '1.0000',
      },
    ]);
  });

  it('account rows: units add up over SKUs, orders are distinct across SKUs', async () => {
    expect(await dayProfit(wh, US.id, columns)).toEqual([
      {
        date: DAY,
        currency: 'USD',
        // 3 (SKU-A) + 5 (SKU-B) = 8
        total_units_b2b: '8.0000',
        // 7 (SKU-A) + 2 (SKU-B) = 9
        total_units_b2c: '9.0000',
        // 9 + 1 = 10; business 3 + 0 = 3; non-business 6 + 1 = 7
        total_units_sold: '10.0000',
        total_units_sold_b2b: '3.0000',
        total_units_sold_b2c: '7.0000',
        // Distinct shipped order ids of the day across SKUs: O-1 (two SKUs, once), O-2, O-7, O-8 = 4, not 4 + 1 = 5.
        total_orders: '4.0000',
      },
      {
        date: NEXT,
        currency: 'USD',
        total_units_b2b: '1.0000',
        total_units_b2c: '0.0000',
        total_units_sold: '1.0000',
        total_units_sold_b2b: '1.0000',
        total_units_sold_b2c: '0.0000',
        total_orders: '1.0000',
      },
    ]);
  });

  it('b2b and b2c shipped units are parts of total_units_sold', async () => {
    // Rule 5: "the b2b and b2c parts are included in the total".
    const all = [...(await skuProfit(wh, US.id, columns)), ...(await dayProfit(wh, US.id, columns))];
    expect(all.length).toBe(5);
    for (const row of all)
      expect(Number(row.total_units_sold_b2b) + Number(row.total_units_sold_b2c)).toBe(Number(row.total_units_sold));
  });
});
