import { mcfLookupRoutes } from './mcf-lookups.ts';
import {
  bodyOf,
  checkAddress,
  fbaListing,
  findOrder,
  oneOf,
  orderView,
  requiredString,
  seedOrders,
  shipmentId,
  statusAt,
  type Body,
  type McfItem,
  type McfOrder,
} from './mcf-orders.ts';
import { createReturn } from './mcf-returns.ts';
import { decodeToken, encodeToken } from './paging.ts';
import { invalidInput, SpError } from './sp-error.ts';
import type { SpContext, SpRoute } from './sp-routes.ts';

const BASE = '/fba/outbound/2020-07-01';
const PAGE = 50;

/** The items of a create request: 1 to 100 lines of the seller's FBA SKUs, unique item ids. */
function createItems(ctx: SpContext, value: unknown): McfItem[] {
  if (!Array.isArray(value) || value.length < 1 || value.length > 100)
    throw invalidInput('items must hold 1 to 100 items.');
  const ids = new Set<string>();
  return value.map((raw: Body) => {
    const id = requiredString(raw?.sellerFulfillmentOrderItemId, 'sellerFulfillmentOrderItemId', 50);
    if (ids.has(id)) throw invalidInput(`Duplicate sellerFulfillmentOrderItemId ${id}.`);
    ids.add(id);
    requiredString(raw.sellerSku, 'sellerSku', 50);
    if (!Number.isInteger(raw.quantity) || (raw.quantity as number) < 1)
      throw invalidInput(`quantity for Item Id: ${id} must be a positive integer.`);
    const listing = fbaListing(ctx.seller, raw.sellerSku, ctx.at);
    if (!listing) throw invalidInput(`the SellerSKU for Item Id: ${id} is invalid.`);
    const optional = Object.fromEntries(
      ['giftMessage', 'displayableComment', 'perUnitDeclaredValue']
        .filter((k) => raw[k] !== undefined)
        .map((k) => [k, raw[k]]),
    );
    return {
      sellerSku: listing.sku,
      sellerFulfillmentOrderItemId: id,
      quantity: raw.quantity as number,
      fulfillmentNetworkSku: listing.fnsku,
      ...optional,
    };
  });
}

/** The marketplaceId of a body, when given, must be the seller's. */
function checkMarketplace(ctx: SpContext, body: Body): void {
  if (body.marketplaceId !== undefined && body.marketplaceId !== ctx.seller.marketplaceId)
    throw invalidInput(`Invalid marketplaceId ${String(body.marketplaceId)}.`);
}

/**
 * createFulfillmentOrder: validates and stores the order (Received); the same id again is accepted only for the same
 * order.
 */
function createOrder(ctx: SpContext, orders: Map<string, McfOrder>) {
  const body = bodyOf(ctx);
  const id = requiredString(body.sellerFulfillmentOrderId, 'sellerFulfillmentOrderId', 40);
  const displayableOrderId = requiredString(body.displayableOrderId, 'displayableOrderId', 40);
  const displayableOrderDate = requiredString(body.displayableOrderDate, 'displayableOrderDate');
  if (Number.isNaN(Date.parse(displayableOrderDate)))
    throw invalidInput('displayableOrderDate must be an ISO 8601 date-time.');
  const comment = requiredString(body.displayableOrderComment, 'displayableOrderComment', 750);
  const speed = oneOf(
    body.shippingSpeedCategory,
    ['Standard', 'Expedited', 'Priority', 'ScheduledDelivery'],
    'shippingSpeedCategory',
  );
  const address = checkAddress(body.destinationAddress, 'destinationAddress');
  checkMarketplace(ctx, body);
  const action =
    body.fulfillmentAction === undefined
      ? 'Ship'
      : oneOf(body.fulfillmentAction, ['Ship', 'Hold'] as const, 'fulfillmentAction');
  const policy =
    body.fulfillmentPolicy === undefined
      ? 'FillOrKill'
      : oneOf(body.fulfillmentPolicy, ['FillOrKill', 'FillAll', 'FillAllAvailable'], 'fulfillmentPolicy');
  const items = createItems(ctx, body.items);
  const existing = orders.get(id);
  if (existing) {
    const same =
      JSON.stringify([existing.items, existing.destinationAddress, existing.shippingSpeedCategory]) ===
      JSON.stringify([items, address, speed]);
    if (!same) throw invalidInput(`A different fulfillment order with sellerFulfillmentOrderId ${id} already exists.`);
    return { status: 200, body: {} };
  }
  orders.set(id, {
    sellerFulfillmentOrderId: id,
    marketplaceId: ctx.seller.marketplaceId,
    displayableOrderId,
    displayableOrderDate,
    displayableOrderComment: comment,
    shippingSpeedCategory: speed,
    destinationAddress: address,
    fulfillmentAction: action,
    fulfillmentPolicy: policy,
    ...(Array.isArray(body.notificationEmails) ? { notificationEmails: body.notificationEmails as string[] } : {}),
    ...(Array.isArray(body.featureConstraints) ? { featureConstraints: body.featureConstraints } : {}),
    items,
    receivedAt: ctx.at,
    shipFrom: action === 'Ship' ? ctx.at : null,
    cancelledAt: null,
    amazonShipmentId: shipmentId(ctx.seller, id),
    returns: [],
    authorization: null,
  });
  return { status: 200, body: {} };
}

