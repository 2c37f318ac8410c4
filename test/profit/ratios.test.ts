import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Warehouse } from '../../src/db/warehouse.ts';
import { makeHome, US, DE } from '../helpers/home.ts';
import {
  buildAll,
  dayProfit,
  landCogs,
  landOk,
  landOrders,
  orderLine,
  skuProfit,
  writeJson,
  writeSettlement,
} from '../helpers/profit.ts';

// Spec 001 "Profit measure rules" 11:
//   profit = total_sales - sales_tax - total_fees - cogs_total - ad_spend + refund_cost
//   total_cost = sales_tax + total_fees + cogs_total + ad_spend - refund_cost
//   acos = ad_spend / ad_sales * 100 (null when ad_sales is 0); tacos = ad_spend / total_sales * 100 (null when
// total_sales is 0);
//   roi = profit / total_cost * 100 (null when total_cost is 0). Ratios are rounded to 4 places.
// Orders are purchased at noon UTC: 05:00 in Los Angeles (PDT from 8 March 2026), 13:00 in Berlin: same calendar date.
const columns = [
  'total_sales',
  'sales_tax',
  'total_fees',
  'cogs_total',
  'ad_spend',
  'ad_sales',
  'refund_cost',
  'profit',
  'total_cost',
  'acos',
  'tacos',
  'roi',
];

/** An SP advertised-product report row (Ads API v3 column names). */
const spRow = (
  date: string,
  asin: string,
  sku: string,
  m: { cost: number; sameSkuSales: number; sales7d: number; orders?: number },
) => ({
  date,
  campaignId: '1001',
  adGroupId: '2001',
  adId: `ad-${sku}`,
  advertisedAsin: asin,
  advertisedSku: sku,
  cost: m.cost,
  impressions: 1000,
  clicks: 10,
  attributedSalesSameSku7d: m.sameSkuSales,
  purchasesSameSku7d: m.orders ?? 0,
  unitsSoldSameSku7d: m.orders ?? 0,
  sales7d: m.sales7d,
  purchases7d: m.orders ?? 0,
  unitsSoldClicks7d: m.orders ?? 0,
});

const at = (day: string) => ({
  'purchase-date': `${day}T12:00:00+00:00`,
  'last-updated-date': `${day}T12:00:00+00:00`,
});

