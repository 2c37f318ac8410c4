import type { DfOrder, VendorBook } from '../data/vendors.ts';
import { invalidInput, SpError } from './sp-error.ts';
import type { SpContext, SpRoute } from './sp-routes.ts';
import {
  accepted,
  base64,
  dateTime,
  entries,
  list,
  oneOf,
  partyId,
  required,
  trackingNumber,
  unknownOrders,
  type Obj,
} from './vendor-shared.ts';

type Book = (ctx: SpContext) => VendorBook;

/** A direct fulfillment order by the path's PO number, or the model's 404. */
function orderOf(book: VendorBook, po: string): DfOrder {
  const order = book.dfOrders.get(po);
  if (!order) throw new SpError(404, 'NotFound', `Purchase order ${po} was not found.`);
  return order;
}

/** A ShippingLabel (vendorDirectFulfillmentShipping_2021-12-28.json): one ZPL label a container (one without). */
function shippingLabel(order: DfOrder, request: Obj): Record<string, unknown> {
  const containers =
    Array.isArray(request.containers) && request.containers.length > 0
      ? (request.containers as Obj[])
      : [{ containerIdentifier: '001' }];
  return {
    purchaseOrderNumber: order.purchaseOrderNumber,
    sellingParty: request.sellingParty,
    shipFromParty: request.shipFromParty,
    labelFormat: 'ZPL',
    labelData: containers.map((c, i) => {
      const tracking = trackingNumber('df', order.purchaseOrderNumber, String(c.containerIdentifier ?? i));
      return {
        packageIdentifier: String(i + 1).padStart(3, '0'),
        trackingNumber: tracking,
        shipMethod: 'UPS_GR_RES',
        shipMethodName: 'UPS Ground Residential',
        content: base64(`^XA^FO50,50^BCN,100^FD${tracking}^FS^XZ`),
      };
    }),
  };
}

/** Checks a label request's parties: both required, and the ship-from warehouse the order's own. */
function labelRequest(order: DfOrder | undefined, request: Obj, path: string): void {
  partyId(request, path, 'sellingParty');
  const from = partyId(request, path, 'shipFromParty');
  if (order && from !== order.shipFromPartyId)
    throw invalidInput(
      `${path}.shipFromParty.partyId ${from} is not the warehouse of purchase order ${order.purchaseOrderNumber}.`,
    );
}

/** submitAcknowledgement (vendorDirectFulfillmentOrders_2021-12-28.json): acknowledges direct fulfillment orders. */
function acknowledgeOrders(book: Book) {
  return (ctx: SpContext) => {
    const b = book(ctx);
    const acks = entries(ctx, 'orderAcknowledgements');
    acks.forEach((ack, i) => {
      const path = `orderAcknowledgements[${i}]`;
      required(ack, path, ['purchaseOrderNumber', 'vendorOrderNumber', 'acknowledgementStatus']);
      dateTime(ack, path, 'acknowledgementDate');
      partyId(ack, path, 'sellingParty');
      partyId(ack, path, 'shipFromParty');
      list(ack, path, 'itemAcknowledgements', ['itemSequenceNumber', 'acknowledgedQuantity']);
    });
    const errors = unknownOrders(
      b.dfOrders,
      acks.map((a) => a.purchaseOrderNumber),
    );
    return accepted(
      b.submit('df', ctx.at, errors, () =>
        acks.forEach((a) => (b.dfOrders.get(String(a.purchaseOrderNumber))!.acknowledgement = a)),
      ),
      false,
    );
  };
}

/**
 * submitShippingLabelRequest: labels made asynchronously; getShippingLabel answers them once the transaction succeeds.
 */