/** An order the seller may still change: Received or Planning (Processing has begun picking). */
function changeable(order: McfOrder, at: number, what: string): void {
  const { status } = statusAt(order, at);
  if (status !== 'Received' && status !== 'Planning')
    throw invalidInput(`The fulfillment order ${order.sellerFulfillmentOrderId} is ${status} and cannot be ${what}.`);
}

/** updateFulfillmentOrder: changes a Received or Planning order; Hold → Ship sends it to the fulfillment network. */
function updateOrder(ctx: SpContext, orders: Map<string, McfOrder>) {
  const order = findOrder(orders, ctx.params[0]!);
  changeable(order, ctx.at, 'updated');
  const body = bodyOf(ctx);
  checkMarketplace(ctx, body);
  const next: Partial<McfOrder> = {};
  if (body.displayableOrderId !== undefined)
    next.displayableOrderId = requiredString(body.displayableOrderId, 'displayableOrderId', 40);
  if (body.displayableOrderComment !== undefined)
    next.displayableOrderComment = requiredString(body.displayableOrderComment, 'displayableOrderComment', 750);
  if (body.shippingSpeedCategory !== undefined)
    next.shippingSpeedCategory = oneOf(
      body.shippingSpeedCategory,
      ['Standard', 'Expedited', 'Priority', 'ScheduledDelivery'],
      'shippingSpeedCategory',
    );
  if (body.destinationAddress !== undefined)
    next.destinationAddress = checkAddress(body.destinationAddress, 'destinationAddress');
  if (body.fulfillmentPolicy !== undefined)
    next.fulfillmentPolicy = oneOf(
      body.fulfillmentPolicy,
      ['FillOrKill', 'FillAll', 'FillAllAvailable'],
      'fulfillmentPolicy',
    );
  if (Array.isArray(body.notificationEmails)) next.notificationEmails = body.notificationEmails as string[];
  if (body.fulfillmentAction !== undefined)
    next.fulfillmentAction = oneOf(body.fulfillmentAction, ['Ship', 'Hold'] as const, 'fulfillmentAction');
  const quantities = new Map<string, number>();
  for (const raw of Array.isArray(body.items) ? (body.items as Body[]) : []) {
    const id = requiredString(raw?.sellerFulfillmentOrderItemId, 'sellerFulfillmentOrderItemId', 50);
    if (!order.items.some((i) => i.sellerFulfillmentOrderItemId === id))
      throw invalidInput(`Item Id: ${id} is not part of fulfillment order ${order.sellerFulfillmentOrderId}.`);
    if (!Number.isInteger(raw.quantity) || (raw.quantity as number) < 1)
      throw invalidInput(`quantity for Item Id: ${id} must be a positive integer.`);
    quantities.set(id, raw.quantity as number);
  }
  Object.assign(order, next);
  order.items = order.items.map((i) => ({
    ...i,
    quantity: quantities.get(i.sellerFulfillmentOrderItemId) ?? i.quantity,
  }));
  if (order.fulfillmentAction === 'Ship' && order.shipFrom === null) order.shipFrom = ctx.at;
  if (order.fulfillmentAction === 'Hold' && statusAt(order, ctx.at).status === 'Received') order.shipFrom = null;
  return { status: 200, body: {} };
}

/**
 * listAllFulfillmentOrders: the orders whose status changed at or after `queryStartDate` (36 hours back by default), 50
 * a page.
 */
