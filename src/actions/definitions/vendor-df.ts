import { z } from 'zod';
import { completed, define, type ActionContext, type ActionGroup } from './define.ts';
import {
  asin,
  checkTransaction,
  dateTime,
  dfPurchaseOrderNumber,
  namesProduct,
  party,
  partyCode,
  productIds,
  readTransaction,
  submit,
  transactionId,
  vendorSku,
} from './vendor-shared.ts';

const SHIPPING = '/vendor/directFulfillment/shipping/2021-12-28';
const sequence = z.number().int().min(1).max(99_999).describe('The order line number (1, 2, …).');
const units = z.number().int().min(1).max(10_000);
const item = z
  .object({ itemSequenceNumber: sequence, asin: asin.optional(), vendorSku: vendorSku.optional(), quantity: units })
  .strict()
  .refine(namesProduct, { message: 'give asin or vendorSku' });
const parties = {
  sellingPartyId: partyCode.describe('The vendor code of the order.'),
  shipFromPartyId: partyCode.describe('The vendor warehouse code the order ships from.'),
};
const container = z
  .object({
    containerIdentifier: z.string().trim().min(1).max(64),
    containerType: z.enum(['Carton', 'Pallet']).default('Carton'),
    trackingNumber: z.string().trim().min(1).max(64).optional(),
    weight: z.object({ value: z.number().positive().max(10_000), unit: z.enum(['KG', 'LB']) }).strict(),
    dimensions: z
      .object({
        length: z.number().positive().max(1000),
        width: z.number().positive().max(1000),
        height: z.number().positive().max(1000),
        unit: z.enum(['IN', 'CM']),
      })
      .strict()
      .optional(),
    items: z.array(item).min(1).max(100),
  })
  .strict();
const labelRequest = z
  .object({
    purchaseOrderNumber: dfPurchaseOrderNumber,
    ...parties,
    containers: z.array(container).min(1).max(50).optional(),
  })
  .strict();
const labelExample = {
  purchaseOrderNumber: 'ACDF0001',
  sellingPartyId: 'ACMEU',
  shipFromPartyId: 'ACMEWH1',
  containers: [
    {
      containerIdentifier: 'CTN-ACDF0001-1',
      weight: { value: 1.4, unit: 'KG' },
      items: [{ itemSequenceNumber: 1, vendorSku: 'ACM-PACK-DAY-BLK', quantity: 1 }],
    },
  ],
};

type Item = z.output<typeof item>;
type Container = z.output<typeof container>;

const each = (amount: number) => ({ amount, unitOfMeasure: 'Each' });
const shippedItem = (i: Item) => ({
  itemSequenceNumber: i.itemSequenceNumber,
  ...productIds(i, 'buyerProductIdentifier'),
  shippedQuantity: each(i.quantity),
});
/** A Container of the DF shipping model, from ours. */
const toContainer = (c: Container) => ({
  containerType: c.containerType,
  containerIdentifier: c.containerIdentifier,
  ...(c.trackingNumber ? { trackingNumber: c.trackingNumber } : {}),
  weight: { unitOfMeasure: c.weight.unit, value: String(c.weight.value) },
  ...(c.dimensions
    ? {
        dimensions: {
          length: String(c.dimensions.length),
          width: String(c.dimensions.width),
          height: String(c.dimensions.height),
          unitOfMeasure: c.dimensions.unit,
        },
      }
    : {}),
  packedItems: c.items.map((i) => ({
    itemSequenceNumber: i.itemSequenceNumber,
    ...productIds(i, 'buyerProductIdentifier'),
    packedQuantity: each(i.quantity),
  })),
});
const orderParties = (d: { sellingPartyId: string; shipFromPartyId: string }) => ({
  sellingParty: party(d.sellingPartyId),
  shipFromParty: party(d.shipFromPartyId),
});
const labelBody = (d: z.output<typeof labelRequest>) => ({
  ...orderParties(d),
  ...(d.containers ? { containers: d.containers.map(toContainer) } : {}),
});
const iso = (ctx: ActionContext, value?: string) => value ?? new Date(ctx.now).toISOString();

interface ShippingLabel {
  purchaseOrderNumber: string;
  labelFormat: string;
  labelData: unknown[];
}
/** getShippingLabel / createShippingLabels' answer, trimmed to the order, its format and the labels. */
const labelResult = (l: ShippingLabel) => ({
  purchaseOrderNumber: l.purchaseOrderNumber,
  labelFormat: l.labelFormat,
  labelData: l.labelData,
});
/** The path of an order's shipping label. */
const labelPath = (po: string) => `${SHIPPING}/shippingLabels/${encodeURIComponent(po)}`;

