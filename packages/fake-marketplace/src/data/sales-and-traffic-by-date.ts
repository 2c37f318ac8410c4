import { ASINS, listedIn, PARENT_ASINS } from './catalog.ts';
import { ordersBetween } from './orders.ts';
import { Rng } from './random.ts';
import { refundOf, settleOrder } from './settlement-events.ts';
import { addDays, localDate, type FakeSeller } from './sellers.ts';

/** What a date of the by-date block reports beyond the day's ordered lines, which only it carries (not by ASIN). */
export interface DayExtras {
  shippedCents: number;
  unitsShipped: number;
  ordersShipped: number;
  unitsRefunded: number;
  feedbackReceived: number;
  negativeFeedbackReceived: number;
  /** Offers and parent items listed: the fake lists its whole catalog every day. */
  averageOfferCount: number;
  averageParentItems: number;
}

/**
 * A local day's shipments (orders whose last line shipped that day, cancelled lines left out), refunds posted that
 * day, and feedback on a few of the day's shipped orders. Orders ship within four days of purchase and are refunded
 * 5 to 18 days after it (settlement-events.ts), so the orders of the 19 days before cover both.
 */
export function dayExtras(seller: FakeSeller, date: string): DayExtras {
  const day = { shippedCents: 0, unitsShipped: 0, ordersShipped: 0, unitsRefunded: 0 };
  for (const o of ordersBetween(seller, addDays(date, -19), date)) {
    if (o.mcf || o.cancelAt !== null) continue;
    if (localDate(o.shippedAt, seller.timezone) === date) {
      day.ordersShipped += 1;
      o.lines.forEach((l, i) => {
        if (i === o.partialCancelLine) return;
        day.unitsShipped += l.qty;
        day.shippedCents += l.item;
      });
    }
    for (const s of settleOrder(seller, o).settled) {
      const refund = refundOf(seller, s);
      if (refund && localDate(refund.posted, seller.timezone) === date) day.unitsRefunded += refund.qty;
    }
  }
  const rng = new Rng([seller.seed, 'feedback', date]);
  const feedbackReceived = Math.round(day.ordersShipped * (0.02 + rng.float() * 0.06));
  const listed = listedIn(seller.currency).map((p) => ASINS.get(p.sku)!);
  return {
    ...day,
    feedbackReceived,
    negativeFeedbackReceived: feedbackReceived > 0 && rng.chance(0.15) ? 1 : 0,
    averageOfferCount: listed.length,
    averageParentItems: new Set(listed.map((asin) => PARENT_ASINS.get(asin) ?? asin)).size,
  };
}
