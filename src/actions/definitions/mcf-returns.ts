import { z } from 'zod';
import { batchOutcome, define, type ActionContext, type ActionGroup } from './define.ts';
import { itemId, orderPath, readOrder } from './mcf-orders.ts';
import { orderId } from './mcf-previews.ts';
import { relation, ruled } from './rules.ts';

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

/** createFulfillmentReturn: a batch of returned units of one order, answered per unit. */
export const mcfReturnActions: ActionGroup = {
  MKT_MCF_RETURNS_ADD: define(
    ruled(
      z.object({ sellerFulfillmentOrderId: orderId, items: z.array(returnItem).min(1).max(100) }).strict(),
      relation(
        (d) => new Set(d.items.map((i) => i.returnItemId)).size === d.items.length,
        'each item has its own returnItemId',
        'each returnItemId once',
        ['items'],
      ),
    ).meta({
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