function requestLabels(book: Book) {
  return (ctx: SpContext) => {
    const b = book(ctx);
    const requests = entries(ctx, 'shippingLabelRequests');
    requests.forEach((r, i) => {
      required(r, `shippingLabelRequests[${i}]`, ['purchaseOrderNumber']);
      labelRequest(undefined, r, `shippingLabelRequests[${i}]`);
    });
    const errors = unknownOrders(
      b.dfOrders,
      requests.map((r) => r.purchaseOrderNumber),
    );
    const apply = () =>
      requests.forEach((r) => {
        const order = b.dfOrders.get(String(r.purchaseOrderNumber))!;
        order.label = shippingLabel(order, r);
      });
    return accepted(b.submit('df', ctx.at, errors, apply), false);
  };
}

/** createShippingLabels: a label made at once for an order (200 ShippingLabel); it replaces an earlier one. */
function createLabels(book: Book) {
  return (ctx: SpContext) => {
    const order = orderOf(book(ctx), ctx.params[0]!);
    const request = (typeof ctx.body === 'object' && ctx.body !== null ? ctx.body : {}) as Obj;
    labelRequest(order, request, 'body');
    order.label = shippingLabel(order, request);
    return { status: 200, body: order.label };
  };
}

/** getShippingLabel: an order's label, 404 when the order or its label does not exist. */
function getLabel(book: Book) {
  return (ctx: SpContext) => {
    const order = orderOf(book(ctx), ctx.params[0]!);
    if (!order.label)
      throw new SpError(404, 'NotFound', `No shipping label exists for purchase order ${order.purchaseOrderNumber}.`);
    return { status: 200, body: order.label };
  };
}

/** submitShipmentConfirmations (2021-12-28): shipped orders, with their items and shipment details. */
function confirmShipments(book: Book) {
  return (ctx: SpContext) => {
    const b = book(ctx);
    const confirmations = entries(ctx, 'shipmentConfirmations');
    confirmations.forEach((c, i) => {
      const path = `shipmentConfirmations[${i}]`;
      required(c, path, ['purchaseOrderNumber', 'shipmentDetails']);
      oneOf(c.shipmentDetails as Obj, `${path}.shipmentDetails`, 'shipmentStatus', ['SHIPPED', 'FLOOR_DENIAL']);
      dateTime(c.shipmentDetails as Obj, `${path}.shipmentDetails`, 'shippedDate');
      partyId(c, path, 'sellingParty');
      partyId(c, path, 'shipFromParty');
      list(c, path, 'items', ['itemSequenceNumber', 'shippedQuantity']);
    });
    const errors = unknownOrders(
      b.dfOrders,
      confirmations.map((c) => c.purchaseOrderNumber),
    );
    return accepted(
      b.submit('df', ctx.at, errors, () =>
        confirmations.forEach((c) => (b.dfOrders.get(String(c.purchaseOrderNumber))!.shipmentConfirmation = c)),
      ),
      false,
    );
  };
}

/** submitShipmentStatusUpdates (2021-12-28): carrier status events of shipped packages. */
function statusUpdates(book: Book) {
  return (ctx: SpContext) => {
    const b = book(ctx);
    const updates = entries(ctx, 'shipmentStatusUpdates');
    updates.forEach((u, i) => {
      const path = `shipmentStatusUpdates[${i}]`;
      required(u, path, ['purchaseOrderNumber', 'statusUpdateDetails']);
      partyId(u, path, 'sellingParty');
      partyId(u, path, 'shipFromParty');
      const details = u.statusUpdateDetails as Obj;
      required(details, `${path}.statusUpdateDetails`, [
        'trackingNumber',
        'statusCode',
        'reasonCode',
        'statusLocationAddress',
      ]);
      dateTime(details, `${path}.statusUpdateDetails`, 'statusDateTime');
      required(details.statusLocationAddress as Obj, `${path}.statusUpdateDetails.statusLocationAddress`, [
        'name',
        'addressLine1',
        'countryCode',
      ]);
    });
    const errors = unknownOrders(
      b.dfOrders,
      updates.map((u) => u.purchaseOrderNumber),
    );
    return accepted(
      b.submit('df', ctx.at, errors, () =>
        updates.forEach((u) =>
          b.dfOrders.get(String(u.purchaseOrderNumber))!.statusUpdates.push(u.statusUpdateDetails),
        ),
      ),
      false,
    );
  };
}

