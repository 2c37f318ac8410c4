import { SP_CAMPAIGNS } from './ads-campaigns.ts';
import { ASINS, listedIn, product, unitCents } from './catalog.ts';
import { Rng } from './random.ts';
import type { FakeSeller } from './sellers.ts';
import { splitInt } from './text.ts';

/** A 15-digit numeric id, as the Ads API sends (a JSON number below 2^53), fixed per seller and name. */
export const adsId = (seller: FakeSeller, ...parts: string[]): number => {
  const rng = new Rng([seller.seed, 'ads-id', ...parts]);
  return Number(`${rng.int(1, 9)}${rng.digits(14)}`);
};

/** Cents as a JSON number with two decimals. */
export const cents2 = (c: number): number => c / 100;

/** How many of n trials succeed. */
export const count = (rng: Rng, n: number, p: number): number => {
  let k = 0;
  for (let i = 0; i < n; i++) if (rng.chance(p)) k++;
  return k;
};

/** Days after the ad interaction a conversion is attributed: most at once, some restated up to 41 days later. */
export const conversionDelay = (rng: Rng): number =>
  rng.weighted([0, rng.int(1, 3), rng.int(4, 13), rng.int(14, 41)], [60, 25, 12, 3]);

/** Delivery (impressions, clicks, cost) is final after three days; before, a little is still missing. */
export const deliveryShare = (age: number): number => (age >= 3 ? 1 : 0.95);

interface Totals {
  impressions: number;
  clicks: number;
  cost: number;
  purchases: number;
  units: number;
  sales: number;
}

/**
 * One day of sponsored products for a seller, `age` days after it ended: the advertised-product rows, and the ad
 * groups' totals split over their targets and each target's over its search terms (terms with a click only).
 */
export function sponsoredProductsDay(seller: FakeSeller, date: string, age: number) {
  const advertised: Record<string, unknown>[] = [];
  const targeting: Record<string, unknown>[] = [];
  const searchTerms: Record<string, unknown>[] = [];
  const others = listedIn(seller.currency);
  const currency = seller.currency;
  for (const c of SP_CAMPAIGNS[seller.countryCode]) {
    const campaignId = adsId(seller, c.name, 'campaign');
    const adGroupId = adsId(seller, c.name, 'adGroup');
    const group: Totals = { impressions: 0, clicks: 0, cost: 0, purchases: 0, units: 0, sales: 0 };
    for (const sku of c.skus.filter((s) => listedIn(currency).some((p) => p.sku === s))) {
      const rng = new Rng([seller.seed, 'sp', date, c.name, sku]);
      const share = deliveryShare(age);
      const impressions = Math.round(((c.impressions * product(sku).pop) / 5) * (0.7 + rng.float() * 0.6) * share);
      const clicks = count(rng, impressions, c.ctr);
      let cost = 0;
      for (let i = 0; i < clicks; i++) cost += rng.int(c.cpc[0], c.cpc[1]);
      let purchases = 0,
        sameSku = 0,
        units = 0,
        sameUnits = 0,
        sales = 0,
        sameSales = 0;
      for (let i = count(rng, clicks, c.cvr); i > 0; i--) {
        const same = rng.chance(0.85);
        const extra = rng.chance(0.12) ? 1 : 0;
        const price = same ? unitCents(product(sku), currency) : unitCents(rng.pick(others), currency);
        if (conversionDelay(rng) > age) continue;
        purchases++;
        units += 1 + extra;
        sales += price * (1 + extra);
        if (same) {
          sameSku++;
          sameUnits += 1 + extra;
          sameSales += price * (1 + extra);
        }
      }
      advertised.push({
        date,
        campaignId,
        campaignName: c.name,
        adGroupId,
        adGroupName: c.adGroup,
        adId: adsId(seller, c.name, sku),
        advertisedAsin: ASINS.get(sku)!,
        advertisedSku: sku,
        campaignBudgetCurrencyCode: currency,
        impressions,
        clicks,
        cost: cents2(cost),
        spend: cents2(cost),
        purchases7d: purchases,
        purchasesSameSku7d: sameSku,
        unitsSoldClicks7d: units,
        unitsSoldSameSku7d: sameUnits,
        sales7d: cents2(sales),
        attributedSalesSameSku7d: cents2(sameSales),
      });
      for (const [k, v] of Object.entries({ impressions, clicks, cost, purchases, units, sales }))
        group[k as keyof Totals] += v;
    }
    const rng = new Rng([seller.seed, 'sp-split', date, c.name]);
    const perTarget = split(
      group,
      c.targets.map(() => 0.5 + rng.float()),
    );
    c.targets.forEach((t, i) => {
      const v = perTarget[i]!;
      const common = {
        date,
        campaignId,
        campaignName: c.name,
        adGroupId,
        adGroupName: c.adGroup,
        keywordId: adsId(seller, c.name, t.text),
        keyword: t.text,
        targeting: t.text,
        keywordType: t.match.startsWith('TARGETING') ? 'TARGETING_EXPRESSION_PREDEFINED' : 'BROAD',
        matchType: t.match,
        campaignBudgetCurrencyCode: currency,
      };
      const metrics = (x: Totals) => ({
        impressions: x.impressions,
        clicks: x.clicks,
        cost: cents2(x.cost),
        spend: cents2(x.cost),
        sales7d: cents2(x.sales),
        purchases7d: x.purchases,
        unitsSoldClicks7d: x.units,
      });
      if (v.impressions > 0) targeting.push({ ...common, ...metrics(v) });
      split(
        v,
        t.terms.map(() => 0.3 + rng.float()),
      ).forEach((x, j) => {
        if (x.clicks > 0) searchTerms.push({ ...common, ...metrics(x), searchTerm: t.terms[j]! });
      });
    });
  }
  return { advertised, targeting, searchTerms };
}

/** Totals split by weights, keeping every part consistent (cost by clicks, sales by units). */
function split(total: Totals, weights: number[]): Totals[] {
  const impressions = splitInt(total.impressions, weights);
  const clicks = splitInt(total.clicks, weights);
  const cost = splitInt(total.cost, clicks);
  const purchases = splitInt(total.purchases, clicks);
  const extra = splitInt(total.units - total.purchases, purchases);
  const units = purchases.map((p, i) => p + extra[i]!);
  const sales = splitInt(total.sales, units);
  return weights.map((_, i) => ({
    impressions: impressions[i]!,
    clicks: clicks[i]!,
    cost: cost[i]!,
    purchases: purchases[i]!,
    units: units[i]!,
    sales: sales[i]!,
  }));
}
