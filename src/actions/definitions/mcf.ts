import { z } from 'zod';
import type { SpRequest } from '../../connectors/sp-api.ts';
import { batchOutcome, completed, define, type ActionContext, type ActionGroup, type ActionOutcome } from './define.ts';
import { money, sku } from './listings.ts';
import {
  address,
  featureConstraints,
  MCF,
  mcfPreviewActions,
  orderId,
  speed,
  toFeatureSettings,
} from './mcf-previews.ts';

/** getFulfillmentOrder's payload: the order, its items, shipments, returns and return authorizations. */
interface OrderPayload {
  fulfillmentOrder: Record<string, unknown> & { sellerFulfillmentOrderId: string; fulfillmentOrderStatus: string };
  fulfillmentOrderItems: { sellerFulfillmentOrderItemId: string }[];
  fulfillmentShipments?: {
    amazonShipmentId: string;
    fulfillmentShipmentItem: { sellerFulfillmentOrderItemId: string }[];
  }[];
  returnItems: unknown[];
  returnAuthorizations: unknown[];
}

const orderPath = (id: string) => `${MCF}/fulfillmentOrders/${encodeURIComponent(id)}`;

/** getFulfillmentOrder: the order as the marketplace holds it now. */
async function readOrder(ctx: ActionContext, id: string): Promise<OrderPayload> {
  const { body } = await ctx
    .sp()
    .request<{ payload: OrderPayload }>('getFulfillmentOrder', { method: 'GET', path: orderPath(id) });
  return body.payload;
}

/** A write (create, update, cancel: each answers an empty 200), then the order as it now stands. */
async function writeThenRead(
  ctx: ActionContext,
  id: string,
  operation: string,
  request: SpRequest,
): Promise<ActionOutcome> {
  await ctx.sp().request(operation, request);
  return completed(await readOrder(ctx, id));
}

const upstreamMoney = (m: { amount: number; currency: string }) => ({
  currencyCode: m.currency,
  value: m.amount.toFixed(2),
});
const emails = z.array(z.email().max(64)).min(1).max(10).describe('Who Amazon tells when the order ships.');
const policy = z.enum(['FillOrKill', 'FillAll', 'FillAllAvailable']);
const action = z.enum(['Ship', 'Hold']).describe('Hold keeps the order from shipping until an update asks to Ship.');
const itemId = z.string().trim().min(1).max(50);

const orderItem = z
  .object({
    sku,
    quantity: z.number().int().min(1).max(10_000),
    orderItemId: itemId
      .optional()
      .describe('sellerFulfillmentOrderItemId: the SKU when not given; returns refer to it.'),
    giftMessage: z.string().trim().min(1).max(512).optional(),
    displayableComment: z.string().trim().min(1).max(250).optional(),
    perUnitDeclaredValue: money.optional(),
  })
  .strict();

/** Returns each item with its orderItemId (its SKU unless given). */
const withItemIds = (items: z.output<typeof orderItem>[]) =>
  items.map((i) => ({ ...i, orderItemId: i.orderItemId ?? i.sku }));

const returnItem = z
  .object({
    returnItemId: z
      .string()
      .trim()
      .min(1)
      .max(80)
      .describe("sellerReturnItemId: the seller's id for this returned unit."),
    orderItemId: itemId.describe('The sellerFulfillmentOrderItemId of the order line returned.'),
    amazonShipmentId: z
      .string()
      .trim()
      .min(1)
      .max(40)
      .optional()
      .describe('The shipment that carried it; looked up on the order when not given.'),
    reasonCode: z
      .string()
      .regex(/^[A-Z0-9_-]{2,60}$/, 'a return reason code such as CR-DEFECTIVE (see MKT_MCF_RETURNS_REASON_CODES_FIND)'),
    comment: z.string().trim().min(1).max(1000).optional(),
  })
  .strict();

/** The shipment of each returned line: given, or the one of the order's shipments that carried the line. */
async function shipmentIds(
  ctx: ActionContext,
  id: string,
  items: z.output<typeof returnItem>[],
): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  if (items.every((i) => i.amazonShipmentId)) return ids;
  for (const shipment of (await readOrder(ctx, id)).fulfillmentShipments ?? []) {
    for (const line of shipment.fulfillmentShipmentItem)
      if (!ids.has(line.sellerFulfillmentOrderItemId))
        ids.set(line.sellerFulfillmentOrderItemId, shipment.amazonShipmentId);
  }
  return ids;
}

interface ReturnPayload {
  returnItems?: { sellerReturnItemId: string; returnAuthorizationId?: string; status: string }[];
  invalidReturnItems?: {
    sellerReturnItemId: string;
    invalidItemReason: { invalidItemReasonCode: string; description: string };
  }[];
  returnAuthorizations?: unknown[];
}

