import { fbaFeeCents, isOversize } from '../data/catalog.ts';
import { listings, type Listing } from '../data/listings.ts';
import { Rng } from '../data/random.ts';
import type { FakeSeller } from '../data/sellers.ts';
import { invalidInput, SpError } from './sp-error.ts';
import type { SpContext } from './sp-routes.ts';

/**
 * The fake's multi-channel fulfillment orders (Fulfillment Outbound API 2020-07-01,
 * models/fulfillment-outbound-api-model/fulfillmentOutbound_2020-07-01.json): what a created order holds, how its
 * status moves on with the clock, and the checks its requests share (addresses, FBA SKUs).
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
export const SPEEDS = ['Standard', 'Expedited', 'Priority', 'ScheduledDelivery'] as const;
/**
 * Days in transit after the shipment leaves the fulfillment center (ScheduledDelivery: JP only, never offered here).
 */
const TRANSIT_DAYS: Record<string, number> = { Standard: 4, Expedited: 2, Priority: 1 };
/** MCF per-unit fee: the FBA fulfillment fee times a factor by shipping speed. */
const FEE_FACTOR: Record<string, number> = { Standard: 1.6, Expedited: 2.2, Priority: 3.4 };

export interface McfItem {
  sellerSku: string;
  sellerFulfillmentOrderItemId: string;
  quantity: number;
  fulfillmentNetworkSku: string;
  giftMessage?: string;
  displayableComment?: string;
  perUnitDeclaredValue?: unknown;
}

export interface McfReturn {
  sellerReturnItemId: string;
  sellerFulfillmentOrderItemId: string;
  amazonShipmentId: string;
  sellerReturnReasonCode: string;
  returnComment?: string;
  status: 'New';
  statusChangedDate: string;
  returnAuthorizationId: string;
}

/**
 * A stored fulfillment order: the request's fields, and when it was received, began to ship (null: on Hold) or was
 * cancelled.
 */
export interface McfOrder {
  sellerFulfillmentOrderId: string;
  marketplaceId: string;
  displayableOrderId: string;
  displayableOrderDate: string;
  displayableOrderComment: string;
  shippingSpeedCategory: string;
  destinationAddress: Record<string, string>;
  fulfillmentAction: 'Ship' | 'Hold';
  fulfillmentPolicy: string;
  notificationEmails?: string[];
  featureConstraints?: unknown[];
  items: McfItem[];
  receivedAt: number;
  shipFrom: number | null;
  cancelledAt: number | null;
  amazonShipmentId: string;
  returns: McfReturn[];
  authorization: Record<string, unknown> | null;
}

export const iso = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * Received, then Planning after an hour, Processing after four, Complete (shipped) after a day; a Hold order stays
 * Received.
 */
export function statusAt(order: McfOrder, at: number): { status: string; since: number } {
  if (order.cancelledAt !== null) return { status: 'Cancelled', since: order.cancelledAt };
  const t0 = order.shipFrom;
  if (t0 === null || at < t0 + HOUR) return { status: 'Received', since: order.receivedAt };
  if (at < t0 + 4 * HOUR) return { status: 'Planning', since: t0 + HOUR };
  if (at < t0 + DAY) return { status: 'Processing', since: t0 + 4 * HOUR };
  return { status: 'Complete', since: t0 + DAY };
}

/** When the order's shipment leaves (or left) the fulfillment center, and when it arrives. */
export function shipDates(speed: string, from: number): { ship: number; arrival: number } {
  const ship = from + DAY;
  return { ship, arrival: ship + (TRANSIT_DAYS[speed] ?? 4) * DAY };
}

/** The seller's FBA listing of a SKU (an MCF order can only ship those), or undefined. */
export function fbaListing(seller: FakeSeller, sku: unknown, at: number): Listing | undefined {
  if (!seller.fba || typeof sku !== 'string') return undefined;
  return listings(seller, at).find((l) => l.sku === sku && !l.merchantFulfilled);
}

/** The MCF per-unit fee of a listing at a shipping speed, in the seller's currency (cents). */
export const mcfFeeCents = (seller: FakeSeller, listing: Listing, speed: string): number =>
  Math.round(fbaFeeCents(listing.product, seller.currency) * (FEE_FACTOR[speed] ?? 1.6));

