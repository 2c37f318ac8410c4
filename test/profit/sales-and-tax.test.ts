import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Warehouse } from '../../src/db/warehouse.ts';
import { makeHome, US, DE } from '../helpers/home.ts';
import { buildAll, dayProfit, landOrders, orderLine, skuProfit } from '../helpers/profit.ts';

// Spec 001 "Profit measure rules" 1-4: total_sales, sales_tax, sales_tax_missing_items, total_sales_b2b/b2c,
// unshipped_sales.
// Every line is purchased at noon UTC on 2026-03-10: 13:00 in Berlin and 05:00 in Los Angeles, so all share the date
// 2026-03-10.
const DAY = '2026-03-10';
const columns = [
  'total_sales',
  'sales_tax',
  'sales_tax_missing_items',
  'total_sales_b2b',
  'total_sales_b2c',
  'unshipped_sales',
];

describe('profit rules 1-4: sales and sales tax', () => {
  let wh: Warehouse;

  beforeAll(async () => {
    const home = await makeHome();
    wh = home.wh;
    const de = (over: Parameters<typeof orderLine>[0]) =>
      orderLine({ currency: 'EUR', sku: 'SKU-A', asin: 'B0DE00000A', ...over });
    // DE (Europe/Berlin, EUR): selling prices include tax.
    await landOrders(wh, home.dir, DE, [
      // D-1: shipped, non-business, all taxes present; free shipping by a ship promotion (file writes it negative);
      // gift wrap 3.00 with gift-wrap tax 0.48 must stay out of both total_sales and sales_tax.
      de({
        'amazon-order-id': 'D-1',
        'item-price': '119.00',
        'item-tax': '19.00',
        'shipping-price': '5.95',
        'shipping-tax': '0.95',
        'ship-promotion-discount': '-5.95',
        'gift-wrap-price': '3.00',
        'gift-wrap-tax': '0.48',
        'is-business-order': 'false',
      }),
      // D-2: shipped business order with an empty (null) item tax.
      de({ 'amazon-order-id': 'D-2', 'item-price': '59.50', 'item-tax': '', 'is-business-order': 'true' }),
      // D-3: shipped business order, 2 units, shipping charged (no promotion) with an empty shipping tax.
      de({
        'amazon-order-id': 'D-3',
        sku: 'SKU-B',
        asin: 'B0DE00000B',
        quantity: '2',
        'item-price': '238.00',
        'item-tax': '38.00',
        'shipping-price': '4.00',
        'shipping-tax': '',
        'is-business-order': 'true',
      }),
      // D-4: shipped, is-business-order empty (counts as false); shipping fully covered by its promotion, shipping tax
      // empty.
      de({
        'amazon-order-id': 'D-4',
        sku: 'SKU-B',
        asin: 'B0DE00000B',
        'item-price': '10.00',
        'item-tax': '1.60',
        'shipping-price': '3.00',
        'shipping-tax': '',
        'ship-promotion-discount': '-3.00',
      }),
      // D-5: unshipped line.
      de({
        'amazon-order-id': 'D-5',
        'order-status': 'Unshipped',
        'item-status': 'Unshipped',
        'item-price': '20.00',
        'item-tax': '3.19',
        'shipping-price': '2.00',
        'shipping-tax': '0.32',
      }),
      // D-6: cancelled line that still carries a price and tax.
      de({
        'amazon-order-id': 'D-6',
        'order-status': 'Cancelled',
        'item-status': 'Cancelled',
        'item-price': '30.00',
        'item-tax': '4.79',
      }),
    ]);
    const us = (over: Parameters<typeof orderLine>[0]) =>
      orderLine({ currency: 'USD', sku: 'SKU-U', asin: 'B0US00000U', ...over });
    // US (America/Los_Angeles, USD): selling prices exclude tax.
    await landOrders(wh, home.dir, US, [
      // U-1: shipped, the file carries item and shipping tax; free shipping by a ship promotion. Its item promotion
      // discount (-2.00) is no part of rule 1's formula (item price + shipping - ship promotion discount).
      us({
        'amazon-order-id': 'U-1',
        'item-price': '20.00',
        'item-tax': '1.65',
        'shipping-price': '4.99',
        'shipping-tax': '0.41',
        'ship-promotion-discount': '-4.99',
        'item-promotion-discount': '-2.00',
        'is-business-order': 'false',
      }),
      // U-2: shipped business order with an empty item tax.
      us({ 'amazon-order-id': 'U-2', 'item-price': '15.00', 'item-tax': '', 'is-business-order': 'true' }),
      // U-3: unshipped.
      us({
        'amazon-order-id': 'U-3',
        'order-status': 'Unshipped',
        'item-status': 'Unshipped',
        'item-price': '7.00',
        'item-tax': '0.58',
      }),
      // U-4: cancelled.
      us({
        'amazon-order-id': 'U-4',
        'order-status': 'Cancelled',
        'item-status': 'Cancelled',
        'item-price': '9.00',
        'item-tax': '0.74',
      }),
    ]);
    await buildAll(wh);
  });

  afterAll(async () => wh?.close());

  it('DE SKU rows: sales include tax, sales_tax from item and shipping tax, missing taxes counted', async () => {
    expect(await skuProfit(wh, DE.id, columns)).toEqual([
      {
        date: DAY,
        child_asin: 'B0DE00000A',
        sku: 'SKU-A',
        // Rule 1, shipped only: D-1 119.00 + 5.95 - 5.95 = 119.00; D-2 59.50 + 0 - 0 = 59.50; 119.00 + 59.50 = 178.50
        // (gift wrap 3.00 is no part of the formula; D-5 unshipped and D-6 cancelled excluded).
        total_sales: '178.5000',
        // Rule 2, DE prices include tax: D-1 19.00 + 0.95 = 19.95 (gift-wrap tax 0.48 excluded); D-2 null item tax
        // counts 0.
        sales_tax: '19.9500',
        // Rule 3: D-2 has a non-zero price (59.50) and a null item tax -> 1. D-1 has both taxes.
        sales_tax_missing_items: '1.0000',
        // Rule 4: business D-2 = 59.50; non-business D-1 = 119.00.
        total_sales_b2b: '59.5000',
        total_sales_b2c: '119.0000',
        // Rule 4: D-5 unshipped: 20.00 + 2.00 - 0 = 22.00.
        unshipped_sales: '22.0000',
      },
      {
        date: DAY,
        child_asin: 'B0DE00000B',
        sku: 'SKU-B',
        // Rule 1: D-3 238.00 + 4.00 - 0 = 242.00; D-4 10.00 + 3.00 - 3.00 = 10.00; 242.00 + 10.00 = 252.00.
        total_sales: '252.0000',
        // Rule 2: D-3 38.00 + null(0) = 38.00; D-4 1.60 + null(0) = 1.60; 38.00 + 1.60 = 39.60.
        sales_tax: '39.6000',
        // Rule 3: D-3 shipping 4.00 above its promotion 0 with null shipping tax -> 1;
        // D-4 shipping 3.00 is not above its promotion 3.00, so its null shipping tax is not counted -> total 1.
        sales_tax_missing_items: '1.0000',
        // Rule 4: business D-3 = 242.00; D-4 (is-business-order empty = false) = 10.00.
        total_sales_b2b: '242.0000',
        total_sales_b2c: '10.0000',
        unshipped_sales: '0.0000',
      },
    ]);
  });

  it('DE account row: the day sums every SKU', async () => {
    expect(await dayProfit(wh, DE.id, columns)).toEqual([
      {
        date: DAY,
        currency: 'EUR',
        // 178.50 (SKU-A) + 252.00 (SKU-B) = 430.50
        total_sales: '430.5000',
        // 19.95 + 39.60 = 59.55
        sales_tax: '59.5500',
        // D-2 (null item tax) + D-3 (null shipping tax, shipping above promotion) = 2
        sales_tax_missing_items: '2.0000',
        // business: D-2 59.50 + D-3 242.00 = 301.50
        total_sales_b2b: '301.5000',
        // non-business: D-1 119.00 + D-4 10.00 = 129.00
        total_sales_b2c: '129.0000',
        // D-5: 20.00 + 2.00 = 22.00
        unshipped_sales: '22.0000',
      },
    ]);
  });

  it('US rows: no sales tax and no missing-tax count even when the file carries tax', async () => {
    // Rule 1: U-1 20.00 + 4.99 - 4.99 = 20.00; U-2 15.00; total 35.00 (U-3 unshipped, U-4 cancelled excluded).
    // Rule 2: US prices exclude tax -> sales_tax 0 although U-1 carries 1.65 + 0.41.
    // Rule 3: only marketplaces whose prices include tax count -> U-2's null item tax gives 0.
    // Rule 4: business U-2 = 15.00; non-business U-1 = 20.00; unshipped U-3 = 7.00 + 0 - 0 = 7.00.
    const expected = {
      total_sales: '35.0000',
      sales_tax: '0.0000',
      sales_tax_missing_items: '0.0000',
      total_sales_b2b: '15.0000',
      total_sales_b2c: '20.0000',
      unshipped_sales: '7.0000',
    };
    expect(await skuProfit(wh, US.id, columns)).toEqual([
      { date: DAY, child_asin: 'B0US00000U', sku: 'SKU-U', ...expected },
    ]);
    // One SKU on the day: the account row carries the same figures.
    expect(await dayProfit(wh, US.id, columns)).toEqual([{ date: DAY, currency: 'USD', ...expected }]);
  });

  it('b2b and b2c parts add up to total_sales in every row', async () => {
    // Rule 4: "Included in total_sales, not additive" -> total_sales_b2b + total_sales_b2c = total_sales.
    const all = [
      ...(await skuProfit(wh, DE.id, columns)),
      ...(await skuProfit(wh, US.id, columns)),
      ...(await dayProfit(wh, DE.id, columns)),
      ...(await dayProfit(wh, US.id, columns)),
    ];
    expect(all.length).toBe(5);
    for (const row of all) {
      expect(Number(row.total_sales_b2b) + Number(row.total_sales_b2c)).toBeCloseTo(Number(row.total_sales), 4);
    }
  });
});
