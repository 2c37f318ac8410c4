import { SD_SKUS, sbSpecs } from './ads-campaigns.ts';
import {
  adsId,
  cents2,
  conversionDelay,
  count,
  deliveryShare,
  sponsoredProductsDay,
} from './ads-sponsored-products.ts';
import { ASINS, listedIn, product, unitCents } from './catalog.ts';
import { isDealDay } from './orders.ts';
import { Rng } from './random.ts';
import { addDays, localMidnight, type FakeSeller } from './sellers.ts';
import type { FakeAdsReportRequest } from './types.ts';

const DAY = 86_400_000;

/** Sales of `n` conversions still attributed at `age` days (each has its own delay), at a unit price. */
function attributed(rng: Rng, n: number, age: number): number {
  let k = 0;
  for (let i = 0; i < n; i++) if (conversionDelay(rng) <= age) k++;
  return k;
}

/** Sponsored display: one retargeting campaign, 14-day window, view-through purchases included. */
function sponsoredDisplay(seller: FakeSeller, date: string, age: number): Record<string, unknown>[] {
  const isUs = seller.currency === 'USD';
  return SD_SKUS.map((sku) => {
    const rng = new Rng([seller.seed, 'sd', date, sku]);
    const impressions = Math.round(
      rng.int(1500, 4000) * (isDealDay(date) ? 1.8 : 1) * (isUs ? 1 : 0.6) * deliveryShare(age),
    );
    const clicks = count(rng, impressions, 0.003);
    let cost = 0;
    for (let i = 0; i < clicks; i++) cost += isUs ? rng.int(70, 130) : rng.int(45, 90);
    const promoted = attributed(rng, count(rng, clicks, 0.09), age);
    const unitsClicks = promoted + count(rng, promoted, 0.1);
    const views = attributed(rng, count(rng, impressions, 0.0004), age);
    const price = unitCents(product(sku), seller.currency);
    return {
      date,
      campaignId: adsId(seller, 'sd', 'campaign'),
      campaignName: isUs ? 'SD | Retargeting | Views' : 'SD | Retargeting | Ansichten',
      adGroupId: adsId(seller, 'sd', 'adGroup'),
      adGroupName: 'Retargeting',
      adId: adsId(seller, 'sd', sku),
      promotedAsin: ASINS.get(sku)!,
      promotedSku: sku,
      campaignBudgetCurrencyCode: seller.currency,
      impressions,
      clicks,
      cost: cents2(cost),
      sales: cents2((unitsClicks + views) * price),
      salesPromotedClicks: cents2(promoted * price),
      purchases: promoted + views,
      purchasesPromotedClicks: promoted,
      unitsSold: unitsClicks + views,
      unitsSoldClicks: unitsClicks,
    };
  });
}

/** Sponsored brands: campaign rows, and purchased-product rows (14 days; no cost). */
function sponsoredBrands(seller: FakeSeller, date: string, age: number) {
  const campaigns: Record<string, unknown>[] = [];
  const purchased: Record<string, unknown>[] = [];
  for (const spec of sbSpecs(seller.countryCode)) {
    const rng = new Rng([seller.seed, 'sb', date, spec.key]);
    const campaignId = adsId(seller, 'sb', spec.key);
    const clicks = Math.round(
      rng.int(spec.clicks[0], spec.clicks[1]) *
        (isDealDay(date) ? 1.8 : 1) *
        (seller.currency === 'USD' ? 1 : 0.7) *
        deliveryShare(age),
    );
    let cost = 0;
    for (let i = 0; i < clicks; i++) cost += rng.int(spec.cpc[0], spec.cpc[1]);
    let sales = 0,
      purchases = 0,
      unitsSold = 0;
    for (const sku of spec.skus) {
      const orders = attributed(rng, Math.max(spec.always ? 1 : 0, count(rng, clicks, 0.05)), spec.always ? 99 : age);
      if (orders === 0) continue;
      const units = orders + count(rng, orders, 0.15);
      const s = units * unitCents(product(sku), seller.currency);
      purchased.push({
        date,
        campaignId,
        campaignName: spec.name,
        adGroupId: adsId(seller, 'sb', spec.key, 'adGroup'),
        adGroupName: spec.name,
        purchasedAsin: ASINS.get(sku)!,
        productName: product(sku).us ?? product(sku).de,
        campaignBudgetCurrencyCode: seller.currency,
        sales14d: cents2(s),
        orders14d: orders,
        unitsSold14d: units,
      });
      sales += s;
      purchases += orders;
      unitsSold += units;
    }
    campaigns.push({
      date,
      campaignId,
      campaignName: spec.name,
      campaignBudgetCurrencyCode: seller.currency,
      impressions: clicks * rng.int(120, 260),
      clicks,
      cost: cents2(cost),
      sales: cents2(sales),
      purchases,
      unitsSold,
    });
  }
  return { campaigns, purchased };
}

