import { z } from 'zod';
import { completed, define, type ActionGroup } from './define.ts';
import { money, sku } from './listings.ts';
import { itemId, orderPath, readOrder, writeThenRead } from './mcf-orders.ts';
import {
  address,
  exampleAddress,
  featureConstraints,
  MCF,
  mcfPreviewActions,
  orderId,
  speed,
  toFeatureSettings,
} from './mcf-previews.ts';
import { mcfReturnActions } from './mcf-returns.ts';
import { alone, atLeastOne, minFields, relation, ruled } from './rules.ts';

const upstreamMoney = (m: { amount: number; currency: string }) => ({
  currencyCode: m.currency,
  value: m.amount.toFixed(2),
});
const emails = z.array(z.email().max(64)).min(1).max(10).describe('Who Amazon tells when the order ships.');
const policy = z.enum(['FillOrKill', 'FillAll', 'FillAllAvailable']);
const action = z.enum(['Ship', 'Hold']).describe('Hold keeps the order from shipping until an update asks to Ship.');

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

/**
 * The multi-channel fulfillment types (Fulfillment Outbound API 2020-07-01,
 * models/fulfillment-outbound-api-model/fulfillmentOutbound_2020-07-01.json): createFulfillmentOrder,
 * updateFulfillmentOrder, cancelFulfillmentOrder (each followed by getFulfillmentOrder: the result is the order as it
 * now stands), getFulfillmentOrder or listAllFulfillmentOrders, createFulfillmentReturn (a batch of returned units),
 * and the look-ups of mcf-previews.ts; the returns are in mcf-returns.ts.
 */
export const mcfActions: ActionGroup = {
  ...mcfPreviewActions,
  MKT_MCF_ORDERS_ADD: define(
    ruled(
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
        .strict(),
      relation(
        (d) => new Set(withItemIds(d.items).map((i) => i.orderItemId)).size === d.items.length,
        'each line has its own orderItemId (or SKU, when orderItemId is not given)',
        'orderItemId (or the SKU, when not given) must differ from line to line',
        ['items'],
      ),
    ).meta({
      examples: [
        {
          sellerFulfillmentOrderId: 'WEB-10472',
          shippingSpeedCategory: 'Expedited',
          destinationAddress: exampleAddress,
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
    ruled(
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
        .strict(),
      minFields(2, 'give at least one field to change'),
    ).meta({
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
    ruled(
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
        .strict(),
      alone(
        'sellerFulfillmentOrderId',
        ['queryStartDate', 'nextToken'],
        'give sellerFulfillmentOrderId alone, or queryStartDate and nextToken',
      ),
    ).meta({ examples: [{ sellerFulfillmentOrderId: 'MCF-DEMO-0001' }] }),
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
  ...mcfReturnActions,
};
