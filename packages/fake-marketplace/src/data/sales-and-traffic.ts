import { ASINS, listedIn, PARENT_ASINS } from './catalog.ts';
import { orderVersionAt } from './orders-report.ts';
import { isDealDay, ordersOn } from './orders.ts';
import { Rng } from './random.ts';
import { dayExtras, type DayExtras } from './sales-and-traffic-by-date.ts';
import { addDays, localMidnight, type FakeSeller } from './sellers.ts';
import type { FakeDocument, FakeReportRequest } from './types.ts';

const DAY = 86_400_000;
const round2 = (x: number) => Math.round(x * 100) / 100;
/** `part` of `whole` in percent, 0 for an empty whole; the schema caps these at 100. */
const percent = (part: number, whole: number) => (whole === 0 ? 0 : Math.min(100, round2((part / whole) * 100)));

interface Sales {
  units: number;
  unitsB2B: number;
  cents: number;
  centsB2B: number;
  items: number;
  itemsB2B: number;
}
const noSales = (): Sales => ({ units: 0, unitsB2B: 0, cents: 0, centsB2B: 0, items: 0, itemsB2B: 0 });

/** Ordered (not cancelled) lines of a local day by SKU, as of `asOf`. */
function orderedBySku(seller: FakeSeller, date: string, asOf: number): Map<string, Sales> {
  const out = new Map<string, Sales>();
  for (const o of ordersOn(seller, date)) {
    if (o.mcf) continue;
    const v = orderVersionAt(o, asOf);
    o.lines.forEach((l, i) => {
      if (v.itemStatus[i] === 'Cancelled') return;
      const s = out.get(l.product.sku) ?? noSales();
      out.set(l.product.sku, s);
      s.units += l.qty;
      s.cents += l.item;
      s.items += 1;
      if (o.business) {
        s.unitsB2B += l.qty;
        s.centsB2B += l.item;
        s.itemsB2B += 1;
      }
    });
  }
  return out;
}

/**
 * One SKU's day: its sales, and sessions, page views and buy box from its own stream (lower in the first three days:
 * late revisions).
 */
function skuDay(seller: FakeSeller, date: string, sku: string, pop: number, s: Sales, revised: boolean) {
  const rng = new Rng([seller.seed, 'traffic', date, sku]);
  const scale = revised ? 1 : 0.9;
  const sessions = Math.max(
    Math.round(pop * (3 + rng.float() * 3) * (isDealDay(date) ? 2 : 1) * scale),
    Math.round(s.units * (6 + rng.float() * 7)),
    s.items,
  );
  const sessionsB2B = Math.min(sessions, Math.max(s.itemsB2B, Math.round(sessions * (0.02 + rng.float() * 0.08))));
  const browserSessions = Math.round(sessions * (0.3 + rng.float() * 0.2));
  const pageViews = sessions + Math.round(sessions * (0.15 + rng.float() * 0.45));
  const pageViewsB2B = Math.min(pageViews, sessionsB2B + Math.round(sessionsB2B * (0.1 + rng.float() * 0.4)));
  const browserPageViews = Math.round(pageViews * (browserSessions / Math.max(1, sessions)));
  return {
    s,
    sessions,
    sessionsB2B,
    browserSessions,
    browserSessionsB2B: Math.round(sessionsB2B * 0.7),
    pageViews,
    pageViewsB2B,
    browserPageViews,
    browserPageViewsB2B: Math.round(pageViewsB2B * 0.7),
    buyBox: rng.chance(0.7) ? 100 : round2(86 + rng.float() * 14),
    buyBoxB2B: sessionsB2B === 0 ? 0 : rng.chance(0.8) ? 100 : round2(90 + rng.float() * 10),
  };
}
type SkuDay = ReturnType<typeof skuDay>;

