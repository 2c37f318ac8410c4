import { z } from 'zod';
import { completed, define, type ActionContext, type ActionGroup } from './define.ts';
import {
  container,
  each,
  item,
  orderParties,
  parties,
  SHIPPING,
  toContainer,
  vendorDfLabelActions,
  type Item,
} from './vendor-df-labels.ts';
import {
  checkTransaction,
  dateTime,
  dfPurchaseOrderNumber,
  productIds,
  readTransaction,
  submit,
  transactionId,
} from './vendor-shared.ts';

const shippedItem = (i: Item) => ({
  itemSequenceNumber: i.itemSequenceNumber,
  ...productIds(i, 'buyerProductIdentifier'),
  shippedQuantity: each(i.quantity),
});
const iso = (ctx: ActionContext, value?: string) => value ?? new Date(ctx.now).toISOString();

/**
 * The vendor direct fulfillment types (2021-12-28 APIs): order acknowledgements (Orders submitAcknowledgement),
 * shipping labels (vendor-df-labels.ts), shipment confirmations and status updates, packing slips, and the transaction
 * status (Transactions getTransactionStatus) the submissions wait on.
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
  ...vendorDfLabelActions,
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
