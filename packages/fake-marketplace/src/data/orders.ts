import { listedIn, productName, unitCents } from './catalog.ts';
import type { Product } from './products.ts';
import { Rng } from './random.ts';
import { addDays, localMidnight, type FakeSeller } from './sellers.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

/** One line of an order, in cents. */
export interface Line {
  product: Product;
  name: string;
  qty: number;
  item: number;
  /** null: the report leaves item-tax empty (a DE quirk). */
  tax: number | null;
  ship: number;
  shipTax: number;
  gift: number;
  giftTax: number;
  itemPromo: number;
  shipPromo: number;
  promoIds: string[];
}

export type Channel = 'Amazon' | 'Merchant';

/** An order and its whole life: when it stops pending, ships, or is cancelled. */
export interface Order {
  id: string;
  merchantOrderId: string;
  purchase: number;
  localDate: string;
  channel: Channel;
  mcf: boolean;
  /** When the order is cancelled (before shipping), or null. */
  cancelAt: number | null;
  shipLevel: string;
  city: string;
  state: string;
  zip: string;
  business: boolean;
  po: string;
  lines: Line[];
  shippedAt: number;
  pendingUntil: number;
  /** A multi-line FBA order ships its first line first (status Shipping) at this time, or null. */
  partialShipAt: number | null;
  partialCancelLine: number;
  /** Pending lines show an empty item-status (else Unshipped). */
  emptyPendingStatus: boolean;
  /** How long after purchase the order appears in reports (up to 30 minutes). */
  lag: number;
}

/** Relative order volume by local hour of day (evening peak, quiet night). */
const LOCAL_HOUR_WEIGHTS = [
  1.3, 0.8, 0.45, 0.25, 0.2, 0.3, 0.6, 1.0, 1.4, 1.7, 1.9, 2.0, 2.1, 2.0, 1.9, 1.9, 2.0, 2.2, 2.5, 2.8, 3.0, 2.9, 2.4,
  1.9,
];
const HOURS = Array.from({ length: 24 }, (_, h) => h);

/** Deal days (a two-day event every 37 days) double the orders. */
export const isDealDay = (date: string): boolean => Math.floor(Date.parse(`${date}T00:00:00Z`) / DAY) % 37 < 2;

/** How many orders a day gets: weekends busier, slow growth since opening, deal days. */
function volume(seller: FakeSeller, date: string, rng: Rng): number {
  const dow = new Date(`${date}T00:00:00Z`).getUTCDay();
  const age = (Date.parse(`${date}T00:00:00Z`) - Date.parse(`${seller.openedOn}T00:00:00Z`)) / DAY;
  const base =
    seller.ordersPerDay *
    (dow === 0 || dow === 6 ? 1.2 : 1) *
    (1 + 0.3 * Math.min(1, age / 365)) *
    (isDealDay(date) ? 2.4 : 1);
  return Math.max(0, Math.round(base * (0.8 + rng.float() * 0.4)));
}

/**
 * The lines of an order: 1–3 distinct SKUs of its channel, prices, promotions and taxes as the marketplace reports
 * them.
 */
function linesOf(
  seller: FakeSeller,
  rng: Rng,
  o: { channel: Channel; shipLevel: string; business: boolean; taxRate: number; taxed: boolean },
): Line[] {
  const isUs = seller.currency === 'USD';
  const eligible = listedIn(seller.currency).filter((p) => p.only === undefined || p.only === o.channel);
  const count = rng.weighted([1, 2, 3], [72, 21, 7]);
  const chosen: Product[] = [];
  while (chosen.length < count) {
    const p = rng.weighted(
      eligible,
      eligible.map((x) => x.pop),
    );
    if (!chosen.includes(p)) chosen.push(p);
  }
  return chosen.map((p) => {
    const qty = rng.weighted([1, 2, 3, 4], [80, 13, 5, 2]);
    let unit = unitCents(p, seller.currency);
    if (o.business) unit = Math.round(unit * (isUs ? 0.95 : 0.97));
    const item = unit * qty;
    const promoIds: string[] = [];
    let ship = 0;
    if (o.channel === 'Amazon')
      ship =
        o.shipLevel === 'Expedited'
          ? isUs
            ? 899
            : 599
          : o.shipLevel === 'SecondDay'
            ? isUs
              ? 1299
              : 999
            : rng.chance(0.07)
              ? isUs
                ? 599
                : 399
              : 0;
    else ship = o.shipLevel === 'Standard' ? (rng.chance(0.5) ? (isUs ? 499 : 490) : 0) : isUs ? 999 : 690;
    let shipPromo = 0;
    if (ship > 0 && (o.shipLevel === 'Standard' ? rng.chance(0.75) : rng.chance(0.1))) {
      shipPromo = rng.chance(0.05) ? ship : -ship; // upstream sign varies
      promoIds.push(seller.shipPromoId);
    }
    let itemPromo = 0;
    if (rng.chance(0.12)) {
      itemPromo = -Math.round(item * rng.pick([0.1, 0.15, 0.2]));
      if (rng.chance(0.05)) itemPromo = -itemPromo;
      promoIds.unshift(rng.pick(seller.itemPromoIds));
    }
    const gift = rng.chance(0.012) ? (isUs ? 499 : 399) : 0;
    let tax: number | null;
    let shipTax: number;
    let giftTax: number;
    if (isUs) {
      tax =
        o.taxed && !o.business
          ? Math.round(item * o.taxRate)
          : o.taxed && rng.chance(0.5)
            ? Math.round(item * o.taxRate)
            : 0;
      shipTax = tax !== 0 ? Math.round(ship * o.taxRate) : 0;
      giftTax = tax !== 0 ? Math.round(gift * o.taxRate) : 0;
    } else {
      tax = rng.chance(0.006) ? null : Math.round((item * 19) / 119);
      shipTax = Math.round((ship * 19) / 119);
      giftTax = Math.round((gift * 19) / 119);
    }
    return {
      product: p,
      name: productName(p, seller.currency),
      qty,
      item,
      tax,
      ship,
      shipTax,
      gift,
      giftTax,
      itemPromo,
      shipPromo,
      promoIds,
    };
  });
}

