import { ASINS, fnskuOf } from './catalog.ts';
import { isoUtc } from './orders-report.ts';
import { ordersBetween } from './orders.ts';
import { Rng } from './random.ts';
import { localDate, type FakeSeller } from './sellers.ts';
import { refundOf, settleOrder, type Refund } from './settlement-events.ts';
import { encodeText, toTsv } from './text.ts';
import type { FakeDocument } from './types.ts';

const DAY = 86_400_000;
const HEADER = [
  'return-date',
  'order-id',
  'sku',
  'asin',
  'fnsku',
  'product-name',
  'quantity',
  'fulfillment-center-id',
  'detailed-disposition',
  'reason',
  'status',
  'license-plate-number',
  'customer-comments',
] as const;
const DISPOSITIONS = [
  'SELLABLE',
  'DEFECTIVE',
  'SELLABLE',
  'CUSTOMER_DAMAGED',
  'SELLABLE',
  'CARRIER_DAMAGED',
  'SELLABLE',
  'DEFECTIVE',
] as const;
const REASONS: Record<string, readonly string[]> = {
  SELLABLE: [
    'UNWANTED_ITEM',
    'NOT_AS_DESCRIBED',
    'FOUND_BETTER_PRICE',
    'ORDERED_WRONG_ITEM',
    'MISSED_ESTIMATED_DELIVERY',
  ],
  DEFECTIVE: ['DEFECTIVE', 'QUALITY_UNACCEPTABLE'],
  CUSTOMER_DAMAGED: ['UNWANTED_ITEM', 'ORDERED_WRONG_ITEM'],
  CARRIER_DAMAGED: ['DAMAGED_BY_CARRIER'],
};
/** Optional buyer comments, by disposition (mostly empty). */
const COMMENTS: Record<'US' | 'DE', Record<string, readonly string[]>> = {
  US: {
    SELLABLE: ['', '', '', 'Did not need it after all', 'Color is not as pictured'],
    DEFECTIVE: ['', 'Zipper broke after the first trip', 'Stopped working after two nights'],
    CUSTOMER_DAMAGED: ['', 'Used once, not for me'],
    CARRIER_DAMAGED: ['Arrived with a dent', 'Box was crushed'],
  },
  DE: {
    SELLABLE: ['', '', '', 'Doch nicht benötigt', 'Farbe weicht ab'],
    DEFECTIVE: ['', 'Reißverschluss nach einer Tour defekt', 'Funktioniert nach zwei Nächten nicht mehr'],
    CUSTOMER_DAMAGED: ['', 'Einmal benutzt, passt nicht für „große“ Touren'],
    CARRIER_DAMAGED: ['Verpackung beschädigt – Ware zerkratzt', 'Karton eingedrückt'],
  },
};

/**
 * A returned unit of a refunded FBA line (four in five are sent back): when it reached the fulfillment center and how.
 */
export interface Return {
  refund: Refund;
  at: number;
  row: Record<string, string>;
}

/** The FBA returns of the orders purchased between two local dates. */
export function returnsOf(seller: FakeSeller, from: string, to: string): Return[] {
  const out: Return[] = [];
  for (const order of ordersBetween(seller, from, to)) {
    if (order.channel !== 'Amazon') continue;
    for (const settled of settleOrder(seller, order).settled) {
      const refund = refundOf(seller, settled);
      const rng = new Rng([seller.seed, 'return', order.id, settled.index]);
      if (!refund || !rng.chance(0.8)) continue;
      const disposition = rng.pick(DISPOSITIONS);
      const at = Math.max(order.purchase + 3 * DAY, refund.posted - rng.int(2 * 60, 30 * 60) * 60_000);
      const sku = settled.line.product.sku;
      out.push({
        refund,
        at,
        row: {
          'return-date': isoUtc(at),
          'order-id': order.id,
          sku,
          asin: ASINS.get(sku)!,
          fnsku: fnskuOf(sku),
          'product-name': settled.line.name,
          quantity: String(refund.qty),
          'fulfillment-center-id': rng.pick(
            seller.countryCode === 'US'
              ? ['PHX6', 'ONT8', 'SMF3', 'BFI4', 'MDW2', 'CLT2']
              : ['LEJ1', 'FRA7', 'MUC3', 'DTM2', 'BER3'],
          ),
          'detailed-disposition': disposition,
          reason: rng.pick(REASONS[disposition]!),
          status:
            disposition === 'CARRIER_DAMAGED'
              ? 'Reimbursed'
              : disposition === 'SELLABLE' && rng.chance(0.3)
                ? 'Repackaged Successfully'
                : 'Unit returned to inventory',
          'license-plate-number': `LPN${rng.id(2, 'ABCDEFGHJKLMNPQRSTUVWXYZ')}${rng.digits(9)}`,
          'customer-comments': rng.pick(COMMENTS[seller.countryCode][disposition]!),
        },
      });
    }
  }
  return out;
}

/**
 * GET_FBA_FULFILLMENT_CUSTOMER_RETURNS_DATA: returns dated in [start, end] and known at `asOf`; null without FBA or
 * returns.
 */
export function returnsReport(seller: FakeSeller, start: number, end: number, asOf: number): FakeDocument | null {
  if (!seller.fba) return null;
  const returns = returnsOf(
    seller,
    localDate(start - 20 * DAY, seller.timezone),
    localDate(Math.min(end, asOf), seller.timezone),
  )
    .filter((r) => r.at >= start && r.at <= end && r.at <= asOf)
    .sort((a, b) => a.at - b.at);
  if (returns.length === 0) return null;
  return {
    body: encodeText(
      toTsv(
        HEADER,
        returns.map((r) => r.row),
      ),
      seller.charset,
    ),
    contentType: `text/plain;charset=${seller.charset}`,
  };
}