/** Sponsored TV (spend, no clicks to speak of) and DSP line items, for the advertisers that run them. */
function televisionAndDsp(seller: FakeSeller, date: string, age: number) {
  const rng = new Rng([seller.seed, 'st-dsp', date]);
  const tv = seller.ads?.sponsoredTv
    ? [
        {
          date,
          campaignId: adsId(seller, 'st'),
          campaignName: 'ST | Outdoor | Streaming TV',
          campaignBudgetCurrencyCode: seller.currency,
          impressions: rng.int(6000, 12000),
          clicks: rng.int(0, 2),
          cost: cents2(Math.round(rng.int(2200, 3600) * deliveryShare(age))),
          sales: 0,
          purchases: 0,
          unitsSold: 0,
        },
      ]
    : [];
  const dsp = seller.ads?.dspAdvertiserId
    ? ['Retargeting - Camping', 'Lookalike - Hikers'].map((name) => {
        const totalCost = Math.round(rng.int(1200, 2200) * deliveryShare(age));
        const purchases = attributed(rng, rng.int(0, 3), age);
        const units = purchases + count(rng, purchases, 0.2);
        let sales = 0;
        for (let i = 0; i < units; i++) sales += unitCents(rng.pick(listedIn(seller.currency)), seller.currency);
        return {
          date,
          orderId: `5830${new Rng([seller.seed, 'dsp-order']).digits(14)}`,
          orderName: `Acme Outdoor | ${name}`,
          lineItemId: `6172${new Rng([seller.seed, 'dsp', name]).digits(14)}`,
          orderCurrency: seller.currency,
          totalCost: cents2(totalCost),
          supplyCost: cents2(Math.round(totalCost * 0.78)),
          impressions: rng.int(6000, 14000),
          clickThroughs: rng.int(6, 25),
          sales14d: cents2(sales),
          purchases14d: purchases,
          unitsSold14d: units,
          advertiserId: seller.ads!.dspAdvertiserId,
        };
      })
    : [];
  return { tv, dsp };
}

/** The rows of one report type for one day. */
function dayRows(seller: FakeSeller, type: string, date: string, age: number): Record<string, unknown>[] {
  if (type.startsWith('sp')) {
    const sp = sponsoredProductsDay(seller, date, age);
    return type === 'spAdvertisedProduct'
      ? sp.advertised
      : type === 'spTargeting'
        ? sp.targeting
        : type === 'spSearchTerm'
          ? sp.searchTerms
          : [];
  }
  if (type === 'sdAdvertisedProduct') return sponsoredDisplay(seller, date, age);
  if (type === 'sbCampaigns') return sponsoredBrands(seller, date, age).campaigns;
  if (type === 'sbPurchasedProduct') return sponsoredBrands(seller, date, age).purchased;
  if (type === 'stCampaigns') return televisionAndDsp(seller, date, age).tv;
  if (type === 'dspCampaign') return televisionAndDsp(seller, date, age).dsp;
  return [];
}

/** SUMMARY rows: each entity's metrics summed over the days, with the report's dates. */
function summarize(rows: Record<string, unknown>[], request: FakeAdsReportRequest): Record<string, unknown>[] {
  const byKey = new Map<string, Record<string, unknown>>();
  for (const row of rows) {
    const { date: _, ...rest } = row;
    const key = JSON.stringify(Object.entries(rest).filter(([, v]) => typeof v !== 'number' || String(v).length > 12));
    const sum = byKey.get(key);
    if (!sum) byKey.set(key, { ...rest, startDate: request.startDate, endDate: request.endDate });
    else
      for (const [k, v] of Object.entries(rest))
        if (typeof v === 'number' && String(v).length <= 12) sum[k] = Math.round(((sum[k] as number) + v) * 100) / 100;
  }
  return [...byKey.values()];
}

/**
 * An Ads API v3 report's rows for the dates of the request that ended in the seller's time zone by `asOf` (and not
 * before it opened), each keyed by exactly the requested columns (null for a column the fake does not model). A DSP
 * report keeps the rows of the advertisers its filter names.
 */
export function adsReport(seller: FakeSeller, request: FakeAdsReportRequest): Record<string, unknown>[] {
  let rows: Record<string, unknown>[] = [];
  for (let date = request.startDate; date <= request.endDate; date = addDays(date, 1)) {
    const ended = localMidnight(addDays(date, 1), seller.timezone);
    if (date < seller.openedOn || ended > request.asOf) continue;
    rows.push(...dayRows(seller, request.reportTypeId, date, Math.floor((request.asOf - ended) / DAY)));
  }
  const advertisers = request.filters.find((f) => f.field === 'advertiserId')?.values;
  if (advertisers)
    rows = rows.filter((r) => r.advertiserId === undefined || advertisers.includes(String(r.advertiserId)));
  if (request.timeUnit === 'SUMMARY') rows = summarize(rows, request);
  return rows.map((row) => Object.fromEntries(request.columns.map((c) => [c, row[c] ?? null])));
}
