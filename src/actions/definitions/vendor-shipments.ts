import { z } from 'zod';
import { completed, define, type ActionContext, type ActionGroup } from './define.ts';
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
  submit,
  vendorSku,
} from './vendor-shared.ts';
import { ruled } from './rules.ts';

/** Eaches or cases: how a quantity is counted. */
export const unitOfMeasure = z.enum(['Eaches', 'Cases']).default('Eaches');
/** A quantity of units or cases. */
export const quantity = z.number().int().min(0).max(1_000_000);
/** The vendor code, the vendor warehouse and the Amazon warehouse of a purchase order or shipment. */
export const parties = {
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
export const itemQuantity = (amount: number, unit: string, unitSize?: number) => ({
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
/** The time given, or now. */
export const iso = (ctx: ActionContext, value?: string) => value ?? new Date(ctx.now).toISOString();

/**
 * The retail shipment types (Vendor Shipments v1): SubmitShipments asks for transport, SubmitShipmentConfirmations
 * sends the advance shipment notice (both submissions wait on their transaction), GetShipmentLabels reads the labels.
 */
export const vendorShipmentActions: ActionGroup = {
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
                  .array(ruled(z.object(shippedItem).strict(), namesProduct))
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
          .array(ruled(z.object({ ...shippedItem, purchaseOrderNumber }).strict(), namesProduct))
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
};