export const oversize = (listing: Listing): boolean => isOversize(listing.product);

/** A request body as an object (fields are checked one by one). */
export type Body = Record<string, unknown>;
/** The request's body, or an empty one when it is not an object. */
export const bodyOf = (ctx: SpContext): Body =>
  typeof ctx.body === 'object' && ctx.body !== null ? (ctx.body as Body) : {};

/** A required string of a request, at most `max` characters, or 400 InvalidInput naming it. */
export function requiredString(value: unknown, name: string, max = 1000): string {
  if (typeof value !== 'string' || value.trim() === '') throw invalidInput(`${name} is required.`);
  if (value.length > max) throw invalidInput(`${name} must be at most ${max} characters.`);
  return value;
}

/**
 * An Address: name, addressLine1, city, stateOrRegion, postalCode and countryCode (ISO 3166-1 alpha-2), a US ZIP code
 * in the US.
 */
export function checkAddress(value: unknown, name: string): Record<string, string> {
  if (typeof value !== 'object' || value === null) throw invalidInput(`${name} is required.`);
  const address = value as Record<string, unknown>;
  for (const field of ['name', 'addressLine1', 'city', 'stateOrRegion', 'postalCode', 'countryCode'])
    requiredString(address[field], `${name}.${field}`, 200);
  if (!/^[A-Z]{2}$/.test(String(address.countryCode)))
    throw invalidInput(`${name}.countryCode must be an ISO 3166-1 alpha-2 code.`);
  if (address.countryCode === 'US' && !/^\d{5}(-\d{4})?$/.test(String(address.postalCode)))
    throw invalidInput(`${name}.postalCode is not a valid US ZIP code.`);
  return Object.fromEntries(Object.entries(address).filter(([, v]) => typeof v === 'string')) as Record<string, string>;
}

/** One of the model's enum values, or 400 InvalidInput. */
export function oneOf<T extends string>(value: unknown, values: readonly T[], name: string): T {
  if (!values.includes(value as T)) throw invalidInput(`${name} must be one of ${values.join(', ')}.`);
  return value as T;
}

/** The order of a path's sellerFulfillmentOrderId, or the model's 404. */
export function findOrder(orders: Map<string, McfOrder>, id: string): McfOrder {
  const order = orders.get(id);
  if (!order) throw new SpError(404, 'NotFound', `Requested order ${id} not found.`);
  return order;
}

const seedAddress = (seller: FakeSeller): Record<string, string> => {
  const place = seller.places[0]!;
  return seller.countryCode === 'US'
    ? {
        name: 'Jordan Miller',
        addressLine1: '1200 Harbor Blvd',
        city: place.city,
        stateOrRegion: place.state,
        postalCode: place.zip,
        countryCode: 'US',
        phone: '+1 213 555 0142',
      }
    : {
        name: 'Lena Fischer',
        addressLine1: 'Hauptstraße 12',
        city: place.city,
        stateOrRegion: place.state,
        postalCode: place.zip,
        countryCode: seller.countryCode,
      };
};

/** A fulfillment order the fake starts with (for the demo's examples), placed `ago` before `at`. */
function seedOrder(
  seller: FakeSeller,
  id: string,
  at: number,
  ago: number,
  action: 'Ship' | 'Hold',
  lines: [string, number][],
): McfOrder {
  const receivedAt = at - ago;
  return {
    sellerFulfillmentOrderId: id,
    marketplaceId: seller.marketplaceId,
    displayableOrderId: id,
    displayableOrderDate: iso(receivedAt - 5 * 60_000),
    displayableOrderComment: 'Thank you for your order!',
    shippingSpeedCategory: 'Standard',
    destinationAddress: seedAddress(seller),
    fulfillmentAction: action,
    fulfillmentPolicy: 'FillOrKill',
    receivedAt,
    shipFrom: action === 'Ship' ? receivedAt : null,
    cancelledAt: null,
    items: lines.map(([sku, quantity], i) => ({
      sellerSku: sku,
      sellerFulfillmentOrderItemId: `${id}-${i + 1}`,
      quantity,
      fulfillmentNetworkSku: fbaListing(seller, sku, at)?.fnsku ?? sku,
    })),
    amazonShipmentId: shipmentId(seller, id),
    returns: [],
    authorization: null,
  };
}

