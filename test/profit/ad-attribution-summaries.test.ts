import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Warehouse } from '../../src/db/warehouse.ts';
import { makeHome, US } from '../helpers/home.ts';
import { buildAll, dayProfit, landCogs, landOk, landOrders, orderLine, writeJson } from '../helpers/profit.ts';

// The ad_target_* and ad_search_term_* columns of mkt_profit_by_date: spec 001 (mkt_profit_by_date rules) and
// the estimation statement of models/marts/mkt_profit_by_date.yml.
//
// Margins (US connection; orders at noon UTC keep their date in Los Angeles):
//   SKU-M (ASIN M): 2026-03-05 two shipped orders of 20.00, unit cost 8.00 + 2.00 → total_sales 40, cogs 20,
//     profit before ads 20 → 30-day margin rate 20 / 40 = 0.5 for any row date 2026-03-05 … 2026-04-03.
//   SKU-U (ASIN U): 2026-03-08 one shipped order of 15.00 without COGS (cogs_present false) → no margin.
// Ad groups (spAdvertisedProduct, 2026-03-10): C1/G1 → SKU-M; C3/G3 → SKU-U; C4/G4 → SKU-M and SKU-U; C2/G2 unknown.
const M = 'B00000000M';
const U = 'B00000000U';

const target = (
  date: string,
  campaignId: string,
  adGroupId: string,
  keywordId: string,
  cost: number,
  sales7d: number,
) => ({
  date,
  campaignId,
  campaignName: `Campaign ${campaignId}`,
  adGroupId,
  adGroupName: `Group ${adGroupId}`,
  keywordId,
  keyword: `kw ${keywordId}`,
  targeting: `kw ${keywordId}`,
  keywordType: 'BROAD',
  matchType: 'BROAD',
  campaignBudgetCurrencyCode: 'USD',
  impressions: 100,
  clicks: 5,
  cost,
  sales7d,
  purchases7d: sales7d > 0 ? 1 : 0,
  unitsSoldClicks7d: sales7d > 0 ? 1 : 0,
});

const searchTerm = (
  date: string,
  campaignId: string,
  adGroupId: string,
  term: string,
  cost: number,
  sales7d: number,
) => ({
  date,
  campaignId,
  campaignName: `Campaign ${campaignId}`,
  adGroupId,
  adGroupName: `Group ${adGroupId}`,
  keywordId: 'K-1',
  keyword: 'widget',
  searchTerm: term,
  matchType: 'BROAD',
  campaignBudgetCurrencyCode: 'USD',
  impressions: 50,
  clicks: 2,
  cost,
  sales7d,
  purchases7d: sales7d > 0 ? 1 : 0,
  unitsSoldClicks7d: sales7d > 0 ? 1 : 0,
});

const advertised = (campaignId: string, adGroupId: string, sku: string, asin: string, cost: number) => ({
  date: '2026-03-10',
  campaignId,
  campaignName: `Campaign ${campaignId}`,
  adGroupId,
  adGroupName: `Group ${adGroupId}`,
  adId: `AD-${campaignId}-${sku}`,
  advertisedAsin: asin,
  advertisedSku: sku,
  campaignBudgetCurrencyCode: 'USD',
  impressions: 10,
  clicks: 1,
  cost,
  purchases7d: 0,
  purchasesSameSku7d: 0,
  unitsSoldClicks7d: 0,
  unitsSoldSameSku7d: 0,
  sales7d: 0,
  attributedSalesSameSku7d: 0,
});

const TARGET = [
  'reported_spend',
  'reported_sales',
  'count',
  'costed_sales',
  'costed_spend',
  'unsupported_sales',
  'missing_cost_sales',
  'costed_estimated_profit_after_ads',
  'mature_spend_without_sales',
];
const targetColumns = TARGET.map((s) => `ad_target_${s}`);
const searchTermColumns = TARGET.map((s) => `ad_search_term_${s}`);

/** The nine summary values of one report, keyed by their suffix. */
const summary = (values: (string | null)[]) => Object.fromEntries(TARGET.map((s, i) => [s, values[i]]));
const nulls = summary(TARGET.map(() => null));

