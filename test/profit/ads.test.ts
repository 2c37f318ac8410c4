import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Warehouse } from '../../src/db/warehouse.ts';
import { makeHome, rows, US } from '../helpers/home.ts';
import { buildAll, dayProfit, landOk, landOrders, orderLine, skuProfit, writeJson } from '../helpers/profit.ts';

// Spec 001 "Profit measure rules" 11, the ad rules of mkt_profit_by_sku_and_date and mkt_profit_by_date,
// and docs/design/PROFIT.md "Ads" (measures per table, SB allocation).
//
// Fixtures (US connection, America/Los_Angeles; orders are placed at noon UTC, the same local date):
//   D1 = 2026-03-10: SP + SD on SKU-A1X, SP on SKU-A3 (no ad sales), SB-1 (split by sales14d over A1 and A2,
//        A1 sold through SKU-A1X and SKU-A1Y), SB-2 without purchased products, sponsored TV, DSP.
//   D2 = 2026-03-11: SB-3 with no purchased sales, split by orders14d (2:1) over A1 and A2; A1 sold through
//        SKU-A1X (10.00) and SKU-A1Y (20.00); A2 sold nothing that day.
//   D3 = 2026-03-12: SB-4, 10.00 over three equal sales14d shares of ASINs that sold nothing that day.
const D1 = '2026-03-10';
const D2 = '2026-03-11';
const D3 = '2026-03-12';
const A1 = 'B0000000A1';
const A2 = 'B0000000A2';
const A3 = 'B0000000A3';
const A5 = 'B0000000A5';
const A6 = 'B0000000A6';

const sp = (over: Record<string, unknown>) => ({
  campaignName: 'SP campaign',
  adGroupName: 'SP group',
  campaignBudgetCurrencyCode: 'USD',
  ...over,
});

/** Rounds a 4-decimal string to the cent, as text. */
const cents = (value: string) => (Math.round(Number(value) * 100) / 100).toFixed(2);

