import { ASINS } from './catalog.ts';
import { ordersBetween, type Order } from './orders.ts';
import { localDate, type FakeSeller } from './sellers.ts';
import { encodeText, money, toTsv } from './text.ts';
import type { FakeDocument } from './types.ts';

/** One state of an order as a report generated at some instant shows it. */
export interface Version {
  status: 'Shipped' | 'Pending' | 'Unshipped' | 'Cancelled' | 'Shipping';
  updated: number;
  itemStatus: string[];
  showPrices: boolean[];
}

/** The order as of `asOf`: pending, unshipped, partly shipped, shipped (a line maybe cancelled) or cancelled. */
export function orderVersionAt(o: Order, asOf: number): Version {
  const all = <T>(v: T): T[] => o.lines.map(() => v);
  const pending = (): Version => ({
    status: 'Pending',
    updated: o.purchase + Math.min(o.pendingUntil - o.purchase, 2 * 60_000),
    itemStatus: all(o.emptyPendingStatus ? '' : 'Unshipped'),
    showPrices: all(false),
  });
  if (o.cancelAt !== null && asOf >= o.cancelAt)
    return { status: 'Cancelled', updated: o.cancelAt, itemStatus: all('Cancelled'), showPrices: all(false) };
  if (asOf < o.pendingUntil) return pending();
  if (asOf >= o.shippedAt && o.cancelAt === null) {
    const itemStatus = all('Shipped');
    const showPrices = all(!o.mcf);
    if (o.partialCancelLine >= 0) {
      itemStatus[o.partialCancelLine] = 'Cancelled';
      showPrices[o.partialCancelLine] = false;
    }
    return { status: 'Shipped', updated: o.shippedAt, itemStatus, showPrices };
  }
  if (o.partialShipAt !== null && asOf >= o.partialShipAt) {
    const itemStatus = all('Unshipped');
    itemStatus[0] = 'Shipped';
    return { status: 'Shipping', updated: o.partialShipAt, itemStatus, showPrices: all(!o.mcf) };
  }
  return { status: 'Unshipped', updated: o.pendingUntil, itemStatus: all('Unshipped'), showPrices: all(!o.mcf) };
}

const US_HEADER = [
  'amazon-order-id',
  'merchant-order-id',
  'purchase-date',
  'last-updated-date',
  'order-status',
  'fulfillment-channel',
  'sales-channel',
  'order-channel',
  'ship-service-level',
  'product-name',
  'sku',
  'asin',
  'item-status',
  'quantity',
  'currency',
  'item-price',
  'item-tax',
  'shipping-price',
  'shipping-tax',
  'gift-wrap-price',
  'gift-wrap-tax',
  'item-promotion-discount',
  'ship-promotion-discount',
  'ship-city',
  'ship-state',
  'ship-postal-code',
  'ship-country',
  'promotion-ids',
  'cpf',
  'is-business-order',
  'purchase-order-number',
  'price-designation',
] as const;
/** The localized (DE) header: quantity-purchased, no cpf, a legacy url column at the end. */
const DE_HEADER = [
  ...US_HEADER.filter((c) => c !== 'cpf').map((c) => (c === 'quantity' ? 'quantity-purchased' : c)),
  'url',
];

/** `2026-08-14T23:41:07+00:00` */
export const isoUtc = (ms: number): string => `${new Date(ms).toISOString().slice(0, 19)}+00:00`;

/** The report lines of an order in one version. */
function rowsFor(seller: FakeSeller, o: Order, v: Version): Record<string, string>[] {
  return o.lines.map((l, i) => {
    const show = v.showPrices[i]!;
    const p = (cents: number) => (show ? money(cents) : '');
    return {
      'amazon-order-id': o.id,
      'merchant-order-id': o.merchantOrderId,
      'purchase-date': isoUtc(o.purchase),
      'last-updated-date': isoUtc(v.updated),
      'order-status': v.status,
      'fulfillment-channel': o.channel,
      'sales-channel': o.mcf ? 'Non-Amazon' : seller.salesChannel,
      'order-channel': '',
      'ship-service-level': o.shipLevel,
      'product-name': l.name,
      sku: l.product.sku,
      asin: ASINS.get(l.product.sku)!,
      'item-status': v.itemStatus[i]!,
      quantity: String(l.qty),
      'quantity-purchased': String(l.qty),
      currency: seller.currency,
      'item-price': p(l.item),
      'item-tax': show && l.tax !== null ? money(l.tax) : '',
      'shipping-price': p(l.ship),
      'shipping-tax': p(l.shipTax),
      'gift-wrap-price': p(l.gift),
      'gift-wrap-tax': p(l.giftTax),
      'item-promotion-discount': p(l.itemPromo),
      'ship-promotion-discount': p(l.shipPromo),
      'ship-city': o.city,
      'ship-state': o.state,
      'ship-postal-code': o.zip,
      'ship-country': seller.countryCode,
      'promotion-ids': l.promoIds.join(','),
      cpf: '',
      'is-business-order': o.business ? 'true' : 'false',
      'purchase-order-number': o.po,
      'price-designation': o.business ? 'BusinessPrice' : '',
      url: '',
    };
  });
}

/**
 * GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL: the lines of orders purchased in [start, end] and visible at
 * `asOf` (each appears up to 30 minutes after purchase), each at its state as of `asOf`; null when there is none.
 */
export function ordersReport(seller: FakeSeller, start: number, end: number, asOf: number): FakeDocument | null {
  const until = Math.min(end, asOf);
  const orders = ordersBetween(seller, localDate(start, seller.timezone), localDate(until, seller.timezone)).filter(
    (o) => o.purchase >= start && o.purchase <= until && o.purchase + o.lag <= asOf,
  );
  if (orders.length === 0) return null;
  const rows = orders.flatMap((o) => rowsFor(seller, o, orderVersionAt(o, asOf)));
  const text = toTsv(seller.countryCode === 'DE' ? DE_HEADER : US_HEADER, rows);
  return { body: encodeText(text, seller.charset), contentType: `text/plain;charset=${seller.charset}` };
}