describe('ads attribution summaries of mkt_profit_by_date', () => {
  let wh: Warehouse;
  let dir: string;
  let days: Record<string, Record<string, unknown>>;

  const part = (date: string, prefix: 'ad_target_' | 'ad_search_term_') =>
    Object.fromEntries(TARGET.map((s) => [s, days[date]![`${prefix}${s}`]]));

  beforeAll(async () => {
    ({ wh, dir } = await makeHome());
    await landOrders(wh, dir, US, [
      orderLine({
        'amazon-order-id': 'M-1',
        sku: 'SKU-M',
        asin: M,
        'item-price': '20.00',
        'purchase-date': '2026-03-05T12:00:00+00:00',
      }),
      orderLine({
        'amazon-order-id': 'M-2',
        sku: 'SKU-M',
        asin: M,
        'item-price': '20.00',
        'purchase-date': '2026-03-05T12:00:00+00:00',
      }),
      orderLine({
        'amazon-order-id': 'U-1',
        sku: 'SKU-U',
        asin: U,
        'item-price': '15.00',
        'purchase-date': '2026-03-08T12:00:00+00:00',
      }),
    ]);
    await landCogs(wh, dir, US, [`${M},SKU-M,USD,2026-01-01,8.00,2.00,Supplier M`]);
    await landOk(
      wh,
      'ads.spAdvertisedProduct',
      US,
      writeJson(dir, 'sp.json', [
        advertised('C1', 'G1', 'SKU-M', M, 3.0),
        advertised('C3', 'G3', 'SKU-U', U, 0.5),
        advertised('C4', 'G4', 'SKU-M', M, 0.1),
        advertised('C4', 'G4', 'SKU-U', U, 0.1),
      ]),
    );
    await landOk(
      wh,
      'ads.spTargeting',
      US,
      writeJson(dir, 'targeting.json', [
        // 2026-03-10
        target('2026-03-10', 'C1', 'G1', 'K1', 2.0, 30.0), // costed: 30 × 0.5 − 2 = 13.00
        target('2026-03-10', 'C1', 'G1', 'K2', 1.5, 0), // spend-only: −1.50; mature (03-10 + 7 = 03-17 ≤ latest 03-17)
        target('2026-03-10', 'C2', 'G2', 'K3', 4.0, 25.0), // no advertised SKU known → missing cost 25
        target('2026-03-10', 'C3', 'G3', 'K4', 1.0, 12.0), // SKU-U has no margin (uncosted) → missing cost 12
        target('2026-03-10', 'C4', 'G4', 'K5', 0.9, 18.0), // partly costed (SKU-M yes, SKU-U no) → missing cost 18
        // 2026-03-11: SKU-M has no SKU-table row that day, but its 30 days ending 03-11 include the 03-05 sales.
        target('2026-03-11', 'C1', 'G1', 'K1', 1.0, 20.0), // costed: 20 × 0.5 − 1 = 9.00
        target('2026-03-11', 'C2', 'G2', 'K3', 0.7, 0), // spend-only: −0.70; not mature (03-18 > 03-17)
        // 2026-03-17: the target report's latest date.
        target('2026-03-17', 'C2', 'G2', 'K3', 0.8, 0), // spend-only: −0.80; not mature
      ]),
    );
    await landOk(
      wh,
      'ads.spSearchTerm',
      US,
      writeJson(dir, 'search-terms.json', [
        searchTerm('2026-03-10', 'C1', 'G1', 'blue widget', 1.0, 10.0), // costed: 10 × 0.5 − 1 = 4.00
        // spend-only: −0.60; not mature (latest search-term date 03-12)
        searchTerm('2026-03-10', 'C2', 'G2', 'red widget', 0.6, 0),
        searchTerm('2026-03-12', 'C1', 'G1', 'green widget', 0.4, 0), // spend-only: −0.40
      ]),
    );
    await buildAll(wh);
    const all = await dayProfit(wh, US.id, [...targetColumns, ...searchTermColumns]);
    days = Object.fromEntries(all.map((r) => [r.date as string, r]));
  });

  afterAll(async () => wh?.close());

  it('has a row on each day with any figure, with null summaries where no report row exists', () => {
    // Orders on 03-05 and 03-08; ads on 03-10, 03-11, 03-12 and 03-17.
    expect(Object.keys(days)).toEqual([
      '2026-03-05',
      '2026-03-08',
      '2026-03-10',
      '2026-03-11',
      '2026-03-12',
      '2026-03-17',
    ]);
    // No targeting or search-term rows on the order days.
    expect(part('2026-03-05', 'ad_target_')).toEqual(nulls);
    expect(part('2026-03-05', 'ad_search_term_')).toEqual(nulls);
    expect(part('2026-03-08', 'ad_target_')).toEqual(nulls);
    expect(part('2026-03-08', 'ad_search_term_')).toEqual(nulls);
    // Search-term rows only on 03-12, target rows only on 03-11 and 03-17.
    expect(part('2026-03-12', 'ad_target_')).toEqual(nulls);
    expect(part('2026-03-11', 'ad_search_term_')).toEqual(nulls);
    expect(part('2026-03-17', 'ad_search_term_')).toEqual(nulls);
  });

  it('summarises the 03-10 target rows: costed, spend-only, unknown SKU, uncosted SKU, partly costed', () => {
    expect(part('2026-03-10', 'ad_target_')).toEqual(
      summary([
        '9.4000', // reported spend 2 + 1.5 + 4 + 1 + 0.9
        '85.0000', // reported sales 30 + 0 + 25 + 12 + 18
        '5.0000', // five rows, the spend-only one included
        '30.0000', // costed sales: K1 30 + K2 0
        '3.5000', // costed spend: K1 2 + K2 1.5
        '0.0000', // only sponsored products reports: nothing without product attribution
        '55.0000', // missing cost sales: 25 (no SKU) + 12 (SKU-U uncosted) + 18 (partly costed)
        '11.5000', // estimated profit: (30 × 0.5 − 2) + (−1.5) = 13 − 1.5
        '1.5000', // K2 spend without sales, 03-10 + 7 days = 03-17 = latest target date → mature
      ]),
    );
  });

  it('costs a row by the 30-day margin even when the SKU has no row on that date (03-11)', () => {
    expect(part('2026-03-11', 'ad_target_')).toEqual(
      summary([
        '1.7000', // 1.0 + 0.7
        '20.0000',
        '2.0000',
        // both rows costed: K1 (margin 0.5 from the 03-05 sales within the 30 days ending 03-11) and the spend-only row
        '20.0000',
        '1.7000',
        '0.0000',
        '0.0000',
        '8.3000', // 20 × 0.5 − 1 = 9.00, plus −0.70
        '0.0000', // 03-11 + 7 = 03-18 > 03-17 → not mature
      ]),
    );
  });

  it('summarises the latest target day as provisional spend-only (03-17)', () => {
    expect(part('2026-03-17', 'ad_target_')).toEqual(
      summary(['0.8000', '0.0000', '1.0000', '0.0000', '0.8000', '0.0000', '0.0000', '-0.8000', '0.0000']),
    );
  });

  it('summarises the search-term rows with their own latest date', () => {
    expect(part('2026-03-10', 'ad_search_term_')).toEqual(
      summary([
        '1.6000', // 1.0 + 0.6
        '10.0000',
        '2.0000',
        '10.0000', // both costed (blue widget by margin, red widget spend-only)
        '1.6000',
        '0.0000',
        '0.0000',
        '3.4000', // (10 × 0.5 − 1) + (−0.6) = 4 − 0.6
        '0.0000', // latest search-term date is 03-12: 03-10 + 7 = 03-17 > 03-12 → not mature
      ]),
    );
    expect(part('2026-03-12', 'ad_search_term_')).toEqual(
      summary(['0.4000', '0.0000', '1.0000', '0.0000', '0.4000', '0.0000', '0.0000', '-0.4000', '0.0000']),
    );
  });
});