/**
 * The multi-channel fulfillment types (Fulfillment Outbound API 2020-07-01,
 * models/fulfillment-outbound-api-model/fulfillmentOutbound_2020-07-01.json): createFulfillmentOrder,
 * updateFulfillmentOrder, cancelFulfillmentOrder (each followed by getFulfillmentOrder: the result is the order as it
 * now stands), getFulfillmentOrder or listAllFulfillmentOrders, createFulfillmentReturn (a batch of returned units),
 * and the look-ups of mcf-previews.ts.
 */
export const mcfActions: ActionGroup = {
  ...mcfPreviewActions,
  MKT_MCF_ORDERS_ADD: define(
    z
      .object({
        sellerFulfillmentOrderId: orderId,
        displayableOrderId: orderId
          .optional()
          .describe('The order id the recipient sees; sellerFulfillmentOrderId when not given.'),
        displayableOrderDate: z.iso
          .datetime({ offset: true })
          .optional()
          .describe('The order date the recipient sees; now when not given.'),
        displayableOrderComment: z
          .string()
          .trim()
          .min(1)
          .max(750)
          .default('Thank you for your order!')
          .describe('Printed on the packing slip.'),
        shippingSpeedCategory: speed.default('Standard'),
        destinationAddress: address,
        fulfillmentAction: action.default('Ship'),
        fulfillmentPolicy: policy.default('FillOrKill'),
        notificationEmails: emails.optional(),
        featureConstraints: featureConstraints.optional(),
        items: z.array(orderItem).min(1).max(100),
      })
      .strict()
      .refine((d) => new Set(withItemIds(d.items).map((i) => i.orderItemId)).size === d.items.length, {
        message: 'orderItemId (or the SKU, when not given) must differ from line to line',
        path: ['items'],
      })
      .meta({
        examples: [
          {
            sellerFulfillmentOrderId: 'WEB-10472',
            shippingSpeedCategory: 'Expedited',
            destinationAddress: {
              name: 'Sam Rivera',
              addressLine1: '742 Evergreen Terrace',
              city: 'Portland',
              stateOrRegion: 'OR',
              postalCode: '97205',
              countryCode: 'US',
            },
            items: [
              { sku: 'ACM-PACK-DAY-BLK', quantity: 1 },
              { sku: 'ACM-LAMP-HEAD-300', quantity: 2 },
            ],
          },
        ],
      }),
    (ctx, d) =>
      writeThenRead(ctx, d.sellerFulfillmentOrderId, 'createFulfillmentOrder', {
        method: 'POST',
        path: `${MCF}/fulfillmentOrders`,
        body: {
          marketplaceId: ctx.marketplaceId,
          sellerFulfillmentOrderId: d.sellerFulfillmentOrderId,
          displayableOrderId: d.displayableOrderId ?? d.sellerFulfillmentOrderId,
          displayableOrderDate: d.displayableOrderDate ?? new Date(ctx.now).toISOString(),
          displayableOrderComment: d.displayableOrderComment,
          shippingSpeedCategory: d.shippingSpeedCategory,
          destinationAddress: d.destinationAddress,
          fulfillmentAction: d.fulfillmentAction,
          fulfillmentPolicy: d.fulfillmentPolicy,
          ...(d.notificationEmails ? { notificationEmails: d.notificationEmails } : {}),
          ...(d.featureConstraints ? { featureConstraints: toFeatureSettings(d.featureConstraints) } : {}),
          items: withItemIds(d.items).map((i) => ({
            sellerSku: i.sku,
            sellerFulfillmentOrderItemId: i.orderItemId,
            quantity: i.quantity,
            ...(i.giftMessage ? { giftMessage: i.giftMessage } : {}),
            ...(i.displayableComment ? { displayableComment: i.displayableComment } : {}),
            ...(i.perUnitDeclaredValue ? { perUnitDeclaredValue: upstreamMoney(i.perUnitDeclaredValue) } : {}),
          })),
        },
      }),
  ),
  MKT_MCF_ORDERS_UPDATE: define(
    z
      .object({
        sellerFulfillmentOrderId: orderId,
        displayableOrderId: orderId.optional(),
        displayableOrderComment: z.string().trim().min(1).max(750).optional(),
        shippingSpeedCategory: speed.optional(),
        destinationAddress: address.optional(),
        fulfillmentAction: action.optional(),
        fulfillmentPolicy: policy.optional(),
        notificationEmails: emails.optional(),
        items: z
          .array(z.object({ orderItemId: itemId, quantity: z.number().int().min(1).max(10_000) }).strict())
          .min(1)
          .max(100)
          .optional()
          .describe('New quantities of existing lines.'),
      })
      .strict()
      .refine((d) => Object.keys(d).length > 1, { message: 'give at least one field to change' })
      .meta({
        examples: [
          {
            sellerFulfillmentOrderId: 'MCF-DEMO-0002',
            displayableOrderComment: 'Happy birthday from the Acme team!',
            shippingSpeedCategory: 'Expedited',
          },
        ],
      }),
    (ctx, d) => {
      const { sellerFulfillmentOrderId, items, ...fields } = d;
      return writeThenRead(ctx, sellerFulfillmentOrderId, 'updateFulfillmentOrder', {
        method: 'PUT',
        path: orderPath(sellerFulfillmentOrderId),
        body: {
          marketplaceId: ctx.marketplaceId,
          ...fields,
          ...(items
            ? { items: items.map((i) => ({ sellerFulfillmentOrderItemId: i.orderItemId, quantity: i.quantity })) }
            : {}),
        },
      });
    },
  ),
  MKT_MCF_ORDERS_CANCEL: define(
    z
      .object({ sellerFulfillmentOrderId: orderId })
      .strict()
      .meta({ examples: [{ sellerFulfillmentOrderId: 'MCF-DEMO-0003' }] }),
    (ctx, d) =>
      writeThenRead(ctx, d.sellerFulfillmentOrderId, 'cancelFulfillmentOrder', {
        method: 'PUT',
        path: `${orderPath(d.sellerFulfillmentOrderId)}/cancel`,
      }),
  ),
  MKT_MCF_ORDERS_FIND: define(
    z
      .object({
        sellerFulfillmentOrderId: orderId.optional().describe('One order, with its items, shipments and returns.'),
        queryStartDate: z.iso
          .datetime({ offset: true })
          .optional()
          .describe(
            'Else every order whose status changed since then (the marketplace defaults to the last 36 hours).',
          ),
        nextToken: z.string().min(1).max(2048).optional(),
      })
      .strict()
      .refine((d) => !d.sellerFulfillmentOrderId || (!d.queryStartDate && !d.nextToken), {
        message: 'give sellerFulfillmentOrderId alone, or queryStartDate and nextToken',
      })
      .meta({ examples: [{ sellerFulfillmentOrderId: 'MCF-DEMO-0001' }] }),
    async (ctx, d) => {
      if (d.sellerFulfillmentOrderId) return completed(await readOrder(ctx, d.sellerFulfillmentOrderId));
      const { body } = await ctx
        .sp()
        .request<{ payload: { fulfillmentOrders?: unknown[]; nextToken?: string } }>('listAllFulfillmentOrders', {
          method: 'GET',
          path: `${MCF}/fulfillmentOrders`,
          query: d.nextToken ? { nextToken: d.nextToken } : { queryStartDate: d.queryStartDate },
        });
      return completed({
        fulfillmentOrders: body.payload.fulfillmentOrders ?? [],
        nextToken: body.payload.nextToken || null,
      });
    },
  ),
  MKT_MCF_RETURNS_ADD: define(
    z
      .object({ sellerFulfillmentOrderId: orderId, items: z.array(returnItem).min(1).max(100) })
      .strict()
      .refine((d) => new Set(d.items.map((i) => i.returnItemId)).size === d.items.length, {
        message: 'each returnItemId once',
        path: ['items'],
      })
      .meta({
        examples: [
          {
            sellerFulfillmentOrderId: 'MCF-DEMO-0001',
            items: [
              {
                returnItemId: 'RET-MCF-DEMO-0001-1',
                orderItemId: 'MCF-DEMO-0001-1',
                amazonShipmentId: 'DbW3pLq7N',
                reasonCode: 'CR-DEFECTIVE',
                comment: 'Zipper broke on the first hike.',
              },
            ],
          },
        ],
      }),
    async (ctx, d) => {
      const shipments = await shipmentIds(ctx, d.sellerFulfillmentOrderId, d.items);
      const { body } = await ctx.sp().request<{ payload: ReturnPayload }>('createFulfillmentReturn', {
        method: 'PUT',
        path: `${orderPath(d.sellerFulfillmentOrderId)}/return`,
        body: {
          items: d.items.map((i) => ({
            sellerReturnItemId: i.returnItemId,
            sellerFulfillmentOrderItemId: i.orderItemId,
            amazonShipmentId: i.amazonShipmentId ?? shipments.get(i.orderItemId) ?? '',
            returnReasonCode: i.reasonCode,
            ...(i.comment ? { returnComment: i.comment } : {}),
          })),
        },
      });
      const items = d.items.map((i) => {
        const done = body.payload.returnItems?.find((r) => r.sellerReturnItemId === i.returnItemId);
        const invalid = body.payload.invalidReturnItems?.find((r) => r.sellerReturnItemId === i.returnItemId);
        return done
          ? {
              ok: true,
              returnItemId: i.returnItemId,
              orderItemId: i.orderItemId,
              status: done.status,
              returnAuthorizationId: done.returnAuthorizationId ?? null,
            }
          : {
              ok: false,
              invalid: true,
              returnItemId: i.returnItemId,
              orderItemId: i.orderItemId,
              invalidItemReason: invalid?.invalidItemReason ?? null,
            };
      });
      return batchOutcome(items, { items, returnAuthorizations: body.payload.returnAuthorizations ?? [] });
    },
  ),
};
