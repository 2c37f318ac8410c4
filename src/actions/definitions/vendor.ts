import { z } from 'zod';
import { completed, define, type ActionGroup } from './define.ts';
import { money } from './listings.ts';
import { vendorDfActions } from './vendor-df.ts';
import {
  asin,
  checkTransaction,
  dateTime,
  itemSequenceNumber,
  namesProduct,
  party,
  productIds,
  purchaseOrderNumber,
  readTransaction,
  submit,
  transactionId,
  vendorSku,
} from './vendor-shared.ts';
import { iso, itemQuantity, parties, quantity, unitOfMeasure, vendorShipmentActions } from './vendor-shipments.ts';
import { onlyWhen, ruled } from './rules.ts';

const acknowledgement = ruled(
  z
    .object({
      code: z.enum(['Accepted', 'Backordered', 'Rejected']),
      quantity,
      scheduledShipDate: dateTime.optional(),
      scheduledDeliveryDate: dateTime.optional(),
      rejectionReason: z.enum(['TemporarilyUnavailable', 'InvalidProductIdentifier', 'ObsoleteProduct']).optional(),
    })
    .strict(),
  onlyWhen('rejectionReason', 'code', ['Rejected'], 'is for Rejected lines only'),
);

/**
 * The vendor (Vendor Central) types: retail purchase orders and shipments (Vendor Orders v1 submitAcknowledgement,
 * Vendor Shipments v1 SubmitShipments, SubmitShipmentConfirmations and GetShipmentLabels in vendor-shipments.ts,
 * Vendor Transaction Status v1 getTransaction) and, from vendor-df.ts, direct fulfillment. A submission answers a transaction id: the action
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
            ruled(
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
                .strict(),
              namesProduct,
            ),
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
  ...vendorShipmentActions,
  MKT_VENDOR_TRANSACTIONS_GET: define(
    z
      .object({ transactionId })
      .strict()
      .meta({ examples: [{ transactionId: '4b4f7a1e-2c55-4a4e-9d0b-6f3e8a1c2d01' }] }),
    async (ctx, d) => completed(await readTransaction(ctx, 'retail', d.transactionId)),
  ),
  ...vendorDfActions,
};