/** A by-ASIN entry summed over SKU days (the by-ASIN block aggregates over the whole window). */
function entry(key: { parentAsin: string; childAsin?: string; sku?: string }, days: SkuDay[], currency: string) {
  const sum = (f: (d: SkuDay) => number) => days.reduce((a, d) => a + f(d), 0);
  const money = (c: number) => ({ amount: c / 100, currencyCode: currency });
  const sessions = sum((d) => d.sessions);
  const sessionsB2B = sum((d) => d.sessionsB2B);
  const pageViews = sum((d) => d.pageViews);
  const units = sum((d) => d.s.units);
  const unitsB2B = sum((d) => d.s.unitsB2B);
  return {
    ...key,
    salesByAsin: {
      unitsOrdered: units,
      unitsOrderedB2B: unitsB2B,
      orderedProductSales: money(sum((d) => d.s.cents)),
      orderedProductSalesB2B: money(sum((d) => d.s.centsB2B)),
      totalOrderItems: sum((d) => d.s.items),
      totalOrderItemsB2B: sum((d) => d.s.itemsB2B),
    },
    trafficByAsin: {
      browserSessions: sum((d) => d.browserSessions),
      browserSessionsB2B: sum((d) => d.browserSessionsB2B),
      mobileAppSessions: sum((d) => d.sessions - d.browserSessions),
      mobileAppSessionsB2B: sum((d) => d.sessionsB2B - d.browserSessionsB2B),
      sessions,
      sessionsB2B,
      browserPageViews: sum((d) => d.browserPageViews),
      browserPageViewsB2B: sum((d) => d.browserPageViewsB2B),
      mobileAppPageViews: sum((d) => d.pageViews - d.browserPageViews),
      mobileAppPageViewsB2B: sum((d) => d.pageViewsB2B - d.browserPageViewsB2B),
      pageViews,
      pageViewsB2B: sum((d) => d.pageViewsB2B),
      buyBoxPercentage: pageViews === 0 ? 0 : round2(sum((d) => d.buyBox * d.pageViews) / pageViews),
      buyBoxPercentageB2B: round2(Math.max(0, ...days.map((d) => d.buyBoxB2B))),
      unitSessionPercentage: sessions === 0 ? 0 : round2((units / sessions) * 100),
      unitSessionPercentageB2B: sessionsB2B === 0 ? 0 : round2((unitsB2B / sessionsB2B) * 100),
    },
  };
}

type Entry = ReturnType<typeof entry>;

/** The by-ASIN share fields: an entry's part of the report's sessions and page views (their B2B parts alike). */
const SHARES = [
  ['sessions', 'sessionPercentage'],
  ['browserSessions', 'browserSessionPercentage'],
  ['mobileAppSessions', 'mobileAppSessionPercentage'],
  ['pageViews', 'pageViewsPercentage'],
  ['browserPageViews', 'browserPageViewsPercentage'],
  ['mobileAppPageViews', 'mobileAppPageViewsPercentage'],
].flatMap(([count, share]) => [
  [count, share],
  [`${count}B2B`, `${share}B2B`],
]) as [keyof Entry['trafficByAsin'], string][];

/** The by-ASIN entries with each one's share of the whole report's sessions and page views, in percent. */
function withShares(entries: Entry[]) {
  const total = (count: keyof Entry['trafficByAsin']) => entries.reduce((a, e) => a + e.trafficByAsin[count], 0);
  const totals = SHARES.map(([count]) => total(count));
  return entries.map((e) => ({
    ...e,
    trafficByAsin: {
      ...e.trafficByAsin,
      ...Object.fromEntries(SHARES.map(([count, share], i) => [share, percent(e.trafficByAsin[count], totals[i]!)])),
    },
  }));
}

