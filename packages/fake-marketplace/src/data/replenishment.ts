import { ASINS, listedIn, unitCents } from './catalog.ts';
import { Rng } from './random.ts';
import { addDays, localDate, type FakeSeller } from './sellers.ts';

/** Subscribe and Save products: the consumables of the catalog. */
const SUBSCRIBABLE = [
  'ACM-STOVE-CAN',
  'ACM-SOCK-MER-3PK',
  'ACM-FILTER-SQZ',
  'ACM-FIRST-AID',
  'ACM-STAKE-ALU-10',
  'ACM-BOTTLE-2PK',
];
const offersOf = (seller: FakeSeller) => listedIn(seller.currency).filter((p) => SUBSCRIBABLE.includes(p.sku));

/** The days of a request's `timeInterval` that have ended at `asOf`, from the seller's opening. */
function daysOf(seller: FakeSeller, body: Record<string, unknown>, asOf: number): string[] {
  const interval = ((body.filters as Record<string, unknown> | undefined)?.timeInterval ?? body.timeInterval) as {
    startDate: string;
    endDate: string;
  };
  const last = addDays(localDate(asOf, seller.timezone), -1);
  const days: string[] = [];
  for (let d = interval.startDate.slice(0, 10); d <= interval.endDate.slice(0, 10) && d <= last; d = addDays(d, 1))
    if (d >= seller.openedOn) days.push(d);
  return days;
}

const dayInterval = (d: string) => ({ startDate: `${d}T00:00:00Z`, endDate: `${d}T00:00:00Z` });
const round = (x: number) => Math.round(x * 100) / 100;

/** One offer's day of subscriptions. */
function offerDay(seller: FakeSeller, sku: string, day: string) {
  const rng = new Rng([seller.seed, 'sns', sku, day]);
  const units = rng.int(0, 12);
  const price =
    unitCents(
      listedIn(seller.currency).find((p) => p.sku === sku)!,
      seller.currency,
    ) * 0.9;
  const oos = rng.chance(0.05) ? rng.int(1, 3) : 0;
  return {
    units,
    revenue: round((units * price) / 100),
    subscriptions: 200 + rng.int(0, 150),
    oos,
    lost: round((oos * price) / 100),
    penetration: round(10 + rng.float() * 30),
    coupons: round(rng.float() * 15),
    share: round(rng.float() * 20),
  };
}

/** getSellingPartnerMetrics: the seller's Subscribe and Save performance for each day of the interval. */
export function replenishmentMetrics(
  seller: FakeSeller,
  body: Record<string, unknown>,
  asOf: number,
): Record<string, unknown>[] {
  return daysOf(seller, body, asOf).map((day) => {
    const all = offersOf(seller).map((p) => offerDay(seller, p.sku, day));
    const sum = (f: (x: (typeof all)[number]) => number) => round(all.reduce((a, x) => a + f(x), 0));
    return {
      notDeliveredDueToOOS: sum((x) => x.oos),
      totalSubscriptionsRevenue: sum((x) => x.revenue),
      shippedSubscriptionUnits: sum((x) => x.units),
      activeSubscriptions: sum((x) => x.subscriptions),
      lostRevenueDueToOOS: sum((x) => x.lost),
      couponsRevenuePenetration: all.length ? round(sum((x) => x.coupons) / all.length) : 0,
      shareOfCouponSubscriptions: all.length ? round(sum((x) => x.share) / all.length) : 0,
      revenuePenetration: all.length ? round(sum((x) => x.penetration) / all.length) : 0,
      currencyCode: seller.currency,
      timeInterval: dayInterval(day),
    };
  });
}

/** listOfferMetrics: each offer's metrics for each day of the interval. */
export function replenishmentOfferMetrics(
  seller: FakeSeller,
  body: Record<string, unknown>,
  asOf: number,
): Record<string, unknown>[] {
  return daysOf(seller, body, asOf).flatMap((day) =>
    offersOf(seller).map((p) => {
      const x = offerDay(seller, p.sku, day);
      return {
        asin: ASINS.get(p.sku)!,
        sku: p.sku,
        fulfillmentChannelType: 'AMAZON',
        notDeliveredDueToOOS: x.oos,
        totalSubscriptionsRevenue: x.revenue,
        revenuePenetration: x.penetration,
        shippedSubscriptionUnits: x.units,
        activeSubscriptions: x.subscriptions,
        lostRevenueDueToOOS: x.lost,
        couponsRevenuePenetration: x.coupons,
        shareOfCouponSubscriptions: x.share,
        timeInterval: dayInterval(day),
        currencyCode: seller.currency,
      };
    }),
  );
}

/** listOffers: the seller's offers in the program, as of the day of `asOf`. */
export function replenishmentOffers(
  seller: FakeSeller,
  _body: Record<string, unknown>,
  asOf: number,
): Record<string, unknown>[] {
  const day = localDate(asOf, seller.timezone);
  if (day < seller.openedOn) return [];
  return offersOf(seller).map((p) => {
    const rng = new Rng([seller.seed, 'sns-offer', p.sku, day]);
    const next30 = rng.int(60, 160);
    return {
      asin: ASINS.get(p.sku)!,
      marketplaceId: seller.marketplaceId,
      sku: p.sku,
      eligibility: 'ELIGIBLE',
      offerProgramConfiguration: {
        preferences: { autoEnrollment: 'OPTED_IN' },
        promotions: {
          sellingPartnerFundedBaseDiscount: { percentage: 5 },
          sellingPartnerFundedTieredDiscount: { percentage: 5 },
          amazonFundedBaseDiscount: { percentage: 0 },
          amazonFundedTieredDiscount: { percentage: 0 },
        },
        enrollmentMethod: 'MANUAL',
      },
      programType: 'SUBSCRIBE_AND_SAVE',
      price: unitCents(p, seller.currency) / 100,
      priceCurrencyCode: seller.currency,
      inventory: rng.int(50, 500),
      stockRisk: rng.chance(0.8) ? 'LOW' : 'MEDIUM',
      deliveriesConditions: [{ condition: 'NO_ISSUES_FOR_NEXT_30_DAYS_DELIVERIES', next30DaysDeliveries: next30 }],
      subscriptions: 200 + rng.int(0, 150),
      fulfillmentNetworkIDType: 'AFN',
      forecastDeliveries: {
        next15DaysDeliveries: Math.round(next30 / 2),
        next30DaysDeliveries: next30,
        next60DaysDeliveries: next30 * 2 - rng.int(0, 10),
        next90DaysDeliveries: next30 * 3 - rng.int(0, 20),
      },
    };
  });
}