/** One order of a day: every decision from the order's own stream, so its whole life is fixed at purchase. */
function orderOf(seller: FakeSeller, date: string, index: number, midnight: number): Order {
  const rng = new Rng([seller.seed, 'order', date, index]);
  const isUs = seller.currency === 'USD';
  const hour = rng.weighted(HOURS, LOCAL_HOUR_WEIGHTS);
  const purchase = midnight + hour * HOUR + rng.int(0, 59) * MIN + rng.int(0, 59) * 1000;
  const id = `${rng.pick(seller.orderPrefixes)}-${rng.digits(7)}-${rng.digits(7)}`;
  const mcf = rng.chance(0.015);
  const channel: Channel = mcf || rng.chance(0.8) ? 'Amazon' : 'Merchant';
  const shipLevel = rng.weighted(['Standard', 'Expedited', 'SecondDay'], [80, 12, 8]);
  const place = rng.weighted(
    seller.places,
    seller.places.map((p) => p.w),
  );
  const business = !mcf && rng.chance(0.1);
  let merchantOrderId = '';
  if (mcf) merchantOrderId = `SHOP-${seller.countryCode}-${rng.int(10000, 19999)}`;
  else if (channel === 'Merchant' && rng.chance(0.05)) merchantOrderId = `ACM-${rng.digits(6)}`;
  let { city, state, zip } = place;
  if (isUs) {
    if (rng.chance(0.25)) city = city.toUpperCase();
    if (rng.chance(0.1)) state = place.stateName!;
    if (rng.chance(0.3)) zip = `${zip}-${rng.digits(4)}`;
  } else if (rng.chance(0.3)) state = '';
  const lines = linesOf(seller, rng, {
    channel,
    shipLevel,
    business,
    taxRate: isUs ? place.tax! : 19 / 119,
    taxed: isUs ? place.tax! > 0 && rng.chance(0.78) : true,
  });
  const pendingFor = rng.int(20, 8 * 60) * MIN;
  const shipDelay = Math.max(
    pendingFor + 30 * MIN,
    channel === 'Amazon' ? rng.int(6 * 60, 54 * 60) * MIN : rng.int(14 * 60, 90 * 60) * MIN,
  );
  // Cancelled before shipping: by the buyer while pending, or later while unshipped.
  const cancelAt =
    !mcf && rng.chance(0.03)
      ? purchase +
        (rng.chance(0.6)
          ? rng.int(5, pendingFor / MIN - 1) * MIN
          : pendingFor + rng.int(30, Math.max(31, (shipDelay - pendingFor) / MIN - 1)) * MIN)
      : null;
  const partialShipAt =
    lines.length > 1 && channel === 'Amazon' && rng.chance(0.4)
      ? purchase + pendingFor + Math.round((shipDelay - pendingFor) / 2)
      : null;
  return {
    id,
    merchantOrderId,
    purchase,
    localDate: date,
    channel,
    mcf,
    cancelAt,
    shipLevel,
    city,
    state,
    zip,
    business,
    po: business ? `PO-${date.slice(0, 4)}-${rng.digits(4)}` : '',
    lines,
    shippedAt: purchase + shipDelay,
    pendingUntil: purchase + pendingFor,
    partialShipAt,
    partialCancelLine: lines.length > 1 && rng.chance(0.04) ? rng.int(0, lines.length - 1) : -1,
    emptyPendingStatus: rng.chance(0.4),
    lag: rng.int(0, 30) * MIN,
  };
}

const cache = new Map<string, Order[]>();

/** The orders purchased on a marketplace-local day (none before the seller opened), in purchase order. */
export function ordersOn(seller: FakeSeller, date: string): Order[] {
  if (date < seller.openedOn) return [];
  const key = `${seller.seed}/${seller.openedOn}/${seller.ordersPerDay}/${date}`;
  let orders = cache.get(key);
  if (!orders) {
    const midnight = localMidnight(date, seller.timezone);
    const n = volume(seller, date, new Rng([seller.seed, 'volume', date]));
    orders = Array.from({ length: n }, (_, i) => orderOf(seller, date, i, midnight)).sort(
      (a, b) => a.purchase - b.purchase || (a.id < b.id ? -1 : 1),
    );
    if (cache.size > 4000) cache.delete(cache.keys().next().value!);
    cache.set(key, orders);
  }
  return orders;
}

/** The orders purchased from `from` to `to` (local dates, inclusive). */
export function ordersBetween(seller: FakeSeller, from: string, to: string): Order[] {
  const out: Order[] = [];
  for (let d = from < seller.openedOn ? seller.openedOn : from; d <= to; d = addDays(d, 1))
    out.push(...ordersOn(seller, d));
  return out;
}
