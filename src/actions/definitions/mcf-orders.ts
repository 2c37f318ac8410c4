import { z } from 'zod';
import type { SpRequest } from '../../connectors/sp-api.ts';
import { completed, type ActionContext, type ActionOutcome } from './define.ts';
import { MCF } from './mcf-previews.ts';

/** getFulfillmentOrder's payload: the order, its items, shipments, returns and return authorizations. */
export interface OrderPayload {
  fulfillmentOrder: Record<string, unknown> & { sellerFulfillmentOrderId: string; fulfillmentOrderStatus: string };
  fulfillmentOrderItems: { sellerFulfillmentOrderItemId: string }[];
  fulfillmentShipments?: {
    amazonShipmentId: string;
    fulfillmentShipmentItem: { sellerFulfillmentOrderItemId: string }[];
  }[];
  returnItems: unknown[];
  returnAuthorizations: unknown[];
}

/** The path of a fulfillment order. */
export const orderPath = (id: string) => `${MCF}/fulfillmentOrders/${encodeURIComponent(id)}`;

/** getFulfillmentOrder: the order as the marketplace holds it now. */
export async function readOrder(ctx: ActionContext, id: string): Promise<OrderPayload> {
  const { body } = await ctx
    .sp()
    .request<{ payload: OrderPayload }>('getFulfillmentOrder', { method: 'GET', path: orderPath(id) });
  return body.payload;
}

/** A write (create, update, cancel: each answers an empty 200), then the order as it now stands. */
export async function writeThenRead(
  ctx: ActionContext,
  id: string,
  operation: string,
  request: SpRequest,
): Promise<ActionOutcome> {
  await ctx.sp().request(operation, request);
  return completed(await readOrder(ctx, id));
}

/** sellerFulfillmentOrderItemId: the id of an order line. */
export const itemId = z.string().trim().min(1).max(50);
