import { TRANSACTION_MS, VENDOR_CODES, type VendorBook } from '../data/vendors.ts';
import { decodeToken, encodeToken } from './paging.ts';
import { invalidInput, SpError } from './sp-error.ts';
import type { SpContext, SpRoute } from './sp-routes.ts';
import { seedDfLabels, vendorDfRoutes } from './vendor-df-operations.ts';
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
  vendorBooks,
  type Obj,
} from './vendor-shared.ts';

export { demoVendor, isVendor } from '../data/vendors.ts';

type Book = (ctx: SpContext) => VendorBook;

/** A TransportLabel (vendorShipments.json) for a shipment the vendor asked transport for. */
function transportLabel(shipment: Obj, at: number): Obj {
  const id = String(shipment.vendorShipmentIdentifier);
  const tracking = trackingNumber('transport', id);
  return {
    labelCreateDateTime: new Date(at).toISOString(),
    shipmentInformation: {
      vendorDetails: { sellingParty: shipment.sellingParty, vendorShipmentIdentifier: id },
      ...(shipment.buyerReferenceNumber ? { buyerReferenceNumber: shipment.buyerReferenceNumber } : {}),
      shipToParty: shipment.shipToParty,
      shipFromParty: shipment.shipFromParty,
      warehouseId: (shipment.shipFromParty as Obj).partyId,
      masterTrackingId: tracking,
      totalLabelCount: 1,
      shipMode: 'SmallParcel',
    },
    labelData: [
      {
        labelSequenceNumber: 1,
        labelFormat: 'PDF',
        carrierCode: 'UPSN',
        trackingId: tracking,
        label: base64(`%PDF-1.4 transport label ${id} ${tracking}`),
      },
    ],
  };
}

/** Sets (New) or removes (Cancel) a shipment's transport label. */
function applyShipment(book: VendorBook, shipment: Obj, at: number): void {
  const id = String(shipment.vendorShipmentIdentifier);
  const index = book.transportLabels.findIndex((l) => l.vendorShipmentIdentifier === id);
  if (index >= 0) book.transportLabels.splice(index, 1);
  if (shipment.transactionType === 'New')
    book.transportLabels.push({ vendorShipmentIdentifier: id, createdAt: at, body: transportLabel(shipment, at) });
}

/** submitAcknowledgement (vendorOrders.json): acknowledges purchase orders; unknown PO numbers fail the transaction. */
function acknowledgeOrders(book: Book) {
  return (ctx: SpContext) => {
    const b = book(ctx);
    const acks = entries(ctx, 'acknowledgements');
    acks.forEach((ack, i) => {
      const path = `acknowledgements[${i}]`;
      required(ack, path, ['purchaseOrderNumber']);
      dateTime(ack, path, 'acknowledgementDate');
      partyId(ack, path, 'sellingParty');
      list(ack, path, 'items', ['orderedQuantity']).forEach((item, j) =>
        list(item, `${path}.items[${j}]`, 'itemAcknowledgements', ['acknowledgedQuantity']).forEach((ia, k) =>
          oneOf(ia, `${path}.items[${j}].itemAcknowledgements[${k}]`, 'acknowledgementCode', [
            'Accepted',
            'Backordered',
            'Rejected',
          ]),
        ),
      );
    });
    const errors = unknownOrders(
      b.purchaseOrders,
      acks.map((a) => a.purchaseOrderNumber),
    );
    const id = b.submit('retail', ctx.at, errors, () =>
      acks.forEach((a) => (b.purchaseOrders.get(String(a.purchaseOrderNumber))!.acknowledgement = a)),
    );
    return accepted(id, true);
  };
}

