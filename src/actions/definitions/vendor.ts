import { z } from 'zod';
import { completed, define, type ActionContext, type ActionGroup } from './define.ts';
import { money } from './listings.ts';
import { vendorDfActions } from './vendor-df.ts';
import {
  asin,
  checkTransaction,
  dateTime,
  itemSequenceNumber,
  namesProduct,
  party,
  partyCode,
  productIds,
  purchaseOrderNumber,
  readTransaction,
  submit,
  transactionId,
  vendorSku,
} from './vendor-shared.ts';

const unitOfMeasure = z.enum(['Eaches', 'Cases']).default('Eaches');
const quantity = z.number().int().min(0).max(1_000_000);
const parties = {
  sellingPartyId: partyCode.describe('The vendor code the purchase orders were placed with.'),
  shipFromPartyId: partyCode.describe('The vendor warehouse the goods leave from.'),
  shipToPartyId: partyCode.describe('The Amazon warehouse code the goods go to, as on the purchase order.'),
};
const shipmentId = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, _ and -');
const shippedItem = {
  itemSequenceNumber,
  asin: asin.optional(),
  vendorSku: vendorSku.optional(),
  quantity: quantity.min(1),
  unitOfMeasure,
};

/** `{ amount, unitOfMeasure }`: the ItemQuantity of the vendor retail APIs. */
const itemQuantity = (amount: number, unit: string, unitSize?: number) => ({
  amount,
  unitOfMeasure: unit,
  ...(unitSize ? { unitSize } : {}),
});
/** `{ partyId }` of the three parties of a shipment. */
const shipmentParties = (d: { sellingPartyId: string; shipFromPartyId: string; shipToPartyId: string }) => ({
  sellingParty: party(d.sellingPartyId),
  shipFromParty: party(d.shipFromPartyId),
  shipToParty: party(d.shipToPartyId),
});
const iso = (ctx: ActionContext, value?: string) => value ?? new Date(ctx.now).toISOString();

const acknowledgement = z
  .object({
    code: z.enum(['Accepted', 'Backordered', 'Rejected']),
    quantity,
    scheduledShipDate: dateTime.optional(),
    scheduledDeliveryDate: dateTime.optional(),
    rejectionReason: z.enum(['TemporarilyUnavailable', 'InvalidProductIdentifier', 'ObsoleteProduct']).optional(),
  })
  .strict()
  .refine((a) => a.rejectionReason === undefined || a.code === 'Rejected', {
    message: 'is for Rejected lines only',
    path: ['rejectionReason'],
  });

/**
 * The vendor (Vendor Central) types: retail purchase orders and shipments (Vendor Orders v1 submitAcknowledgement,
 * Vendor Shipments v1 SubmitShipments, SubmitShipmentConfirmations and GetShipmentLabels, Vendor Transaction Status
 * v1 getTransaction) and, from vendor-df.ts, direct fulfillment. A submission answers a transaction id: the action
 * waits on it, and its check reads the transaction (Success COMPLETED, Failure BLOCKED_INVALID_INPUT).
 */
