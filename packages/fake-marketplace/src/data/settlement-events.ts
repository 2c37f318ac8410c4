import { fbaFeeCents } from './catalog.ts';
import type { Line, Order } from './orders.ts';
import { Rng } from './random.ts';
import type { FakeSeller } from './sellers.ts';
import { money } from './text.ts';

const MIN = 60_000;
const DAY = 86_400_000;
const MIXED = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** One amount line of a settlement, with the columns it fills. */
export interface Amount {
  posted: number;
  /** Orders amounts within one posting time. */
  seq: string;
  cents: number;
  fields: Record<string, string>;
}

/** A settled order line: what its refund, if any, gives back (magnitudes in cents). */
export interface Settled {
  order: Order;
  line: Line;
  index: number;
  code: string;
  posted: number;
  principal: number;
  tax: number;
  ship: number;
  shipTax: number;
  itemPromo: number;
  shipPromo: number;
  commission: number;
  dst: number;
  chargeback: number;
}

/** A refund of a settled line: when it posts and how many units. */
export interface Refund {
  settled: Settled;
  qty: number;
  posted: number;
}

const pad = (n: number) => String(n).padStart(2, '0');
/** Settlement timestamps: `2026-08-14 05:23:19 UTC`, or day-first `14.08.2026 05:23:19 UTC` in DE files. */
export function settlementTime(ms: number, dayFirst: boolean): string {
  const d = new Date(ms);
  const time = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  return dayFirst
    ? `${pad(d.getUTCDate())}.${pad(d.getUTCMonth() + 1)}.${d.getUTCFullYear()} ${time} UTC`
    : `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${time} UTC`;
}
/** Amounts with two decimals; DE settlement files use a decimal comma. */
export const amountText = (cents: number, seller: FakeSeller): string =>
  seller.countryCode === 'DE' ? money(cents).replace('.', ',') : money(cents);
/** The posting columns of an amount line. */
export function postedFields(seller: FakeSeller, posted: number): Record<string, string> {
  const d = new Date(posted);
  return {
    'posted-date': `${pad(d.getUTCDate())}/${pad(d.getUTCMonth() + 1)}/${String(d.getUTCFullYear()).slice(2)}`,
    'posted-date-time': settlementTime(posted, seller.countryCode === 'DE'),
  };
}

/**
 * The settled lines of an order: every line shipped with prices (not cancelled, not multi-channel), posted 1–3 days
 * after purchase, with the charges and fees the settlement shows for it (US: pre-tax principal with marketplace
 * facilitator tax withheld; DE: VCS style, principal net of VAT).
 */
export function settleOrder(seller: FakeSeller, o: Order): { settled: Settled[]; amounts: Amount[] } {
  if (o.mcf || o.cancelAt !== null) return { settled: [], amounts: [] };
  const rng = new Rng([seller.seed, 'settle', o.id]);
  const isUs = seller.currency === 'USD';
  let delay = o.shippedAt - o.purchase + rng.int(60, 600) * MIN;
  delay = Math.min(Math.max(delay, DAY + rng.int(5, 300) * MIN), 3 * DAY - rng.int(5, 300) * MIN);
  const posted = o.purchase + delay + rng.int(0, 59) * 1000;
  const common = {
    'transaction-type': 'Order',
    'order-id': o.id,
    'merchant-order-id': o.merchantOrderId,
    'shipment-id': `D${rng.id(8, MIXED)}`,
    'marketplace-name': seller.salesChannel,
    'fulfillment-id': o.channel === 'Amazon' ? 'AFN' : 'MFN',
    ...postedFields(seller, posted),
  };
  const amounts: Amount[] = [];
  const settled: Settled[] = [];
  o.lines.forEach((l, index) => {
    if (index === o.partialCancelLine) return;
    const code = `${rng.int(1, 9)}${rng.digits(13)}`;
    const c = { ...common, 'order-item-code': code, sku: l.product.sku, 'quantity-purchased': String(l.qty) };
    const add = (type: string, description: string, cents: number, extra: Record<string, string> = {}) => {
      if (cents !== 0)
        amounts.push({
          posted,
          seq: `${o.id}/${index}/${amounts.length}`,
          cents,
          fields: { ...c, 'amount-type': type, 'amount-description': description, ...extra },
        });
    };
    const itemPromo = Math.abs(l.itemPromo);
    const shipPromo = Math.abs(l.shipPromo);
    const tax = isUs ? (l.tax ?? 0) : (l.tax ?? Math.round((l.item * 19) / 119));
    const principal = isUs ? l.item : l.item - tax;
    const ship = isUs ? l.ship : l.ship - l.shipTax;
    add('ItemPrice', 'Principal', principal);
    add('ItemPrice', 'Tax', tax);
    add('ItemPrice', 'Shipping', ship);
    add('ItemPrice', 'ShippingTax', l.shipTax);
    add('ItemPrice', 'GiftWrap', isUs ? l.gift : l.gift - l.giftTax);
    add('ItemPrice', 'GiftWrapTax', l.giftTax);
    if (isUs) {
      add('ItemWithheldTax', 'MarketplaceFacilitatorTax-Principal', -tax);
      add('ItemWithheldTax', 'MarketplaceFacilitatorTax-Shipping', -l.shipTax);
      add('ItemWithheldTax', 'MarketplaceFacilitatorTax-Other', -l.giftTax);
    }
    add('Promotion', 'Principal', -itemPromo, {
      'promotion-id': l.promoIds.find((id) => id !== seller.shipPromoId) ?? '',
    });
    add('Promotion', 'Shipping', -shipPromo, { 'promotion-id': seller.shipPromoId });
    // Referral fee: 15 % of what the buyer paid (pre-tax in the US, VAT included in DE), at least 0.30 per unit.
    const commission = Math.max(30 * l.qty, Math.round((l.item + l.ship + l.gift - itemPromo - shipPromo) * 0.15));
    add('ItemFees', 'Commission', -commission);
    const dst = Math.max(1, Math.round(commission * 0.03));
    add('ItemFees', 'DigitalServicesFee', -dst);
    let chargeback = 0;
    if (o.channel === 'Amazon') {
      add('ItemFees', 'FBAPerUnitFulfillmentFee', -fbaFeeCents(l.product, seller.currency) * l.qty);
      // FBA: the buyer's shipping charge (net of its promotion) goes back to Amazon.
      chargeback = Math.max(0, ship - (isUs ? shipPromo : Math.round((shipPromo * 100) / 119)));
      add('ItemFees', 'ShippingChargeback', -chargeback);
    }
    settled.push({
      order: o,
      line: l,
      index,
      code,
      posted,
      principal,
      tax,
      ship,
      shipTax: l.shipTax,
      itemPromo,
      shipPromo,
      commission,
      dst,
      chargeback,
    });
  });
  return { settled, amounts };
}