describe('profit rule 11: profit, total_cost and ratios', () => {
  let wh: Warehouse;

  beforeAll(async () => {
    const home = await makeHome();
    wh = home.wh;
    const { dir } = home;
    // Unit costs (costItemValue, costItemShippingValue): SKU-R 12.00 + 1.00; SKU-Z zero cost (valid); SKU-F 10.00 + 0;
    // SKU-D 50.00 + 0.
    await landCogs(wh, dir, US, [
      'B000000011,SKU-R,USD,2026-01-01,12.00,1.00,Supplier R',
      'B000000013,SKU-Z,USD,2026-01-01,0.00,0.00,Supplier Z',
      'B000000015,SKU-F,USD,2026-01-01,10.00,0.00,Supplier F',
    ]);
    await landCogs(wh, dir, DE, ['B0000000D1,SKU-D,EUR,2026-01-01,50.00,0.00,Lieferant D']);
    await landOrders(wh, dir, US, [
      // 2026-03-10: SKU-R, 2 units for 50.00.
      orderLine({
        'amazon-order-id': 'R-1',
        ...at('2026-03-10'),
        sku: 'SKU-R',
        asin: 'B000000011',
        quantity: '2',
        'item-price': '50.00',
      }),
      // 2026-03-11: SKU-R, 1 unit for 50.00.
      orderLine({
        'amazon-order-id': 'R-2',
        ...at('2026-03-11'),
        sku: 'SKU-R',
        asin: 'B000000011',
        quantity: '1',
        'item-price': '50.00',
      }),
      // 2026-03-12: no order (SKU-R only advertised).
      // 2026-03-13: SKU-Z, 1 unit for 30.00, zero unit cost.
      orderLine({
        'amazon-order-id': 'Z-1',
        ...at('2026-03-13'),
        sku: 'SKU-Z',
        asin: 'B000000013',
        quantity: '1',
        'item-price': '30.00',
      }),
      // 2026-03-14: SKU-F, 1 unit for 40.00.
      orderLine({
        'amazon-order-id': 'F-1',
        ...at('2026-03-14'),
        sku: 'SKU-F',
        asin: 'B000000015',
        quantity: '1',
        'item-price': '40.00',
      }),
    ]);
    await landOrders(wh, dir, DE, [
      // 2026-03-10: SKU-D, 1 unit for 119.00 including 19.00 VAT.
      orderLine({
        'amazon-order-id': 'D-1',
        ...at('2026-03-10'),
        sku: 'SKU-D',
        asin: 'B0000000D1',
        currency: 'EUR',
        'item-price': '119.00',
        'item-tax': '19.00',
      }),
    ]);
    await landOk(
      wh,
      'ads.spAdvertisedProduct',
      US,
      writeJson(dir, 'sp-us.json', [
        // 2026-03-10: cost 5.00, same-SKU sales 20.00, all advertised sales 25.00.
        spRow('2026-03-10', 'B000000011', 'SKU-R', { cost: 5.0, sameSkuSales: 20.0, sales7d: 25.0, orders: 1 }),
        // 2026-03-11: cost 3.00 without any sales.
        spRow('2026-03-11', 'B000000011', 'SKU-R', { cost: 3.0, sameSkuSales: 0, sales7d: 0 }),
        // 2026-03-12: cost 4.00, same-SKU sales 16.00 credited to the click day, while no order was placed that day.
        spRow('2026-03-12', 'B000000011', 'SKU-R', { cost: 4.0, sameSkuSales: 16.0, sales7d: 16.0, orders: 1 }),
      ]),
    );
    await landOk(
      wh,
      'ads.spAdvertisedProduct',
      DE,
      writeJson(dir, 'sp-de.json', [
        spRow('2026-03-10', 'B0000000D1', 'SKU-D', { cost: 10.0, sameSkuSales: 119.0, sales7d: 119.0, orders: 1 }),
      ]),
    );
    // 2026-03-14 20:00 UTC is 13:00 in Los Angeles: posting date 2026-03-14, the same day as order F-1.
    const posted = {
      'posted-date': '14/03/26',
      'posted-date-time': '2026-03-14 20:00:00 UTC',
      sku: 'SKU-F',
      'fulfillment-id': 'AFN',
    };
    await landOk(
      wh,
      'GET_V2_SETTLEMENT_REPORT_DATA_FLAT_FILE_V2',
      US,
      writeSettlement(dir, 'settlement.tsv', { id: '900001', currency: 'USD' }, [
        // Order F-1: principal (not a fee) and the referral fee (Commission, a fee).
        {
          'transaction-type': 'Order',
          'order-id': 'F-1',
          'order-item-code': '10000000000001',
          'amount-type': 'ItemPrice',
          'amount-description': 'Principal',
          amount: '40.00',
          'quantity-purchased': '1',
          ...posted,
        },
        {
          'transaction-type': 'Order',
          'order-id': 'F-1',
          'order-item-code': '10000000000001',
          'amount-type': 'ItemFees',
          'amount-description': 'Commission',
          amount: '-6.00',
          'quantity-purchased': '1',
          ...posted,
        },
        // Refund of an earlier order F-0: refunded principal (outflow) and refunded referral fee (reversal).
        {
          'transaction-type': 'Refund',
          'order-id': 'F-0',
          'adjustment-id': 'A-1',
          'order-item-code': '10000000000000',
          'amount-type': 'ItemPrice',
          'amount-description': 'Principal',
          amount: '-20.00',
          ...posted,
        },
        {
          'transaction-type': 'Refund',
          'order-id': 'F-0',
          'adjustment-id': 'A-1',
          'order-item-code': '10000000000000',
          'amount-type': 'ItemFees',
          'amount-description': 'Commission',
          amount: '3.00',
          ...posted,
        },
      ]),
    );
    await buildAll(wh);
  });

  afterAll(async () => wh?.close());

  it('all three ratios set: sales, COGS and SP ads on one SKU day (US)', async () => {
    const [sku] = await skuProfit(wh, US.id, columns).then((r) => r.filter((x) => x.date === '2026-03-10'));
    expect(sku).toEqual({
      date: '2026-03-10',
      child_asin: 'B000000011',
      sku: 'SKU-R',
      total_sales: '50.0000', // 50.00 + 0 - 0
      sales_tax: '0.0000', // US prices exclude tax
      total_fees: '0.0000',
      cogs_total: '26.0000', // (12.00 + 1.00) x 2
      ad_spend: '5.0000', // SP cost
      ad_sales: '20.0000', // SKU table: attributedSalesSameSku7d
      refund_cost: '0.0000',
      profit: '19.0000', // 50 - 0 - 0 - 26 - 5 + 0 = 19
      total_cost: '31.0000', // 0 + 0 + 26 + 5 - 0 = 31
      acos: '25.0000', // 5 / 20 x 100 = 25
      tacos: '10.0000', // 5 / 50 x 100 = 10
      roi: '61.2903', // 19 / 31 x 100 = 61.290322... -> 61.2903
    });
    // Account row of the day: the only SKU, but ad_sales is SP sales7d (docs/design/PROFIT.md "Ads", account column) =
    // 25.00.
    const [day] = await dayProfit(wh, US.id, columns).then((r) => r.filter((x) => x.date === '2026-03-10'));
    expect(day).toEqual({
      date: '2026-03-10',
      currency: 'USD',
      total_sales: '50.0000',
      sales_tax: '0.0000',
      total_fees: '0.0000',
      cogs_total: '26.0000',
      ad_spend: '5.0000',
      ad_sales: '25.0000',
      refund_cost: '0.0000',
      profit: '19.0000', // 50 - 26 - 5
      total_cost: '31.0000', // 26 + 5
      acos: '20.0000', // 5 / 25 x 100 = 20
      tacos: '10.0000', // 5 / 50 x 100 = 10
      roi: '61.2903', // 19 / 31 x 100 = 61.2903
    });
  });

  it('acos is null when ad_sales is 0, even with ad spend', async () => {
    const expected = {
      total_sales: '50.0000',
      sales_tax: '0.0000',
      total_fees: '0.0000',
      cogs_total: '13.0000', // (12.00 + 1.00) x 1
      ad_spend: '3.0000',
      ad_sales: '0.0000',
      refund_cost: '0.0000',
      profit: '34.0000', // 50 - 13 - 3 = 34
      total_cost: '16.0000', // 13 + 3 = 16
      acos: null, // ad_sales 0
      tacos: '6.0000', // 3 / 50 x 100 = 6
      roi: '212.5000', // 34 / 16 x 100 = 212.5
    };
    expect((await skuProfit(wh, US.id, columns)).filter((x) => x.date === '2026-03-11')).toEqual([
      { date: '2026-03-11', child_asin: 'B000000011', sku: 'SKU-R', ...expected },
    ]);
    // Account: sales7d is 0 as well -> same figures.
    expect((await dayProfit(wh, US.id, columns)).filter((x) => x.date === '2026-03-11')).toEqual([
      { date: '2026-03-11', currency: 'USD', ...expected },
    ]);
  });

  it('tacos is null when total_sales is 0 (an ad-only day)', async () => {
    const expected = {
      total_sales: '0.0000',
      sales_tax: '0.0000',
      total_fees: '0.0000',
      cogs_total: '0.0000',
      ad_spend: '4.0000',
      ad_sales: '16.0000',
      refund_cost: '0.0000',
      profit: '-4.0000', // 0 - 0 - 0 - 0 - 4 + 0 = -4
      total_cost: '4.0000', // 0 + 0 + 0 + 4 - 0 = 4
      acos: '25.0000', // 4 / 16 x 100 = 25
      tacos: null, // total_sales 0
      roi: '-100.0000', // -4 / 4 x 100 = -100
    };
    expect((await skuProfit(wh, US.id, columns)).filter((x) => x.date === '2026-03-12')).toEqual([
      { date: '2026-03-12', child_asin: 'B000000011', sku: 'SKU-R', ...expected },
    ]);
    // Account: sales7d = 16.00 as well.
    expect((await dayProfit(wh, US.id, columns)).filter((x) => x.date === '2026-03-12')).toEqual([
      { date: '2026-03-12', currency: 'USD', ...expected },
    ]);
  });

  it('roi is null when total_cost is 0 (zero unit cost, no fees, no ads)', async () => {
    const expected = {
      total_sales: '30.0000',
      sales_tax: '0.0000',
      total_fees: '0.0000',
      cogs_total: '0.0000', // a COGS record of 0.00 + 0.00 applies
      ad_spend: '0.0000',
      ad_sales: '0.0000',
      refund_cost: '0.0000',
      profit: '30.0000', // 30 - 0 = 30
      total_cost: '0.0000',
      acos: null, // ad_sales 0
      tacos: '0.0000', // 0 / 30 x 100 = 0
      roi: null, // total_cost 0
    };
    expect((await skuProfit(wh, US.id, columns)).filter((x) => x.date === '2026-03-13')).toEqual([
      { date: '2026-03-13', child_asin: 'B000000013', sku: 'SKU-Z', ...expected },
    ]);
    expect((await dayProfit(wh, US.id, columns)).filter((x) => x.date === '2026-03-13')).toEqual([
      { date: '2026-03-13', currency: 'USD', ...expected },
    ]);
  });

  it('fees are subtracted and a (negative) refund_cost lowers profit and raises total_cost', async () => {
    const expected = {
      total_sales: '40.0000',
      sales_tax: '0.0000',
      total_fees: '6.0000', // Commission -6.00 flipped to a positive cost; principal 40.00 is no fee
      cogs_total: '10.0000', // 10.00 x 1
      ad_spend: '0.0000',
      ad_sales: '0.0000',
      refund_cost: '-17.0000', // refunded principal -20.00 + refunded referral fee +3.00
      profit: '7.0000', // 40 - 0 - 6 - 10 - 0 + (-17) = 7
      total_cost: '33.0000', // 0 + 6 + 10 + 0 - (-17) = 33
      acos: null, // ad_sales 0
      tacos: '0.0000', // 0 / 40 x 100
      roi: '21.2121', // 7 / 33 x 100 = 21.212121... -> 21.2121
    };
    expect((await skuProfit(wh, US.id, columns)).filter((x) => x.date === '2026-03-14')).toEqual([
      { date: '2026-03-14', child_asin: 'B000000015', sku: 'SKU-F', ...expected },
    ]);
    expect((await dayProfit(wh, US.id, columns)).filter((x) => x.date === '2026-03-14')).toEqual([
      { date: '2026-03-14', currency: 'USD', ...expected },
    ]);
  });

  it('sales_tax is a cost where prices include tax (DE)', async () => {
    const expected = {
      total_sales: '119.0000', // price including VAT
      sales_tax: '19.0000', // item tax; DE prices include tax
      total_fees: '0.0000',
      cogs_total: '50.0000', // 50.00 x 1
      ad_spend: '10.0000',
      ad_sales: '119.0000',
      refund_cost: '0.0000',
      profit: '40.0000', // 119 - 19 - 0 - 50 - 10 + 0 = 40
      total_cost: '79.0000', // 19 + 0 + 50 + 10 - 0 = 79
      acos: '8.4034', // 10 / 119 x 100 = 8.403361... -> 8.4034
      tacos: '8.4034', // 10 / 119 x 100 = 8.4034
      roi: '50.6329', // 40 / 79 x 100 = 50.632911... -> 50.6329
    };
    expect(await skuProfit(wh, DE.id, columns)).toEqual([
      { date: '2026-03-10', child_asin: 'B0000000D1', sku: 'SKU-D', ...expected },
    ]);
    expect(await dayProfit(wh, DE.id, columns)).toEqual([{ date: '2026-03-10', currency: 'EUR', ...expected }]);
  });

  it('has exactly one row per SKU and day and one account row per day', async () => {
    expect((await skuProfit(wh, US.id, ['sku'])).map((r) => `${r.date} ${r.sku}`)).toEqual([
      '2026-03-10 SKU-R',
      '2026-03-11 SKU-R',
      '2026-03-12 SKU-R',
      '2026-03-13 SKU-Z',
      '2026-03-14 SKU-F',
    ]);
    expect((await dayProfit(wh, US.id, ['date'])).map((r) => r.date)).toEqual([
      '2026-03-10',
      '2026-03-11',
      '2026-03-12',
      '2026-03-13',
      '2026-03-14',
    ]);
  });
});