export const vendorActions: ActionGroup = {
  MKT_VENDOR_PURCHASE_ORDERS_ACKNOWLEDGE: define(
    z
      .object({
        purchaseOrderNumber,
        sellingPartyId: parties.sellingPartyId,
        acknowledgementDate: dateTime.optional().describe('When the order was acknowledged; now when left out.'),
        items: z
          .array(
            z
              .object({
                itemSequenceNumber: itemSequenceNumber.optional(),
                asin: asin.optional(),
                vendorSku: vendorSku.optional(),
                orderedQuantity: quantity.min(1),
                unitOfMeasure,
                unitSize: z
                  .number()
                  .int()
                  .min(1)
                  .max(10_000)
                  .optional()
                  .describe('Units a case, when ordered in cases.'),
                netCost: money.optional().describe('Net cost a unit, as it will be invoiced.'),
                acknowledgements: z
                  .array(acknowledgement)
                  .min(1)
                  .max(3)
                  .describe('How many units are accepted, backordered or rejected.'),
              })
              .strict()
              .refine(namesProduct, { message: 'give asin or vendorSku' }),
          )
          .min(1)
          .max(1000),
      })
      .strict()
      .meta({
        examples: [
          {
            purchaseOrderNumber: 'ACPO0001',
            sellingPartyId: 'ACMEU',
            items: [
              {
                itemSequenceNumber: '00001',
                vendorSku: 'ACM-PACK-DAY-BLK',
                orderedQuantity: 24,
                acknowledgements: [{ code: 'Accepted', quantity: 24, scheduledShipDate: '2025-03-05T17:00:00Z' }],
              },
              {
                itemSequenceNumber: '00002',
                vendorSku: 'ACM-MUG-16-RED',
                orderedQuantity: 48,
                acknowledgements: [
                  { code: 'Accepted', quantity: 40 },
                  { code: 'Backordered', quantity: 8, scheduledShipDate: '2025-03-19T17:00:00Z' },
                ],
              },
            ],
          },
        ],
      }),
    (ctx, d) =>
      submit(ctx, 'retail', 'submitAcknowledgement', '/vendor/orders/v1/acknowledgements', {
        acknowledgements: [
          {
            purchaseOrderNumber: d.purchaseOrderNumber,
            sellingParty: party(d.sellingPartyId),
            acknowledgementDate: iso(ctx, d.acknowledgementDate),
            items: d.items.map((i) => ({
              ...(i.itemSequenceNumber ? { itemSequenceNumber: i.itemSequenceNumber } : {}),
              ...productIds(i),
              orderedQuantity: itemQuantity(i.orderedQuantity, i.unitOfMeasure, i.unitSize),
              ...(i.netCost
                ? { netCost: { currencyCode: i.netCost.currency, amount: i.netCost.amount.toFixed(2) } }
                : {}),
              itemAcknowledgements: i.acknowledgements.map((a) => ({
                acknowledgementCode: a.code,
                acknowledgedQuantity: itemQuantity(a.quantity, i.unitOfMeasure, i.unitSize),
                ...(a.scheduledShipDate ? { scheduledShipDate: a.scheduledShipDate } : {}),
                ...(a.scheduledDeliveryDate ? { scheduledDeliveryDate: a.scheduledDeliveryDate } : {}),
                ...(a.rejectionReason ? { rejectionReason: a.rejectionReason } : {}),
              })),
            })),
          },
        ],
      }),
    checkTransaction('retail'),
  ),
  MKT_VENDOR_SHIPMENTS_SUBMIT: define(
    z
      .object({
        vendorShipmentIdentifier: shipmentId.describe(
          "The vendor's own id of the shipment (not reused within 365 days).",
        ),
        transactionType: z
          .enum(['New', 'Cancel'])
          .default('New')
          .describe('New asks for transport (a label follows); Cancel withdraws the request.'),
        buyerReferenceNumber: z.string().trim().min(1).max(64).optional(),
        transactionDate: dateTime.optional().describe('When the request is made; now when left out.'),
        shipmentFreightTerm: z.enum(['Collect', 'Prepaid']).optional(),
        ...parties,
        purchaseOrders: z
          .array(
            z
              .object({
                purchaseOrderNumber,
                items: z
                  .array(z.object(shippedItem).strict().refine(namesProduct, { message: 'give asin or vendorSku' }))
                  .min(1)
                  .max(1000),
              })
              .strict(),
          )
          .max(100)
          .default([]),
      })
      .strict()
      .meta({
        examples: [
          {
            vendorShipmentIdentifier: 'ACMESHIP0002',
            sellingPartyId: 'ACMEU',
            shipFromPartyId: 'ACMEWH1',
            shipToPartyId: 'ABE8',
            purchaseOrders: [
              {
                purchaseOrderNumber: 'ACPO0001',
                items: [{ itemSequenceNumber: '00001', vendorSku: 'ACM-PACK-DAY-BLK', quantity: 24 }],
              },
            ],
          },
        ],
      }),
    (ctx, d) =>
      submit(ctx, 'retail', 'SubmitShipments', '/vendor/shipping/v1/shipments', {
        shipments: [
          {
            vendorShipmentIdentifier: d.vendorShipmentIdentifier,
            transactionType: d.transactionType,
            ...(d.buyerReferenceNumber ? { buyerReferenceNumber: d.buyerReferenceNumber } : {}),
            transactionDate: iso(ctx, d.transactionDate),
            ...(d.shipmentFreightTerm ? { shipmentFreightTerm: d.shipmentFreightTerm } : {}),
            ...shipmentParties(d),
            purchaseOrders: d.purchaseOrders.map((po) => ({
              purchaseOrderNumber: po.purchaseOrderNumber,
              items: po.items.map((i) => ({
                itemSequenceNumber: i.itemSequenceNumber,
                ...productIds(i, 'buyerProductIdentifier'),
                shippedQuantity: itemQuantity(i.quantity, i.unitOfMeasure),
              })),
            })),
          },
        ],
      }),
    checkTransaction('retail'),
  ),
  MKT_VENDOR_SHIPMENT_CONFIRMATIONS_SUBMIT: define(
    z
      .object({
        shipmentIdentifier: shipmentId.describe("The shipment's unique id (not reused within 365 days)."),
        shipmentConfirmationType: z.enum(['Original', 'Replace']).default('Original'),
        shipmentType: z.enum(['TruckLoad', 'LessThanTruckLoad', 'SmallParcel']).optional(),
        shipmentConfirmationDate: dateTime.optional().describe('Now when left out.'),
        shippedDate: dateTime.optional(),
        estimatedDeliveryDate: dateTime.optional(),
        ...parties,
        items: z
          .array(
            z
              .object({ ...shippedItem, purchaseOrderNumber })
              .strict()
              .refine(namesProduct, { message: 'give asin or vendorSku' }),
          )
          .min(1)
          .max(1000),
      })
      .strict()
      .meta({
        examples: [
          {
            shipmentIdentifier: 'ACMEASN0001',
            shipmentType: 'SmallParcel',
            shippedDate: '2025-03-01T15:00:00Z',
            estimatedDeliveryDate: '2025-03-04T15:00:00Z',
            sellingPartyId: 'ACMEU',
            shipFromPartyId: 'ACMEWH1',
            shipToPartyId: 'ABE8',
            items: [
              {
                itemSequenceNumber: '00001',
                vendorSku: 'ACM-PACK-DAY-BLK',
                quantity: 24,
                purchaseOrderNumber: 'ACPO0001',
              },
            ],
          },
        ],
      }),
    (ctx, d) =>
      submit(ctx, 'retail', 'SubmitShipmentConfirmations', '/vendor/shipping/v1/shipmentConfirmations', {
        shipmentConfirmations: [
          {
            shipmentIdentifier: d.shipmentIdentifier,
            shipmentConfirmationType: d.shipmentConfirmationType,
            ...(d.shipmentType ? { shipmentType: d.shipmentType } : {}),
            shipmentConfirmationDate: iso(ctx, d.shipmentConfirmationDate),
            ...(d.shippedDate ? { shippedDate: d.shippedDate } : {}),
            ...(d.estimatedDeliveryDate ? { estimatedDeliveryDate: d.estimatedDeliveryDate } : {}),
            ...shipmentParties(d),
            shippedItems: d.items.map((i) => ({
              itemSequenceNumber: i.itemSequenceNumber,
              ...productIds(i),
              shippedQuantity: itemQuantity(i.quantity, i.unitOfMeasure),
              itemDetails: { purchaseOrderNumber: i.purchaseOrderNumber },
            })),
          },
        ],
      }),
    checkTransaction('retail'),
  ),
  MKT_VENDOR_SHIPMENT_LABELS_GET: define(
    z
      .object({
        vendorShipmentIdentifier: shipmentId.optional(),
        buyerReferenceNumber: z.string().trim().min(1).max(64).optional(),
        sellerWarehouseCode: partyCode.optional(),
        labelCreatedAfter: dateTime.optional(),
        labelCreatedBefore: dateTime.optional(),
        sortOrder: z.enum(['ASC', 'DESC']).default('DESC'),
        limit: z.number().int().min(1).max(50).default(50),
        nextToken: z.string().max(4096).optional(),
      })
      .strict()
      .meta({ examples: [{ vendorShipmentIdentifier: 'ACMESHIP0001' }] }),
    async (ctx, d) => {
      const { limit, ...filters } = d;
      const query = Object.fromEntries(
        Object.entries({ ...filters, limit: String(limit) }).filter(([, v]) => v !== undefined),
      ) as Record<string, string>;
      const { body } = await ctx
        .sp()
        .request<{ payload: { transportLabels?: unknown[]; pagination?: { nextToken?: string } } }>(
          'GetShipmentLabels',
          { method: 'GET', path: '/vendor/shipping/v1/transportLabels', query },
        );
      return completed({
        transportLabels: body.payload.transportLabels ?? [],
        nextToken: body.payload.pagination?.nextToken ?? null,
      });
    },
  ),
  MKT_VENDOR_TRANSACTIONS_GET: define(
    z
      .object({ transactionId })
      .strict()
      .meta({ examples: [{ transactionId: '4b4f7a1e-2c55-4a4e-9d0b-6f3e8a1c2d01' }] }),
    async (ctx, d) => completed(await readTransaction(ctx, 'retail', d.transactionId)),
  ),
  ...vendorDfActions,
};