/** SubmitShipments (vendorShipments.json): transport requests; a label is ready once the transaction succeeds. */
function submitShipments(book: Book) {
  return (ctx: SpContext) => {
    const b = book(ctx);
    const shipments = entries(ctx, 'shipments');
    shipments.forEach((s, i) => {
      const path = `shipments[${i}]`;
      required(s, path, ['vendorShipmentIdentifier']);
      oneOf(s, path, 'transactionType', ['New', 'Cancel']);
      dateTime(s, path, 'transactionDate');
      for (const party of ['sellingParty', 'shipFromParty', 'shipToParty']) partyId(s, path, party);
    });
    const pos = shipments.flatMap((s) =>
      Array.isArray(s.purchaseOrders) ? (s.purchaseOrders as Obj[]).map((p) => p.purchaseOrderNumber) : [],
    );
    const cancels = shipments.filter(
      (s) =>
        s.transactionType === 'Cancel' &&
        !b.transportLabels.some((l) => l.vendorShipmentIdentifier === s.vendorShipmentIdentifier),
    );
    const errors = [
      ...unknownOrders(b.purchaseOrders, pos),
      ...cancels.map((s) => ({
        code: 'InvalidInput',
        message: `Shipment ${String(s.vendorShipmentIdentifier)} was not found for this vendor.`,
        details: 'vendorShipmentIdentifier',
      })),
    ];
    const id = b.submit('retail', ctx.at, errors, () =>
      shipments.forEach((s) => applyShipment(b, s, ctx.at + TRANSACTION_MS)),
    );
    return accepted(id, true);
  };
}

/** SubmitShipmentConfirmations (vendorShipments.json): advance shipment notices; items name their purchase order. */
function confirmShipments(book: Book) {
  return (ctx: SpContext) => {
    const b = book(ctx);
    const confirmations = entries(ctx, 'shipmentConfirmations');
    confirmations.forEach((c, i) => {
      const path = `shipmentConfirmations[${i}]`;
      required(c, path, ['shipmentIdentifier']);
      oneOf(c, path, 'shipmentConfirmationType', ['Original', 'Replace']);
      dateTime(c, path, 'shipmentConfirmationDate');
      for (const party of ['sellingParty', 'shipFromParty', 'shipToParty']) partyId(c, path, party);
      list(c, path, 'shippedItems', ['itemSequenceNumber', 'shippedQuantity']);
    });
    const poOf = (c: Obj) =>
      (c.shippedItems as Obj[])
        .map((item) => (item.itemDetails as Obj | undefined)?.purchaseOrderNumber)
        .filter((po) => po !== undefined);
    const errors = unknownOrders(b.purchaseOrders, confirmations.flatMap(poOf));
    const id = b.submit('retail', ctx.at, errors, () =>
      confirmations.forEach((c) =>
        poOf(c).forEach((po) =>
          b.purchaseOrders.get(String(po))!.shipmentConfirmations.push(String(c.shipmentIdentifier)),
        ),
      ),
    );
    return accepted(id, true);
  };
}

/** GetShipmentLabels (vendorShipments.json): the transport labels, filtered, `limit` (1–50) a page, `nextToken`. */
function shipmentLabels(book: Book) {
  return (ctx: SpContext) => {
    const b = book(ctx);
    const q = ctx.query;
    const limit = q.limit === undefined ? 50 : Number(q.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 50) throw invalidInput('limit must be between 1 and 50.');
    if (q.sortOrder !== undefined && q.sortOrder !== 'ASC' && q.sortOrder !== 'DESC')
      throw invalidInput('sortOrder must be ASC or DESC.');
    const after = q.labelCreatedAfter === undefined ? -Infinity : Date.parse(q.labelCreatedAfter);
    const before = q.labelCreatedBefore === undefined ? Infinity : Date.parse(q.labelCreatedBefore);
    if (Number.isNaN(after) || Number.isNaN(before))
      throw invalidInput('labelCreatedAfter and labelCreatedBefore must be ISO 8601 date-times.');
    const info = (l: { body: Obj }) => l.body.shipmentInformation as Obj;
    const all = b.transportLabels
      .filter((l) => l.createdAt > after && l.createdAt < before && l.createdAt <= ctx.at)
      .filter(
        (l) =>
          (q.vendorShipmentIdentifier === undefined || l.vendorShipmentIdentifier === q.vendorShipmentIdentifier) &&
          (q.buyerReferenceNumber === undefined || info(l).buyerReferenceNumber === q.buyerReferenceNumber) &&
          (q.sellerWarehouseCode === undefined || info(l).warehouseId === q.sellerWarehouseCode),
      )
      .sort((x, y) => (q.sortOrder === 'ASC' ? x.createdAt - y.createdAt : y.createdAt - x.createdAt));
    const scope = `transportLabels/${ctx.seller.sellerId}/${JSON.stringify(q, ['vendorShipmentIdentifier', 'buyerReferenceNumber', 'sellerWarehouseCode', 'sortOrder'])}`;
    const offset = q.nextToken === undefined ? 0 : (decodeToken(q.nextToken, scope)?.offset ?? -1);
    if (offset < 0) throw invalidInput('The nextToken is invalid.');
    const next =
      offset + limit < all.length ? encodeToken({ offset: offset + limit, scope, issuedAt: ctx.at }) : undefined;
    return {
      status: 200,
      body: {
        payload: {
          ...(next ? { pagination: { nextToken: next } } : {}),
          transportLabels: all.slice(offset, offset + limit).map((l) => l.body),
        },
      },
    };
  };
}