describe('ads measures of the profit tables', () => {
  let wh: Warehouse;
  let dir: string;

  beforeAll(async () => {
    ({ wh, dir } = await makeHome());
    await landOrders(wh, dir, US, [
      // D1: A1 sells 20.00 through SKU-A1X and 10.00 through SKU-A1Y; A2 sells 10.00 through SKU-A2.
      orderLine({
        'amazon-order-id': 'O-1',
        sku: 'SKU-A1X',
        asin: A1,
        'item-price': '20.00',
        'purchase-date': `${D1}T12:00:00+00:00`,
      }),
      orderLine({
        'amazon-order-id': 'O-2',
        sku: 'SKU-A1Y',
        asin: A1,
        'item-price': '10.00',
        'purchase-date': `${D1}T12:00:00+00:00`,
      }),
      orderLine({
        'amazon-order-id': 'O-3',
        sku: 'SKU-A2',
        asin: A2,
        'item-price': '10.00',
        'purchase-date': `${D1}T12:00:00+00:00`,
      }),
      // D2: A1 sells 10.00 through SKU-A1X and 20.00 through SKU-A1Y.
      orderLine({
        'amazon-order-id': 'O-4',
        sku: 'SKU-A1X',
        asin: A1,
        'item-price': '10.00',
        'purchase-date': `${D2}T12:00:00+00:00`,
      }),
      orderLine({
        'amazon-order-id': 'O-5',
        sku: 'SKU-A1Y',
        asin: A1,
        'item-price': '20.00',
        'purchase-date': `${D2}T12:00:00+00:00`,
      }),
    ]);
    await landOk(
      wh,
      'ads.spAdvertisedProduct',
      US,
      writeJson(dir, 'sp.json', [
        sp({
          date: D1,
          campaignId: 'SP-1',
          adGroupId: 'G-1',
          adId: 'AD-1',
          advertisedAsin: A1,
          advertisedSku: 'SKU-A1X',
          impressions: 1000,
          clicks: 50,
          cost: 5.0,
          purchases7d: 3,
          purchasesSameSku7d: 2,
          unitsSoldClicks7d: 4,
          unitsSoldSameSku7d: 2,
          sales7d: 40.0,
          attributedSalesSameSku7d: 25.0,
        }),
        // Spend, clicks and impressions but no sales at all.
        sp({
          date: D1,
          campaignId: 'SP-2',
          adGroupId: 'G-2',
          adId: 'AD-2',
          advertisedAsin: A3,
          advertisedSku: 'SKU-A3',
          impressions: 200,
          clicks: 10,
          cost: 4.0,
          purchases7d: 0,
          purchasesSameSku7d: 0,
          unitsSoldClicks7d: 0,
          unitsSoldSameSku7d: 0,
          sales7d: 0,
          attributedSalesSameSku7d: 0,
        }),
      ]),
    );
    await landOk(
      wh,
      'ads.sdAdvertisedProduct',
      US,
      writeJson(dir, 'sd.json', [
        {
          date: D1,
          campaignId: 'SD-1',
          adGroupId: 'SDG-1',
          adId: 'SDAD-1',
          promotedAsin: A1,
          promotedSku: 'SKU-A1X',
          campaignBudgetCurrencyCode: 'USD',
          impressions: 500,
          clicks: 20,
          cost: 3.0,
          sales: 30.0,
          salesPromotedClicks: 15.0,
          purchases: 4,
          purchasesPromotedClicks: 1,
          unitsSold: 5,
          unitsSoldClicks: 3,
        },
      ]),
    );
    await landOk(
      wh,
      'ads.sbCampaigns',
      US,
      writeJson(dir, 'sb.json', [
        {
          date: D1,
          campaignId: 'SB-1',
          campaignName: 'Brand 1',
          campaignBudgetCurrencyCode: 'USD',
          impressions: 3000,
          clicks: 40,
          cost: 30.0,
          sales: 100.0,
          purchases: 4,
          unitsSold: 5,
        },
        {
          date: D1,
          campaignId: 'SB-2',
          campaignName: 'Brand 2',
          campaignBudgetCurrencyCode: 'USD',
          impressions: 300,
          clicks: 9,
          cost: 7.0,
          sales: 14.0,
          purchases: 1,
          unitsSold: 1,
        },
        {
          date: D2,
          campaignId: 'SB-3',
          campaignName: 'Brand 3',
          campaignBudgetCurrencyCode: 'USD',
          impressions: 100,
          clicks: 5,
          cost: 10.0,
          sales: 0,
          purchases: 3,
          unitsSold: 3,
        },
        {
          date: D3,
          campaignId: 'SB-4',
          campaignName: 'Brand 4',
          campaignBudgetCurrencyCode: 'USD',
          impressions: 120,
          clicks: 6,
          cost: 10.0,
          sales: 15.0,
          purchases: 3,
          unitsSold: 3,
        },
      ]),
    );
    await landOk(
      wh,
      'ads.sbPurchasedProduct',
      US,
      writeJson(dir, 'sbpp.json', [
        // SB-1: sales14d 60 : 40 (orders14d 1 : 3 must be ignored because there are sales).
        {
          date: D1,
          campaignId: 'SB-1',
          adGroupId: 'SBG-1',
          purchasedAsin: A1,
          campaignBudgetCurrencyCode: 'USD',
          sales14d: 60.0,
          orders14d: 1,
          unitsSold14d: 1,
        },
        {
          date: D1,
          campaignId: 'SB-1',
          adGroupId: 'SBG-1',
          purchasedAsin: A2,
          campaignBudgetCurrencyCode: 'USD',
          sales14d: 40.0,
          orders14d: 3,
          unitsSold14d: 3,
        },
        // SB-3: no sales14d, orders14d 2 : 1.
        {
          date: D2,
          campaignId: 'SB-3',
          adGroupId: 'SBG-3',
          purchasedAsin: A1,
          campaignBudgetCurrencyCode: 'USD',
          sales14d: 0,
          orders14d: 2,
          unitsSold14d: 2,
        },
        {
          date: D2,
          campaignId: 'SB-3',
          adGroupId: 'SBG-3',
          purchasedAsin: A2,
          campaignBudgetCurrencyCode: 'USD',
          sales14d: 0,
          orders14d: 1,
          unitsSold14d: 1,
        },
        // SB-4: three equal sales14d shares.
        {
          date: D3,
          campaignId: 'SB-4',
          adGroupId: 'SBG-4',
          purchasedAsin: A2,
          campaignBudgetCurrencyCode: 'USD',
          sales14d: 5.0,
          orders14d: 1,
          unitsSold14d: 1,
        },
        {
          date: D3,
          campaignId: 'SB-4',
          adGroupId: 'SBG-4',
          purchasedAsin: A5,
          campaignBudgetCurrencyCode: 'USD',
          sales14d: 5.0,
          orders14d: 1,
          unitsSold14d: 1,
        },
        {
          date: D3,
          campaignId: 'SB-4',
          adGroupId: 'SBG-4',
          purchasedAsin: A6,
          campaignBudgetCurrencyCode: 'USD',
          sales14d: 5.0,
          orders14d: 1,
          unitsSold14d: 1,
        },
      ]),
    );
    await landOk(
      wh,
      'ads.stCampaigns',
      US,
      writeJson(dir, 'st.json', [
        // Sponsored TV: spend only in the account table (docs/design/PROFIT.md lists no ST results, clicks or
        // impressions).
        {
          date: D1,
          campaignId: 'ST-1',
          campaignName: 'TV',
          campaignBudgetCurrencyCode: 'USD',
          impressions: 2000,
          clicks: 11,
          cost: 6.0,
          sales: 50.0,
          purchases: 2,
          unitsSold: 2,
        },
      ]),
    );
    await landOk(
      wh,
      'ads.dspCampaign',
      US,
      writeJson(dir, 'dsp.json', [
        {
          date: D1,
          orderId: 'DSP-1',
          orderName: 'DSP order',
          lineItemId: 'LI-1',
          orderCurrency: 'USD',
          totalCost: 8.5,
          supplyCost: 7.0,
          impressions: 4000,
          clickThroughs: 12,
          sales14d: 33.0,
          purchases14d: 2,
          unitsSold14d: 3,
        },
      ]),
    );
    await buildAll(wh);
  });

  afterAll(async () => wh?.close());

  it('gives each SKU its SP and SD results and its share of sponsored brands cost (D1)', async () => {
    const got = await skuProfit(wh, US.id, [
      'ad_spend',
      'ad_sales',
      'ad_orders',
      'ad_units_sold',
      'ad_clicks',
      'ad_impressions',
      'acos',
    ]);
    expect(got.filter((r) => r.date === D1)).toEqual([
      // SB-1 30.00 by sales14d 60:40 → A1 18.00, A2 12.00. A1's 18.00 by D1 shipped sales 20.00:10.00 → SKU-A1X 12.00,
      // SKU-A1Y 6.00.
      // SKU-A1X: ad_spend = SP 5.00 + SD 3.00 + SB 12.00 = 20.00; ad_sales = SP same-SKU 25.00 + SD promoted clicks
      // 15.00 = 40.00;
      //   ad_orders = SP purchasesSameSku7d 2 + SD purchasesPromotedClicks 1 = 3; ad_units_sold = SP unitsSoldSameSku7d
      // 2 + SD unitsSoldClicks 3 = 5;
      //   ad_clicks = 50 + 20 = 70; ad_impressions = 1000 + 500 = 1500 (SB adds none); acos = 20 / 40 × 100 = 50.
      {
        date: D1,
        child_asin: A1,
        sku: 'SKU-A1X',
        ad_spend: '20.0000',
        ad_sales: '40.0000',
        ad_orders: '3.0000',
        ad_units_sold: '5.0000',
        ad_clicks: '70.0000',
        ad_impressions: '1500.0000',
        acos: '50.0000',
      },
      // SKU-A1Y: SB part 6.00 only; sponsored brands has no same-SKU sales → ad_sales 0 → acos null.
      {
        date: D1,
        child_asin: A1,
        sku: 'SKU-A1Y',
        ad_spend: '6.0000',
        ad_sales: '0.0000',
        ad_orders: '0.0000',
        ad_units_sold: '0.0000',
        ad_clicks: '0.0000',
        ad_impressions: '0.0000',
        acos: null,
      },
      // SKU-A2: the only SKU of A2 that day takes A2's whole 12.00.
      {
        date: D1,
        child_asin: A2,
        sku: 'SKU-A2',
        ad_spend: '12.0000',
        ad_sales: '0.0000',
        ad_orders: '0.0000',
        ad_units_sold: '0.0000',
        ad_clicks: '0.0000',
        ad_impressions: '0.0000',
        acos: null,
      },
      // SKU-A3: SP spend 4.00 with zero sales → acos null (rule 11); clicks 10, impressions 200.
      {
        date: D1,
        child_asin: A3,
        sku: 'SKU-A3',
        ad_spend: '4.0000',
        ad_sales: '0.0000',
        ad_orders: '0.0000',
        ad_units_sold: '0.0000',
        ad_clicks: '10.0000',
        ad_impressions: '200.0000',
        acos: null,
      },
    ]);
  });

  it('keeps sponsored brands without purchased products, sponsored TV and DSP out of every SKU row', async () => {
    // D1 SKU ad_spend = 20 + 6 + 12 + 4 = 42.00 = account 63.50 − SB-2 7.00 − ST 6.00 − DSP 8.50.
    const [sum] = await rows(
      wh,
      `select sum(ad_spend) as spend from marts.mkt_profit_by_sku_and_date where seller_or_vendor_id = $c and date = $d`,
      { c: US.id, d: D1 },
    );
    expect(sum).toEqual({ spend: '42.0000' });
  });

  it('sums every campaign type into the account ad measures, sponsored TV once (D1)', async () => {
    const got = await dayProfit(wh, US.id, [
      'total_sales',
      'ad_spend',
      'sponsored_tv_ad_spend',
      'ad_sales',
      'ad_orders',
      'ad_units_sold',
      'ad_clicks',
      'ad_impressions',
      'profit',
    ]);
    expect(got.find((r) => r.date === D1)).toEqual({
      date: D1,
      currency: 'USD',
      // 20 + 10 + 10 shipped.
      total_sales: '40.0000',
      // SP 5 + 4, SB 30 + 7, SD 3, TV 6, DSP totalCost 8.50 (not supplyCost 7.00) = 63.50.
      ad_spend: '63.5000',
      sponsored_tv_ad_spend: '6.0000',
      // SP sales7d 40 + 0, SB sales 100 + 14, SD sales 30, DSP sales14d 33 = 217 (TV results not listed in
      // docs/design/PROFIT.md).
      ad_sales: '217.0000',
      // SP purchases7d 3 + 0, SB 4 + 1, SD 4, DSP 2 = 14.
      ad_orders: '14.0000',
      // SP unitsSoldClicks7d 4 + 0, SB 5 + 1, SD 5, DSP 3 = 18.
      ad_units_sold: '18.0000',
      // SP 50 + 10, SB 40 + 9, SD 20, DSP clickThroughs 12 = 141 (TV excluded).
      ad_clicks: '141.0000',
      // SP 1000 + 200, SB 3000 + 300, SD 500, DSP 4000 = 9000 (TV excluded).
      ad_impressions: '9000.0000',
      // Rule 11: 40 − 63.50 (TV deducted once, inside ad_spend) = −23.50.
      profit: '-23.5000',
    });
  });

  it('falls back to orders14d shares and splits an ASIN over its SKUs by same-day sales (D2)', async () => {
    const got = await skuProfit(wh, US.id, ['ad_spend']);
    const d2 = got.filter((r) => r.date === D2);
    // SB-3 10.00 by orders14d 2:1 → A1 6.666…, A2 3.333…
    // A1 by D2 shipped sales 10.00 (SKU-A1X) : 20.00 (SKU-A1Y) → 2.222…, 4.444…; A2 sold no SKU on D2 → sku null.
    expect(d2.map((r) => ({ child_asin: r.child_asin, sku: r.sku, ad_spend: cents(r.ad_spend as string) }))).toEqual([
      { child_asin: A1, sku: 'SKU-A1X', ad_spend: '2.22' },
      { child_asin: A1, sku: 'SKU-A1Y', ad_spend: '4.44' },
      { child_asin: A2, sku: null, ad_spend: '3.33' },
    ]);
    // The yml: the parts add up to the campaign cost exactly (10.0000, not 9.99).
    const [sum] = await rows(
      wh,
      `select sum(ad_spend) as spend from marts.mkt_profit_by_sku_and_date where seller_or_vendor_id = $c and date = $d`,
      { c: US.id, d: D2 },
    );
    expect(sum).toEqual({ spend: '10.0000' });
    // Account: SB-3 cost 10.00; its sales 0 → acos null; total_sales 10 + 20 = 30; profit 30 − 10 = 20.
    expect(
      (
        await dayProfit(wh, US.id, [
          'ad_spend',
          'ad_sales',
          'ad_orders',
          'ad_units_sold',
          'ad_clicks',
          'ad_impressions',
          'acos',
          'profit',
        ])
      ).find((r) => r.date === D2),
    ).toEqual({
      date: D2,
      currency: 'USD',
      ad_spend: '10.0000',
      ad_sales: '0.0000',
      ad_orders: '3.0000',
      ad_units_sold: '3.0000',
      ad_clicks: '5.0000',
      ad_impressions: '100.0000',
      acos: null,
      profit: '20.0000',
    });
  });

  it('splits 10.00 over three equal shares so that the parts add up exactly, sku null without SKU sales (D3)', async () => {
    const got = (await skuProfit(wh, US.id, ['ad_spend', 'acos'])).filter((r) => r.date === D3);
    // 10.00 / 3 = 3.333… each → 3.33 to the cent; no ASIN sold a SKU on D3, so every row has sku null.
    expect(
      got.map((r) => ({ child_asin: r.child_asin, sku: r.sku, ad_spend: cents(r.ad_spend as string), acos: r.acos })),
    ).toEqual([
      { child_asin: A2, sku: null, ad_spend: '3.33', acos: null },
      { child_asin: A5, sku: null, ad_spend: '3.33', acos: null },
      { child_asin: A6, sku: null, ad_spend: '3.33', acos: null },
    ]);
    // Parts add up to the cost exactly: 10.0000.
    const [sum] = await rows(
      wh,
      `select sum(ad_spend) as spend from marts.mkt_profit_by_sku_and_date where seller_or_vendor_id = $c and date = $d`,
      { c: US.id, d: D3 },
    );
    expect(sum).toEqual({ spend: '10.0000' });
    // Account: SB-4 10.00, sales 15 → acos 10 / 15 × 100 = 66.666…; no orders → profit −10.
    const [day] = (await dayProfit(wh, US.id, ['ad_spend', 'ad_sales', 'acos', 'profit'])).filter((r) => r.date === D3);
    expect(day).toMatchObject({ ad_spend: '10.0000', ad_sales: '15.0000', profit: '-10.0000' });
    expect(Number(day!.acos)).toBeCloseTo(66.6667, 3);
  });

  it('SKU profit deducts the SKU ad spend (rule 11)', async () => {
    const got = (await skuProfit(wh, US.id, ['total_sales', 'ad_spend', 'profit', 'tacos'])).filter(
      (r) => r.date === D1 && r.sku === 'SKU-A1Y',
    );
    // SKU-A1Y: total_sales 10.00 − SB part 6.00 = 4.00; tacos = 6 / 10 × 100 = 60.
    expect(got).toEqual([
      {
        date: D1,
        child_asin: A1,
        sku: 'SKU-A1Y',
        total_sales: '10.0000',
        ad_spend: '6.0000',
        profit: '4.0000',
        tacos: '60.0000',
      },
    ]);
  });
});