/** A date's salesByDate and trafficByDate: the day's entry over every SKU, with what only the by-date block has. */
function byDateBlocks(e: Entry, x: DayExtras, currency: string) {
  const sales = e.salesByAsin;
  const average = (amount: number, n: number) => ({ amount: n === 0 ? 0 : round2(amount / n), currencyCode: currency });
  return {
    salesByDate: {
      ...sales,
      averageSalesPerOrderItem: average(sales.orderedProductSales.amount, sales.totalOrderItems),
      averageUnitsPerOrderItem: sales.totalOrderItems === 0 ? 0 : round2(sales.unitsOrdered / sales.totalOrderItems),
      averageSellingPrice: average(sales.orderedProductSales.amount, sales.unitsOrdered),
      unitsRefunded: x.unitsRefunded,
      // Units refunded per unit ordered, as Amazon's example has it (1 of 23 → 4.35).
      refundRate: percent(x.unitsRefunded, sales.unitsOrdered),
      // The fake's buyers file no A-to-z claims.
      claimsGranted: 0,
      claimsAmount: { amount: 0, currencyCode: currency },
      shippedProductSales: { amount: x.shippedCents / 100, currencyCode: currency },
      unitsShipped: x.unitsShipped,
      ordersShipped: x.ordersShipped,
    },
    trafficByDate: {
      ...e.trafficByAsin,
      orderItemSessionPercentage: percent(sales.totalOrderItems, e.trafficByAsin.sessions),
      averageOfferCount: x.averageOfferCount,
      averageParentItems: x.averageParentItems,
      feedbackReceived: x.feedbackReceived,
      negativeFeedbackReceived: x.negativeFeedbackReceived,
      receivedNegativeFeedbackRate: percent(x.negativeFeedbackReceived, x.feedbackReceived),
    },
  };
}

/**
 * GET_SALES_AND_TRAFFIC_REPORT (DAY granularity; CHILD, PARENT or SKU): the window's dates read from the strings as
 * sent; a date shows once it ended in the marketplace and a day passed; null when no date of the window shows, or it
 * starts more than two years back.
 */
export function salesAndTrafficReport(seller: FakeSeller, request: FakeReportRequest): FakeDocument | null {
  const from = request.dataStartTime.slice(0, 10);
  const to = request.dataEndTime.slice(0, 10);
  if (Date.parse(`${from}T00:00:00Z`) < request.asOf - 730 * DAY) return null;
  const granularity = request.reportOptions.asinGranularity ?? 'PARENT';
  const dates: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1))
    if (d >= seller.openedOn && localMidnight(addDays(d, 2), seller.timezone) <= request.asOf) dates.push(d);
  if (dates.length === 0) return null;
  const products = listedIn(seller.currency);
  const perDate = dates.map((date) => {
    const sold = orderedBySku(seller, date, request.asOf);
    const revised = localMidnight(addDays(date, 4), seller.timezone) <= request.asOf;
    return {
      date,
      days: products.map((p) => ({
        sku: p.sku,
        asin: ASINS.get(p.sku)!,
        day: skuDay(seller, date, p.sku, p.pop, sold.get(p.sku) ?? noSales(), revised),
      })),
    };
  });
  const all = perDate.flatMap((d) => d.days);
  const keyOf = (x: (typeof all)[number]) =>
    granularity === 'SKU' ? x.sku : granularity === 'CHILD' ? x.asin : (PARENT_ASINS.get(x.asin) ?? x.asin);
  const groups = new Map<string, typeof all>();
  for (const x of all) groups.set(keyOf(x), [...(groups.get(keyOf(x)) ?? []), x]);
  const byAsin = withShares(
    [...groups.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([, xs]) => {
        const first = xs[0]!;
        const parentAsin = PARENT_ASINS.get(first.asin) ?? first.asin;
        const key =
          granularity === 'SKU'
            ? { parentAsin, childAsin: first.asin, sku: first.sku }
            : granularity === 'CHILD'
              ? { parentAsin, childAsin: first.asin }
              : { parentAsin };
        return entry(
          key,
          xs.map((x) => x.day),
          seller.currency,
        );
      }),
  );
  const byDate = perDate.map(({ date, days }) => {
    const e = entry(
      { parentAsin: '' },
      days.map((d) => d.day),
      seller.currency,
    );
    return { date, ...byDateBlocks(e, dayExtras(seller, date), seller.currency) };
  });
  const document = {
    reportSpecification: {
      reportType: 'GET_SALES_AND_TRAFFIC_REPORT',
      reportOptions: { dateGranularity: request.reportOptions.dateGranularity ?? 'DAY', asinGranularity: granularity },
      dataStartTime: from,
      dataEndTime: to,
      marketplaceIds: [seller.marketplaceId],
    },
    salesAndTrafficByDate: byDate,
    salesAndTrafficByAsin: byAsin,
  };
  return { body: Buffer.from(JSON.stringify(document)), contentType: 'application/json;charset=UTF-8' };
}