/** getPackingSlip: the order's packing slip (a Base64 PDF), 404 for an order the vendor does not have. */
function packingSlip(book: Book) {
  return (ctx: SpContext) => {
    const order = orderOf(book(ctx), ctx.params[0]!);
    const text = `%PDF-1.4 packing slip ${order.purchaseOrderNumber} ${order.items.map((i) => `${i.vendorSku} x${i.quantity}`).join(', ')}`;
    return {
      status: 200,
      body: { purchaseOrderNumber: order.purchaseOrderNumber, content: base64(text), contentType: 'application/pdf' },
    };
  };
}

/**
 * getTransactionStatus (vendorDirectFulfillmentTransactions_2021-12-28.json); its 404 is a single Error, as modelled.
 */
function transactionStatus(book: Book) {
  return (ctx: SpContext) => {
    const status = book(ctx).transaction('df', ctx.params[0]!, ctx.at);
    if (!status)
      return { status: 404, body: { code: 'NotFound', message: `Transaction ${ctx.params[0]} was not found.` } };
    return { status: 200, body: { transactionStatus: status } };
  };
}

/** The demo direct fulfillment order whose label exists from the start (ACDF0002). */
export function seedDfLabels(book: VendorBook): void {
  const order = book.dfOrders.get('ACDF0002')!;
  order.label = shippingLabel(order, {
    sellingParty: { partyId: order.sellingPartyId },
    shipFromParty: { partyId: order.shipFromPartyId },
  });
}

/** The Vendor Direct Fulfillment Orders, Shipping and Transactions operations (2021-12-28). */
export function vendorDfRoutes(book: Book): SpRoute[] {
  return [
    {
      method: 'POST',
      pattern: /^\/vendor\/directFulfillment\/orders\/2021-12-28\/acknowledgements$/,
      operation: 'submitAcknowledgement',
      handler: acknowledgeOrders(book),
    },
    {
      method: 'POST',
      pattern: /^\/vendor\/directFulfillment\/shipping\/2021-12-28\/shippingLabels$/,
      operation: 'submitShippingLabelRequest',
      handler: requestLabels(book),
    },
    {
      method: 'GET',
      pattern: /^\/vendor\/directFulfillment\/shipping\/2021-12-28\/shippingLabels\/([^/]+)$/,
      operation: 'getShippingLabel',
      handler: getLabel(book),
    },
    {
      method: 'POST',
      pattern: /^\/vendor\/directFulfillment\/shipping\/2021-12-28\/shippingLabels\/([^/]+)$/,
      operation: 'createShippingLabels',
      handler: createLabels(book),
    },
    {
      method: 'POST',
      pattern: /^\/vendor\/directFulfillment\/shipping\/2021-12-28\/shipmentConfirmations$/,
      operation: 'submitShipmentConfirmations',
      handler: confirmShipments(book),
    },
    {
      method: 'POST',
      pattern: /^\/vendor\/directFulfillment\/shipping\/2021-12-28\/shipmentStatusUpdates$/,
      operation: 'submitShipmentStatusUpdates',
      handler: statusUpdates(book),
    },
    {
      method: 'GET',
      pattern: /^\/vendor\/directFulfillment\/shipping\/2021-12-28\/packingSlips\/([^/]+)$/,
      operation: 'getPackingSlip',
      handler: packingSlip(book),
    },
    {
      method: 'GET',
      pattern: /^\/vendor\/directFulfillment\/transactions\/2021-12-28\/transactions\/([^/]+)$/,
      operation: 'getTransactionStatus',
      handler: transactionStatus(book),
    },
  ];
}