/** getTransaction (vendorTransactionStatus.json): a retail transaction's status, 404 when unknown. */
function transaction(book: Book) {
  return (ctx: SpContext) => {
    const status = book(ctx).transaction('retail', ctx.params[0]!, ctx.at);
    if (!status) throw new SpError(404, 'NotFound', `Transaction ${ctx.params[0]} was not found.`);
    return { status: 200, body: { payload: { transactionStatus: status } } };
  };
}

/** The demo shipment whose transport label exists from the start (ACMESHIP0001, for purchase order ACPO0001). */
function seedLabels(book: VendorBook, at: number): void {
  const { sellingPartyId, warehouseId, amazonWarehouseId } = VENDOR_CODES;
  const createdAt = at - 86_400_000;
  applyShipment(
    book,
    {
      vendorShipmentIdentifier: 'ACMESHIP0001',
      transactionType: 'New',
      buyerReferenceNumber: 'ACMEREF0001',
      sellingParty: { partyId: sellingPartyId },
      shipFromParty: { partyId: warehouseId },
      shipToParty: { partyId: amazonWarehouseId },
    },
    createdAt,
  );
}

/**
 * The vendor operations (Vendor Orders, Vendor Shipments, Vendor Transaction Status v1, and the direct fulfillment
 * 2021-12-28 APIs), served to vendor accounts only. Submissions answer a transaction id at once; each transaction
 * is Processing for 2 minutes of fake time, then Success, or Failure when it names a purchase order the vendor does not
 * have (the fake's one asynchronous check; structural errors are refused at once with 400 InvalidInput).
 */
export function vendorRoutes(): SpRoute[] {
  const book = vendorBooks((b, at) => {
    seedLabels(b, at);
    seedDfLabels(b);
  });
  return [
    {
      method: 'POST',
      pattern: /^\/vendor\/orders\/v1\/acknowledgements$/,
      operation: 'submitAcknowledgement',
      handler: acknowledgeOrders(book),
    },
    {
      method: 'POST',
      pattern: /^\/vendor\/shipping\/v1\/shipments$/,
      operation: 'SubmitShipments',
      handler: submitShipments(book),
    },
    {
      method: 'POST',
      pattern: /^\/vendor\/shipping\/v1\/shipmentConfirmations$/,
      operation: 'SubmitShipmentConfirmations',
      handler: confirmShipments(book),
    },
    {
      method: 'GET',
      pattern: /^\/vendor\/shipping\/v1\/transportLabels$/,
      operation: 'GetShipmentLabels',
      handler: shipmentLabels(book),
    },
    {
      method: 'GET',
      pattern: /^\/vendor\/transactions\/v1\/transactions\/([^/]+)$/,
      operation: 'getTransaction',
      handler: transaction(book),
    },
    ...vendorDfRoutes(book),
  ];
}
