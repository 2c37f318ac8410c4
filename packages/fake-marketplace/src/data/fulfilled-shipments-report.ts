import { isoUtc } from './orders-report.ts';
import { ordersBetween, type Order } from './orders.ts';
import { Rng } from './random.ts';
import { localDate, type FakeSeller } from './sellers.ts';
import { encodeText, money, toTsv } from './text.ts';
import type { FakeDocument } from './types.ts';

const DAY = 86_400_000;
const HEADER = [
  'amazon-order-id',
  'merchant-order-id',
  'shipment-id',
  'shipment-item-id',
  'amazon-order-item-id',
  'merchant-order-item-id',
  'purchase-date',
  'payments-date',
  'shipment-date',
  'reporting-date',
  'buyer-email',
  'buyer-name',
  'buyer-phone-number',
  'sku',
  'product-name',
  'quantity-shipped',
  'currency',
  'item-price',
  'item-tax',
  'shipping-price',
  'shipping-tax',
  'gift-wrap-price',
  'gift-wrap-tax',
  'ship-service-level',
  'recipient-name',
  'ship-address-1',
  'ship-address-2',
  'ship-address-3',
  'ship-city',
  'ship-state',
  'ship-postal-code',
  'ship-country',
  'ship-phone-number',
  'bill-address-1',
  'bill-address-2',
  'bill-address-3',
  'bill-city',
  'bill-state',
  'bill-postal-code',
  'bill-country',
  'item-promotion-discount',
  'ship-promotion-discount',
  'carrier',
  'tracking-number',
  'estimated-arrival-date',
  'fulfillment-center-id',
  'fulfillment-channel',
  'sales-channel',
] as const;

// Invented people and streets: no real person's data.
const NAMES = {
  US: ['Maria Lopez', 'James Carter', 'Linda Nguyen', 'Robert Miller', 'Emily Brooks', 'Daniel Kim'],
  DE: ['Anna Müller', 'Jonas Schmidt', 'Lea Fischer', 'Felix Weber', 'Marie Becker', 'Paul Wagner'],
};
const STREETS = {
  US: ['742 Evergreen Ter', '1200 Pine St', '88 Harbor Way', '19 Elm Ave'],
  DE: ['Hauptstraße 12', 'Lindenweg 4', 'Am Markt 7', 'Bahnhofstraße 31'],
};

/**
 * The shipment lines of an FBA order once shipped: one per shipped line, with buyer and address as the report holds
 * them.
 */
function shipmentRows(seller: FakeSeller, o: Order): Record<string, string>[] {
  const rng = new Rng([seller.seed, 'shipment', o.id]);
  const country = seller.countryCode;
  const name = rng.pick(NAMES[country]);
  const shipmentId = `D${rng.id(9)}`;
  const domain = seller.salesChannel.toLowerCase();
  const email = `${rng.id(16, '0123456789abcdef')}@marketplace.${domain}`;
  const street = rng.pick(STREETS[country]);
  return o.lines.flatMap((l, i) => {
    if (i === o.partialCancelLine) return [];
    const tax = l.tax ?? Math.round((l.item * 19) / 119);
    return [
      {
        'amazon-order-id': o.id,
        'merchant-order-id': o.merchantOrderId,
        'shipment-id': shipmentId,
        'shipment-item-id': `D${rng.id(9)}`,
        'amazon-order-item-id': rng.digits(14),
        'merchant-order-item-id': '',
        'purchase-date': isoUtc(o.purchase),
        'payments-date': isoUtc(o.purchase),
        'shipment-date': isoUtc(o.shippedAt),
        'reporting-date': isoUtc(o.shippedAt + 2 * 3_600_000),
        'buyer-email': email,
        'buyer-name': name,
        'buyer-phone-number': '',
        sku: l.product.sku,
        'product-name': l.name,
        'quantity-shipped': String(l.qty),
        currency: seller.currency,
        'item-price': o.mcf ? '' : money(l.item),
        'item-tax': o.mcf ? '' : money(tax),
        'shipping-price': money(l.ship),
        'shipping-tax': money(l.shipTax),
        'gift-wrap-price': money(l.gift),
        'gift-wrap-tax': money(l.giftTax),
        'ship-service-level': o.shipLevel,
        'recipient-name': name,
        'ship-address-1': street,
        'ship-address-2': '',
        'ship-address-3': '',
        'ship-city': o.city,
        'ship-state': o.state,
        'ship-postal-code': o.zip,
        'ship-country': country,
        'ship-phone-number': '',
        'bill-address-1': '',
        'bill-address-2': '',
        'bill-address-3': '',
        'bill-city': '',
        'bill-state': '',
        'bill-postal-code': '',
        'bill-country': '',
        'item-promotion-discount': money(Math.abs(l.itemPromo)),
        'ship-promotion-discount': money(Math.abs(l.shipPromo)),
        carrier: country === 'US' ? 'AMZN_US' : 'DHL',
        'tracking-number': country === 'US' ? `TBA${rng.digits(12)}` : rng.digits(20),
        'estimated-arrival-date': isoUtc(o.shippedAt + 3 * DAY),
        'fulfillment-center-id': rng.pick(
          country === 'US' ? ['PHX6', 'ONT8', 'BFI4', 'MDW2'] : ['LEJ1', 'FRA7', 'MUC3'],
        ),
        'fulfillment-channel': 'AFN',
        'sales-channel': o.mcf ? 'Non-Amazon' : seller.salesChannel,
      },
    ];
  });
}

/**
 * GET_AMAZON_FULFILLED_SHIPMENTS_DATA_GENERAL: the FBA shipment lines shipped in [start, end], known at `asOf` (a line
 * shows a couple of hours after it ships); null without FBA or shipments.
 */
export function fulfilledShipmentsReport(
  seller: FakeSeller,
  start: number,
  end: number,
  asOf: number,
): FakeDocument | null {
  if (!seller.fba) return null;
  const orders = ordersBetween(
    seller,
    localDate(start - 5 * DAY, seller.timezone),
    localDate(Math.min(end, asOf), seller.timezone),
  )
    .filter(
      (o) =>
        o.channel === 'Amazon' &&
        o.cancelAt === null &&
        o.shippedAt >= start &&
        o.shippedAt <= end &&
        o.shippedAt + 2 * 3_600_000 <= asOf,
    )
    .sort((a, b) => a.shippedAt - b.shippedAt || (a.id < b.id ? -1 : 1));
  if (orders.length === 0) return null;
  return {
    body: encodeText(
      toTsv(
        HEADER,
        orders.flatMap((o) => shipmentRows(seller, o)),
      ),
      seller.charset,
    ),
    contentType: `text/plain;charset=${seller.charset}`,
  };
}
