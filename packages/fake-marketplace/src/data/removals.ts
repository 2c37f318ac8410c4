import { fnskuOf, listedIn } from './catalog.ts';
import { isoUtc } from './orders-report.ts';
import { Rng } from './random.ts';
import { localMidnight, type FakeSeller } from './sellers.ts';
import { encodeText, money, toTsv } from './text.ts';
import type { FakeDocument } from './types.ts';

const DAY = 86_400_000;
const EVERY = 25 * DAY;
const ORDER_HEADER = [
  'request-date',
  'order-id',
  'order-source',
  'order-type',
  'service-speed',
  'order-status',
  'last-updated-date',
  'sku',
  'fnsku',
  'disposition',
  'requested-quantity',
  'cancelled-quantity',
  'disposed-quantity',
  'shipped-quantity',
  'in-process-quantity',
  'removal-fee',
  'currency',
] as const;
const SHIPMENT_HEADER = [
  'request-date',
  'order-id',
  'shipment-date',
  'sku',
  'fnsku',
  'disposition',
  'shipped-quantity',
  'carrier',
  'tracking-number',
  'removal-order-type',
] as const;

/** A removal order: requested every 25 days or so, its lines shipped a week later, completed a few days after. */
interface Removal {
  orderId: string;
  requested: number;
  completed: number;
  type: 'Return' | 'Disposal';
  lines: {
    sku: string;
    disposition: 'Sellable' | 'Unsellable';
    requested: number;
    cancelled: number;
    shipped: number;
    shippedAt: number;
    tracking: string;
  }[];
}

/** The removal orders requested from `from` to `to` (instants), none before the seller opened or without FBA. */
function removals(seller: FakeSeller, from: number, to: number): Removal[] {
  if (!seller.fba) return [];
  const opened = localMidnight(seller.openedOn, seller.timezone);
  const out: Removal[] = [];
  for (let k = Math.max(Math.floor((from - opened) / EVERY), 1); opened + k * EVERY <= to; k++) {
    const rng = new Rng([seller.seed, 'removal', k]);
    const requested = opened + k * EVERY + rng.int(8, 20) * 3_600_000;
    if (requested < from || requested > to) continue;
    const type = rng.chance(0.7) ? 'Return' : 'Disposal';
    const skus = [...new Set([rng.pick(listedIn(seller.currency)).sku, rng.pick(listedIn(seller.currency)).sku])];
    const lines = skus.flatMap((sku) =>
      (['Sellable', 'Unsellable'] as const)
        .filter(() => rng.chance(0.7))
        .map((disposition) => {
          const count = rng.int(1, 8);
          const cancelled = rng.chance(0.15) ? 1 : 0;
          return {
            sku,
            disposition,
            requested: count,
            cancelled,
            shipped: count - cancelled,
            shippedAt: requested + rng.int(5, 9) * DAY + rng.int(0, 86_399) * 1000,
            tracking: `1Z${rng.id(16)}`,
          };
        }),
    );
    if (lines.length === 0) continue;
    const completed = Math.max(...lines.map((l) => l.shippedAt)) + rng.int(1, 3) * DAY;
    out.push({
      orderId: `RMV-${seller.countryCode}-${new Date(requested).toISOString().slice(5, 10).replace('-', '')}-${rng.id(1, 'ABCDEFGH')}`,
      requested,
      completed,
      type,
      lines,
    });
  }
  return out;
}

const tsv = (seller: FakeSeller, header: readonly string[], rows: Record<string, string>[]): FakeDocument | null =>
  rows.length === 0
    ? null
    : { body: encodeText(toTsv(header, rows), seller.charset), contentType: `text/plain;charset=${seller.charset}` };

/**
 * GET_FBA_FULFILLMENT_REMOVAL_ORDER_DETAIL_DATA: removal order lines requested in [start, end], as they stand at
 * `asOf`.
 */
export function removalOrdersReport(seller: FakeSeller, start: number, end: number, asOf: number): FakeDocument | null {
  const rows = removals(seller, start, Math.min(end, asOf)).flatMap((r) =>
    r.lines.map((l) => {
      const done = asOf >= r.completed;
      const shipped = asOf >= l.shippedAt ? l.shipped : 0;
      const disposed = r.type === 'Disposal' ? shipped : 0;
      return {
        'request-date': isoUtc(r.requested),
        'order-id': r.orderId,
        'order-source': 'Seller-initiated Manual Removal',
        'order-type': r.type,
        'service-speed': 'Standard',
        'order-status': done ? 'Completed' : 'Pending',
        'last-updated-date': isoUtc(done ? r.completed : Math.max(r.requested, Math.min(asOf, l.shippedAt))),
        sku: l.sku,
        fnsku: fnskuOf(l.sku),
        disposition: l.disposition,
        'requested-quantity': String(l.requested),
        'cancelled-quantity': String(l.cancelled),
        'disposed-quantity': String(disposed),
        'shipped-quantity': String(r.type === 'Return' ? shipped : 0),
        'in-process-quantity': String(l.shipped - shipped),
        'removal-fee': money(l.requested * (seller.currency === 'USD' ? 115 : 95)),
        currency: seller.currency,
      };
    }),
  );
  return tsv(seller, ORDER_HEADER, rows);
}

/**
 * GET_FBA_FULFILLMENT_REMOVAL_SHIPMENT_DETAIL_DATA: the returns shipped in [start, end] and by `asOf` (no disposals).
 */
export function removalShipmentsReport(
  seller: FakeSeller,
  start: number,
  end: number,
  asOf: number,
): FakeDocument | null {
  const rows = removals(seller, start - 10 * DAY, Math.min(end, asOf))
    .filter((r) => r.type === 'Return')
    .flatMap((r) =>
      r.lines
        .filter((l) => l.shipped > 0 && l.shippedAt >= start && l.shippedAt <= end && l.shippedAt <= asOf)
        .map((l) => ({
          'request-date': isoUtc(r.requested),
          'order-id': r.orderId,
          'shipment-date': isoUtc(l.shippedAt),
          sku: l.sku,
          fnsku: fnskuOf(l.sku),
          disposition: l.disposition,
          'shipped-quantity': String(l.shipped),
          carrier: seller.countryCode === 'US' ? 'UPS' : 'DHL',
          'tracking-number': l.tracking,
          'removal-order-type': r.type,
        })),
    );
  return tsv(seller, SHIPMENT_HEADER, rows);
}
