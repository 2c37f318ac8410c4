import { accountAmounts } from './account-events.ts';
import { ordersBetween } from './orders.ts';
import { Rng } from './random.ts';
import { localDate, localMidnight, type FakeSeller } from './sellers.ts';
import {
  amountText,
  postedFields,
  refundAmounts,
  refundOf,
  settleOrder,
  settlementTime,
  type Amount,
} from './settlement-events.ts';
import { toTsv } from './text.ts';
import type { FakeDocument, FakeSettlement } from './types.ts';

const DAY = 86_400_000;
const PERIOD = 14 * DAY;

const HEADER = [
  'settlement-id',
  'settlement-start-date',
  'settlement-end-date',
  'deposit-date',
  'total-amount',
  'currency',
  'transaction-type',
  'order-id',
  'merchant-order-id',
  'adjustment-id',
  'shipment-id',
  'marketplace-name',
  'amount-type',
  'amount-description',
  'amount',
  'fulfillment-id',
  'posted-date',
  'posted-date-time',
  'order-item-code',
  'merchant-order-item-id',
  'merchant-adjustment-item-id',
  'sku',
  'quantity-purchased',
  'promotion-id',
] as const;

/** Settlement periods last 14 days from a fixed anchor (07:00 UTC in the US, midnight UTC in Germany). */
const anchor = (seller: FakeSeller) => Date.UTC(2026, 6, 28, seller.countryCode === 'US' ? 7 : 0);
const periodStart = (seller: FakeSeller, k: number) => anchor(seller) + k * PERIOD;

/** The reserve held back at the start of period k (released at the start of the next). */
const reserveOf = (seller: FakeSeller, k: number) =>
  Math.round(new Rng([seller.seed, 'reserve', k]).int(30000, 60000) * (seller.currency === 'USD' ? 1 : 0.8));

/** Every amount line posted in period k: orders, refunds, account lines, reserves, and now and then an unknown fee. */
function periodAmounts(seller: FakeSeller, k: number, opened: number): Amount[] {
  const start = periodStart(seller, k);
  const end = start + PERIOD;
  const inPeriod = (a: Amount) => a.posted >= start && a.posted < end;
  const amounts: Amount[] = [];
  const recent = ordersBetween(seller, localDate(start - 20 * DAY, seller.timezone), localDate(end, seller.timezone));
  for (const order of recent) {
    const { settled, amounts: charges } = settleOrder(seller, order);
    amounts.push(...charges.filter(inPeriod));
    for (const s of settled) {
      const refund = refundOf(seller, s);
      if (refund && refund.posted >= start && refund.posted < end) amounts.push(...refundAmounts(seller, refund));
    }
  }
  amounts.push(...accountAmounts(seller, start, end, opened));
  const rng = new Rng([seller.seed, 'period', k]);
  const opening = Math.max(start, opened) + rng.int(1, 30) * 60_000;
  const other = (posted: number, description: string, cents: number) =>
    amounts.push({
      posted,
      seq: `period/${description}`,
      cents,
      fields: {
        'transaction-type': 'other-transaction',
        'amount-type': 'other-transaction',
        'amount-description': description,
        ...postedFields(seller, posted),
      },
    });
  if (k > firstPeriod(seller, opened)) other(opening, 'Previous Reserve Amount Balance', reserveOf(seller, k - 1));
  other(opening, 'Current Reserve Amount', -reserveOf(seller, k));
  // Not in the amount map: falls to the catch-all (other_fee) and raises the build's warning.
  if (rng.chance(1 / 8)) other(opening + 3 * DAY, 'Vine Enrollment Fee', seller.currency === 'USD' ? -20000 : -15000);
  return amounts.sort((a, b) => a.posted - b.posted || (a.seq < b.seq ? -1 : 1));
}

const firstPeriod = (seller: FakeSeller, opened: number) => Math.floor((opened - anchor(seller)) / PERIOD);

/** The flat file of period k: the summary line (total, deposit date), then every amount line. */
function settlementDocument(seller: FakeSeller, k: number, id: string, opened: number): FakeDocument {
  const start = periodStart(seller, k);
  const end = start + PERIOD;
  const lines = periodAmounts(seller, k, opened);
  const total = lines.reduce((sum, a) => sum + a.cents, 0);
  const dayFirst = seller.countryCode === 'DE';
  const deposit = end + 2 * DAY + new Rng([seller.seed, 'deposit', k]).int(0, 360) * 60_000;
  const empty = Object.fromEntries(HEADER.map((h) => [h, ''])) as Record<string, string>;
  const rows = [
    {
      ...empty,
      'settlement-id': id,
      'settlement-start-date': settlementTime(start, dayFirst),
      'settlement-end-date': settlementTime(end, dayFirst),
      'deposit-date': settlementTime(deposit, dayFirst),
      'total-amount': amountText(total, seller),
      currency: seller.currency,
    },
    ...lines.map((a) => ({ ...empty, ...a.fields, 'settlement-id': id, amount: amountText(a.cents, seller) })),
  ];
  return { body: Buffer.from(toTsv(HEADER, rows), 'ascii'), contentType: 'text/plain;charset=UTF-8' };
}

/**
 * GET_V2_SETTLEMENT_REPORT_DATA_FLAT_FILE_V2: one report per 14-day period that ended after the seller opened and
 * was closed (a few hours after its end) by `asOf`, oldest first; documents generated when downloaded.
 */
export function settlements(seller: FakeSeller, asOf: number): FakeSettlement[] {
  const opened = localMidnight(seller.openedOn, seller.timezone);
  const out: FakeSettlement[] = [];
  for (let k = firstPeriod(seller, opened); ; k++) {
    const start = periodStart(seller, k);
    const end = start + PERIOD;
    const closedAt = end + new Rng([seller.seed, 'close', k]).int(2 * 60, 20 * 60) * 60_000;
    if (closedAt > asOf) break;
    const settlementId = `${seller.countryCode === 'US' ? '17' : '18'}${new Rng([seller.seed, 'settlement-id', k]).digits(9)}`;
    out.push({
      settlementId,
      start,
      end,
      closedAt,
      document: () => settlementDocument(seller, k, settlementId, opened),
    });
  }
  return out;
}