function listOrders(ctx: SpContext, orders: Map<string, McfOrder>) {
  const scope = `mcf/${ctx.seller.sellerId}`;
  let offset = 0;
  let from = ctx.at - 36 * 3_600_000;
  if (ctx.query.nextToken !== undefined) {
    const token = decodeToken(ctx.query.nextToken, scope);
    if (!token) throw invalidInput('The nextToken is invalid.');
    ({ offset, issuedAt: from } = token);
  } else if (ctx.query.queryStartDate !== undefined) {
    from = Date.parse(ctx.query.queryStartDate);
    if (Number.isNaN(from)) throw invalidInput('queryStartDate must be an ISO 8601 date-time.');
  }
  const all = [...orders.values()]
    .filter((o) => statusAt(o, ctx.at).since >= from)
    .sort((a, b) => a.receivedAt - b.receivedAt);
  const page = all.slice(offset, offset + PAGE).map((o) => orderView(o, ctx.at).fulfillmentOrder);
  // The token carries the query's start date (as `issuedAt`) so the next page answers the same question.
  const nextToken =
    offset + PAGE < all.length ? encodeToken({ offset: offset + PAGE, scope, issuedAt: from }) : undefined;
  return { status: 200, body: { payload: { fulfillmentOrders: page, ...(nextToken ? { nextToken } : {}) } } };
}

/** cancelFulfillmentOrder: a Received or Planning order becomes Cancelled (cancelling it again is accepted). */
function cancelOrder(ctx: SpContext, orders: Map<string, McfOrder>) {
  const order = findOrder(orders, ctx.params[0]!);
  if (order.cancelledAt === null) {
    changeable(order, ctx.at, 'cancelled');
    order.cancelledAt = ctx.at;
  }
  return { status: 200, body: {} };
}

/**
 * The Fulfillment Outbound API 2020-07-01 operations
 * (models/fulfillment-outbound-api-model/fulfillmentOutbound_2020-07-01.json) the multi-channel fulfillment actions
 * call. Orders live in this closure, per seller; each FBA seller starts with the
 * demo's orders (mcf-orders.ts `seedOrders`), placed relative to its first request.
 */
export function mcfRoutes(): SpRoute[] {
  const bySeller = new Map<string, Map<string, McfOrder>>();
  const ordersOf = (ctx: SpContext) => {
    let orders = bySeller.get(ctx.seller.sellerId);
    if (!orders)
      bySeller.set(
        ctx.seller.sellerId,
        (orders = new Map(seedOrders(ctx.seller, ctx.at).map((o) => [o.sellerFulfillmentOrderId, o]))),
      );
    return orders;
  };
  const withOrders =
    (handler: (ctx: SpContext, orders: Map<string, McfOrder>) => { status: number; body: unknown }) =>
    (ctx: SpContext) =>
      handler(ctx, ordersOf(ctx));
  return [
    {
      method: 'POST',
      pattern: new RegExp(`^${BASE}/fulfillmentOrders$`),
      operation: 'createFulfillmentOrder',
      handler: withOrders(createOrder),
    },
    {
      method: 'GET',
      pattern: new RegExp(`^${BASE}/fulfillmentOrders$`),
      operation: 'listAllFulfillmentOrders',
      handler: withOrders(listOrders),
    },
    {
      method: 'GET',
      pattern: new RegExp(`^${BASE}/fulfillmentOrders/([^/]+)$`),
      operation: 'getFulfillmentOrder',
      handler: withOrders((ctx, orders) => ({
        status: 200,
        body: { payload: orderView(findOrder(orders, ctx.params[0]!), ctx.at) },
      })),
    },
    {
      method: 'PUT',
      pattern: new RegExp(`^${BASE}/fulfillmentOrders/([^/]+)/cancel$`),
      operation: 'cancelFulfillmentOrder',
      handler: withOrders(cancelOrder),
    },
    {
      method: 'PUT',
      pattern: new RegExp(`^${BASE}/fulfillmentOrders/([^/]+)/return$`),
      operation: 'createFulfillmentReturn',
      handler: withOrders(createReturn),
    },
    {
      method: 'PUT',
      pattern: new RegExp(`^${BASE}/fulfillmentOrders/([^/]+)$`),
      operation: 'updateFulfillmentOrder',
      handler: withOrders(updateOrder),
    },
    ...mcfLookupRoutes(BASE, (ctx, id) => {
      if (!ordersOf(ctx).has(id)) throw new SpError(400, 'InvalidInput', `Invalid sellerFulfillmentOrderId ${id}.`);
    }),
  ];
}