/** A settled line's refund, for about one line in forty: posted 5–18 days after purchase, sometimes partial. */
export function refundOf(seller: FakeSeller, s: Settled): Refund | null {
  const rng = new Rng([seller.seed, 'refund', s.order.id, s.index]);
  if (!rng.chance(0.026)) return null;
  const qty = s.line.qty > 1 && rng.chance(0.5) ? 1 : s.line.qty;
  const posted = Math.max(s.posted + DAY, s.order.purchase + rng.int(5, 18) * DAY + rng.int(0, 86_399) * 1000);
  return { settled: s, qty, posted };
}

/** The amount lines of a refund: what the sale gave, given back in proportion, and the refund commission. */
export function refundAmounts(seller: FakeSeller, r: Refund): Amount[] {
  const s = r.settled;
  const rng = new Rng([seller.seed, 'refund-ids', s.order.id, s.index]);
  const ratio = r.qty / s.line.qty;
  const part = (c: number) => Math.round(c * ratio);
  const c = {
    'transaction-type': 'Refund',
    'order-id': s.order.id,
    'merchant-order-id': s.order.merchantOrderId,
    'adjustment-id': `amzn1:crow:${rng.id(22, MIXED)}`,
    'marketplace-name': seller.salesChannel,
    'fulfillment-id': s.order.channel === 'Amazon' ? 'AFN' : 'MFN',
    ...postedFields(seller, r.posted),
    'order-item-code': s.code,
    'merchant-adjustment-item-id': rng.id(10, MIXED),
    sku: s.line.product.sku,
  };
  const amounts: Amount[] = [];
  const add = (type: string, description: string, cents: number, extra: Record<string, string> = {}) => {
    if (cents !== 0)
      amounts.push({
        posted: r.posted,
        seq: `${s.order.id}/${s.index}/r${amounts.length}`,
        cents,
        fields: { ...c, 'amount-type': type, 'amount-description': description, ...extra },
      });
  };
  const commission = part(s.commission);
  add('ItemPrice', 'Principal', -part(s.principal), { 'quantity-purchased': String(r.qty) });
  add('ItemPrice', 'Tax', -part(s.tax));
  add('ItemPrice', 'Shipping', -part(s.ship));
  add('ItemPrice', 'ShippingTax', -part(s.shipTax));
  if (seller.currency === 'USD') {
    add('ItemWithheldTax', 'MarketplaceFacilitatorTax-Principal', part(s.tax));
    add('ItemWithheldTax', 'MarketplaceFacilitatorTax-Shipping', part(s.shipTax));
  }
  add('ItemFees', 'Commission', commission);
  add('ItemFees', 'RefundCommission', -Math.min(500, Math.round(commission * 0.2)));
  add('ItemFees', 'DigitalServicesFee', part(s.dst));
  add('ItemFees', 'ShippingChargeback', part(s.chargeback));
  add('Promotion', 'Principal', part(s.itemPromo), {
    'promotion-id': s.line.promoIds.find((id) => id !== seller.shipPromoId) ?? '',
  });
  add('Promotion', 'Shipping', part(s.shipPromo), { 'promotion-id': seller.shipPromoId });
  return amounts;
}
