import { Rng } from '../data/random.ts';
import type { FakeSeller } from '../data/sellers.ts';
import { REASON_CODES } from './mcf-lookups.ts';
import {
  bodyOf,
  findOrder,
  iso,
  requiredString,
  statusAt,
  type Body,
  type McfOrder,
  type McfReturn,
} from './mcf-orders.ts';
import { invalidInput } from './sp-error.ts';
import type { SpContext } from './sp-routes.ts';

/** The return authorization of an order (one per order, made at its first return). */
function authorization(seller: FakeSeller, order: McfOrder): Record<string, unknown> {
  const rng = new Rng([seller.sellerId, order.sellerFulfillmentOrderId, 'rma']);
  const rma = `D${rng.id(11, 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz0123456789')}`;
  const returnToAddress =
    seller.countryCode === 'US'
      ? {
          name: 'Returns Department',
          addressLine1: '5333 W. Lower Buckeye Road',
          city: 'Phoenix',
          stateOrRegion: 'AZ',
          countryCode: 'US',
          postalCode: '85043',
        }
      : {
          name: 'Amazon Retourenabteilung',
          addressLine1: 'Amazonstraße 1',
          city: 'Leipzig',
          stateOrRegion: 'Sachsen',
          countryCode: 'DE',
          postalCode: '04347',
        };
  return {
    returnAuthorizationId: `RMA${rng.id(13)}`,
    fulfillmentCenterId: seller.countryCode === 'US' ? 'TUS1' : 'LEJ1',
    returnToAddress,
    amazonRmaId: rma,
    rmaPageURL: `https://www.${seller.salesChannel.toLowerCase()}/gp/orc/rml/${rma}`,
  };
}

type ReturnCheck = { ok: McfReturn } | { invalid: string; reason: string };

/** One item of a return request, judged against the order: a return item, or why it is invalid. */
function returnItem(ctx: SpContext, order: McfOrder, raw: Body): ReturnCheck {
  if (statusAt(order, ctx.at).status !== 'Complete')
    return { invalid: 'NoCompletedShipItems', reason: 'The fulfillment order has no shipped items.' };
  const fields = ['sellerReturnItemId', 'sellerFulfillmentOrderItemId', 'amazonShipmentId', 'returnReasonCode'];
  const missing = fields.find((f) => typeof raw?.[f] !== 'string' || raw[f] === '');
  if (missing) return { invalid: 'InvalidValues', reason: `${missing} is required.` };
  const item = order.items.find((i) => i.sellerFulfillmentOrderItemId === raw.sellerFulfillmentOrderItemId);
  if (!item || raw.amazonShipmentId !== order.amazonShipmentId)
    return { invalid: 'InvalidValues', reason: 'The item was not shipped in that shipment.' };
  if (!REASON_CODES.some((c) => c.returnReasonCode === raw.returnReasonCode))
    return { invalid: 'InvalidValues', reason: `Invalid returnReasonCode ${String(raw.returnReasonCode)}.` };
  const same = order.returns.find((r) => r.sellerReturnItemId === raw.sellerReturnItemId);
  if (same)
    return same.sellerFulfillmentOrderItemId === item.sellerFulfillmentOrderItemId
      ? { ok: same }
      : {
          invalid: 'DuplicateRequest',
          reason: `sellerReturnItemId ${String(raw.sellerReturnItemId)} was already used.`,
        };
  if (
    order.returns.filter((r) => r.sellerFulfillmentOrderItemId === item.sellerFulfillmentOrderItemId).length >=
    item.quantity
  )
    return { invalid: 'NoReturnableQuantity', reason: 'Every shipped unit of the item was already returned.' };
  order.authorization ??= authorization(ctx.seller, order);
  const made: McfReturn = {
    sellerReturnItemId: requiredString(raw.sellerReturnItemId, 'sellerReturnItemId', 80),
    sellerFulfillmentOrderItemId: item.sellerFulfillmentOrderItemId,
    amazonShipmentId: order.amazonShipmentId,
    sellerReturnReasonCode: String(raw.returnReasonCode),
    ...(typeof raw.returnComment === 'string' ? { returnComment: raw.returnComment.slice(0, 1000) } : {}),
    status: 'New',
    statusChangedDate: iso(ctx.at),
    returnAuthorizationId: String(order.authorization.returnAuthorizationId),
  };
  order.returns.push(made);
  return { ok: made };
}

/** createFulfillmentReturn: each item is a return item (one unit each) or an invalid one with its reason. */
export function createReturn(ctx: SpContext, orders: Map<string, McfOrder>) {
  const order = findOrder(orders, ctx.params[0]!);
  const items = bodyOf(ctx).items;
  if (!Array.isArray(items) || items.length === 0) throw invalidInput('items is required.');
  const checks = items.map((raw: Body) => ({ raw, check: returnItem(ctx, order, raw) }));
  const returnItems = checks.flatMap(({ check }) => ('ok' in check ? [check.ok] : []));
  const invalidReturnItems = checks.flatMap(({ raw, check }) =>
    'invalid' in check
      ? [
          {
            sellerReturnItemId: String(raw?.sellerReturnItemId ?? ''),
            sellerFulfillmentOrderItemId: String(raw?.sellerFulfillmentOrderItemId ?? ''),
            invalidItemReason: { invalidItemReasonCode: check.invalid, description: check.reason },
          },
        ]
      : [],
  );
  return {
    status: 200,
    body: {
      payload: {
        returnItems,
        invalidReturnItems,
        returnAuthorizations: returnItems.length > 0 && order.authorization ? [order.authorization] : [],
      },
    },
  };
}