/** A realistic Amazon shipment id (9 characters), fixed per order; the demo's shipped order has `DbW3pLq7N`. */
export const shipmentId = (seller: FakeSeller, id: string): string =>
  id === 'MCF-DEMO-0001' ? 'DbW3pLq7N' : `D${new Rng([seller.sellerId, id, 'shipment']).id(7)}N`;

/**
 * The orders an FBA seller starts with: MCF-DEMO-0001 shipped ten days ago (two daypacks and a headlamp, the
 * returns example's order), MCF-DEMO-0002 and MCF-DEMO-0003 on Hold (the update and cancel examples' orders).
 */
export function seedOrders(seller: FakeSeller, at: number): McfOrder[] {
  if (!seller.fba) return [];
  return [
    seedOrder(seller, 'MCF-DEMO-0001', at, 10 * DAY, 'Ship', [
      ['ACM-PACK-DAY-BLK', 2],
      ['ACM-LAMP-HEAD-300', 1],
    ]),
    seedOrder(seller, 'MCF-DEMO-0002', at, DAY, 'Hold', [['ACM-BOTTLE-1L-WHT', 1]]),
    seedOrder(seller, 'MCF-DEMO-0003', at, DAY, 'Hold', [['ACM-BOTTLE-1L-WHT', 2]]),
  ];
}

/** getFulfillmentOrder's payload: the order as of `at`, its items, its shipment once Processing, its returns. */
export function orderView(order: McfOrder, at: number) {
  const { status, since } = statusAt(order, at);
  const { ship, arrival } = shipDates(order.shippingSpeedCategory, order.shipFrom ?? at);
  const cancelled = status === 'Cancelled';
  const shipped = status === 'Complete';
  const fulfillmentOrder = {
    sellerFulfillmentOrderId: order.sellerFulfillmentOrderId,
    marketplaceId: order.marketplaceId,
    displayableOrderId: order.displayableOrderId,
    displayableOrderDate: order.displayableOrderDate,
    displayableOrderComment: order.displayableOrderComment,
    shippingSpeedCategory: order.shippingSpeedCategory,
    destinationAddress: order.destinationAddress,
    fulfillmentAction: order.fulfillmentAction,
    fulfillmentPolicy: order.fulfillmentPolicy,
    receivedDate: iso(order.receivedAt),
    fulfillmentOrderStatus: status,
    statusUpdatedDate: iso(since),
    ...(order.notificationEmails ? { notificationEmails: order.notificationEmails } : {}),
    ...(order.featureConstraints ? { featureConstraints: order.featureConstraints } : {}),
  };
  const fulfillmentOrderItems = order.items.map((item) => ({
    ...item,
    orderItemDisposition: 'Sellable',
    cancelledQuantity: cancelled ? item.quantity : 0,
    unfulfillableQuantity: 0,
    ...(cancelled || order.shipFrom === null
      ? {}
      : { estimatedShipDate: iso(ship), estimatedArrivalDate: iso(arrival) }),
  }));
  const fulfillmentShipments =
    status === 'Processing' || shipped
      ? [
          {
            amazonShipmentId: order.amazonShipmentId,
            fulfillmentCenterId: order.marketplaceId === 'ATVPDKIKX0DER' ? 'ONT8' : 'LEJ1',
            fulfillmentShipmentStatus: shipped ? 'SHIPPED' : 'PENDING',
            shippingDate: iso(ship),
            estimatedArrivalDate: iso(arrival),
            fulfillmentShipmentItem: order.items.map((i) => ({
              sellerSku: i.sellerSku,
              sellerFulfillmentOrderItemId: i.sellerFulfillmentOrderItemId,
              quantity: i.quantity,
              packageNumber: 1,
            })),
            ...(shipped
              ? {
                  fulfillmentShipmentPackage: [
                    {
                      packageNumber: 1,
                      carrierCode: 'UPS',
                      trackingNumber: `1Z${new Rng([order.amazonShipmentId, 'tracking']).id(16)}`,
                      estimatedArrivalDate: iso(arrival),
                    },
                  ],
                }
              : {}),
          },
        ]
      : [];
  return {
    fulfillmentOrder,
    fulfillmentOrderItems,
    fulfillmentShipments,
    returnItems: order.returns,
    returnAuthorizations: order.authorization ? [order.authorization] : [],
  };
}