/**
 * The vendor direct fulfillment types (2021-12-28 APIs): order acknowledgements (Orders submitAcknowledgement),
 * shipping labels (createShippingLabels at once, submitShippingLabelRequest later, getShippingLabel), shipment
 * confirmations and status updates, packing slips, and the transaction status (Transactions getTransactionStatus)
 * the submissions wait on.
 */
export const vendorDfActions: ActionGroup = {
  MKT_VENDOR_DF_ORDERS_ACKNOWLEDGE: define(
    z
      .object({
        purchaseOrderNumber: dfPurchaseOrderNumber,
        vendorOrderNumber: z.string().trim().min(1).max(64).describe("The vendor's own order number for it."),
        acknowledgementDate: dateTime.optional().describe('Now when left out.'),
        statusCode: z
          .string()
          .regex(/^[0-9]{2}$/, 'a two-digit code')
          .default('00')
          .describe('Acknowledgement code of the DF use case guide: 00 accepts the order.'),
        statusDescription: z.string().trim().min(1).max(200).default('Shipping 100 percent of ordered product'),
        ...parties,
        items: z.array(item).min(1).max(100),
      })
      .strict()
      .meta({
        examples: [
          {
            purchaseOrderNumber: 'ACDF0001',
            vendorOrderNumber: 'ACME-SO-10001',
            sellingPartyId: 'ACMEU',
            shipFromPartyId: 'ACMEWH1',
            items: [{ itemSequenceNumber: 1, vendorSku: 'ACM-PACK-DAY-BLK', quantity: 1 }],
          },
        ],
      }),
    (ctx, d) =>
      submit(ctx, 'df', 'submitAcknowledgement', '/vendor/directFulfillment/orders/2021-12-28/acknowledgements', {
        orderAcknowledgements: [
          {
            purchaseOrderNumber: d.purchaseOrderNumber,
            vendorOrderNumber: d.vendorOrderNumber,
            acknowledgementDate: iso(ctx, d.acknowledgementDate),
            acknowledgementStatus: { code: d.statusCode, description: d.statusDescription },
            ...orderParties(d),
            itemAcknowledgements: d.items.map((i) => ({
              itemSequenceNumber: String(i.itemSequenceNumber),
              ...productIds(i, 'buyerProductIdentifier'),
              acknowledgedQuantity: each(i.quantity),
            })),
          },
        ],
      }),
    checkTransaction('df'),
  ),
  MKT_VENDOR_DF_SHIPPING_LABELS_CREATE: define(labelRequest.meta({ examples: [labelExample] }), async (ctx, d) => {
    const { body } = await ctx.sp().request<ShippingLabel>('createShippingLabels', {
      method: 'POST',
      path: labelPath(d.purchaseOrderNumber),
      body: labelBody(d),
    });
    return completed(labelResult(body));
  }),
  MKT_VENDOR_DF_SHIPPING_LABEL_REQUESTS_SUBMIT: define(
    labelRequest.meta({
      examples: [{ purchaseOrderNumber: 'ACDF0002', sellingPartyId: 'ACMEU', shipFromPartyId: 'ACMEWH1' }],
    }),
    (ctx, d) =>
      submit(ctx, 'df', 'submitShippingLabelRequest', `${SHIPPING}/shippingLabels`, {
        shippingLabelRequests: [{ purchaseOrderNumber: d.purchaseOrderNumber, ...labelBody(d) }],
      }),
    checkTransaction('df'),
  ),
  MKT_VENDOR_DF_SHIPPING_LABEL_GET: define(
    z
      .object({ purchaseOrderNumber: dfPurchaseOrderNumber })
      .strict()
      .meta({ examples: [{ purchaseOrderNumber: 'ACDF0002' }] }),
    async (ctx, d) => {
      const { body } = await ctx
        .sp()
        .request<ShippingLabel>('getShippingLabel', { method: 'GET', path: labelPath(d.purchaseOrderNumber) });
      return completed(labelResult(body));
    },
  ),
  MKT_VENDOR_DF_SHIPMENT_CONFIRMATIONS_SUBMIT: define(
    z
      .object({
        purchaseOrderNumber: dfPurchaseOrderNumber,
        shipmentStatus: z.enum(['SHIPPED', 'FLOOR_DENIAL']).default('SHIPPED'),
        shippedDate: dateTime.optional().describe('Now when left out.'),
        isPriorityShipment: z.boolean().optional(),
        vendorOrderNumber: z.string().trim().min(1).max(64).optional(),
        estimatedDeliveryDate: dateTime.optional(),
        ...parties,
        items: z.array(item).min(1).max(100),
        containers: z.array(container).min(1).max(50).optional(),
      })
      .strict()
      .meta({
        examples: [
          {
            purchaseOrderNumber: 'ACDF0002',
            sellingPartyId: 'ACMEU',
            shipFromPartyId: 'ACMEWH1',
            shippedDate: '2025-03-01T16:00:00Z',
            items: [{ itemSequenceNumber: 1, vendorSku: 'ACM-PACK-DAY-BLK', quantity: 1 }],
          },
        ],
      }),
    (ctx, d) =>
      submit(ctx, 'df', 'submitShipmentConfirmations', `${SHIPPING}/shipmentConfirmations`, {
        shipmentConfirmations: [
          {
            purchaseOrderNumber: d.purchaseOrderNumber,
            shipmentDetails: {
              shippedDate: iso(ctx, d.shippedDate),
              shipmentStatus: d.shipmentStatus,
              ...(d.isPriorityShipment !== undefined ? { isPriorityShipment: d.isPriorityShipment } : {}),
              ...(d.vendorOrderNumber ? { vendorOrderNumber: d.vendorOrderNumber } : {}),
              ...(d.estimatedDeliveryDate ? { estimatedDeliveryDate: d.estimatedDeliveryDate } : {}),
            },
            ...orderParties(d),
            items: d.items.map(shippedItem),
            ...(d.containers ? { containers: d.containers.map(toContainer) } : {}),
          },
        ],
      }),
    checkTransaction('df'),
  ),
  MKT_VENDOR_DF_SHIPMENT_STATUS_UPDATES_SUBMIT: define(
    z
      .object({
        purchaseOrderNumber: dfPurchaseOrderNumber,
        ...parties,
        trackingNumber: z.string().trim().min(1).max(64).describe('As sent with the shipment confirmation.'),
        statusCode: z
          .string()
          .regex(/^[A-Z0-9]{2,3}$/, 'a status code such as D1')
          .describe('Shipment status code (DF shipping use case guide), e.g. D1 delivered.'),
        reasonCode: z
          .string()
          .regex(/^[A-Z0-9]{2,3}$/, 'a reason code such as NS')
          .describe('Reason code (DF shipping use case guide), e.g. NS normal status.'),
        statusDateTime: dateTime.optional().describe('Now when left out.'),
        location: z
          .object({
            name: z.string().trim().min(1).max(100),
            addressLine1: z.string().trim().min(1).max(200),
            city: z.string().trim().min(1).max(100).optional(),
            stateOrRegion: z.string().trim().min(1).max(100).optional(),
            postalCode: z.string().trim().min(1).max(20).optional(),
            countryCode: z.string().regex(/^[A-Z]{2}$/, 'an ISO 3166-1 alpha-2 code'),
          })
          .strict()
          .describe('Where the package was when its status changed (statusLocationAddress).'),
      })
      .strict()
      .meta({
        examples: [
          {
            purchaseOrderNumber: 'ACDF0002',
            sellingPartyId: 'ACMEU',
            shipFromPartyId: 'ACMEWH1',
            trackingNumber: '1Z999AA10123456784',
            statusCode: 'D1',
            reasonCode: 'NS',
            location: {
              name: 'Customer address',
              addressLine1: '1200 Pine St',
              city: 'Seattle',
              stateOrRegion: 'WA',
              postalCode: '98101',
              countryCode: 'US',
            },
          },
        ],
      }),
    (ctx, d) =>
      submit(ctx, 'df', 'submitShipmentStatusUpdates', `${SHIPPING}/shipmentStatusUpdates`, {
        shipmentStatusUpdates: [
          {
            purchaseOrderNumber: d.purchaseOrderNumber,
            ...orderParties(d),
            statusUpdateDetails: {
              trackingNumber: d.trackingNumber,
              statusCode: d.statusCode,
              reasonCode: d.reasonCode,
              statusDateTime: iso(ctx, d.statusDateTime),
              statusLocationAddress: d.location,
            },
          },
        ],
      }),
    checkTransaction('df'),
  ),
  MKT_VENDOR_DF_PACKING_SLIP_GET: define(
    z
      .object({ purchaseOrderNumber: dfPurchaseOrderNumber })
      .strict()
      .meta({ examples: [{ purchaseOrderNumber: 'ACDF0001' }] }),
    async (ctx, d) => {
      const { body } = await ctx
        .sp()
        .request<{ purchaseOrderNumber: string; content: string; contentType?: string }>('getPackingSlip', {
          method: 'GET',
          path: `${SHIPPING}/packingSlips/${encodeURIComponent(d.purchaseOrderNumber)}`,
        });
      return completed({
        purchaseOrderNumber: body.purchaseOrderNumber,
        contentType: body.contentType ?? 'application/pdf',
        content: body.content,
      });
    },
  ),
  MKT_VENDOR_DF_TRANSACTIONS_GET: define(
    z
      .object({ transactionId })
      .strict()
      .meta({ examples: [{ transactionId: '7c2d9e40-81b3-4f6a-a5e2-0d9b3c4e5f02' }] }),
    async (ctx, d) => completed(await readTransaction(ctx, 'df', d.transactionId)),
  ),
};
