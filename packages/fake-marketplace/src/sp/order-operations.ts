import { createHash } from 'node:crypto';
import { invalidInput, SpError } from './sp-error.ts';
import { listParam, type SpContext, type SpRoute } from './sp-routes.ts';
import { requireOrderId, shippingRoutes } from './shipping-operations.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The order, shipping and tracking operations of the action types: confirmShipment (Orders v0),
 * createProductReviewAndSellerFeedbackSolicitation (Solicitations v1), the Amazon Shipping v2 operations of
 * shipping-operations.ts, createSubscription (Notifications v1). Orders the fake did not generate are accepted when
 * their id is well formed; shipments, quotes and subscriptions are kept per seller.
 */
export function orderRoutes(): SpRoute[] {
  const confirmed = new Map<string, Set<string>>();
  const solicited = new Set<string>();
  const subscriptions = new Map<string, string>();

  /** confirmShipment: 204; the same package reference confirmed twice for an order is refused. */
  function confirmShipment(ctx: SpContext) {
    const orderId = requireOrderId(ctx.params[0]);
    const body = ctx.body as { marketplaceId?: unknown; packageDetail?: Record<string, unknown> } | undefined;
    if (body?.marketplaceId !== ctx.seller.marketplaceId) throw invalidInput('marketplaceId is missing or invalid.');
    const p = body.packageDetail;
    const missing = ['packageReferenceId', 'carrierCode', 'trackingNumber', 'shipDate', 'orderItems'].filter(
      (k) => p?.[k] === undefined || p[k] === '',
    );
    if (!p || missing.length > 0)
      throw invalidInput(`packageDetail is missing ${missing.join(', ') || 'packageDetail'}.`);
    if (Number.isNaN(Date.parse(String(p.shipDate)))) throw invalidInput('shipDate must be an ISO 8601 date-time.');
    const items = p.orderItems as { orderItemId?: unknown; quantity?: unknown }[];
    if (
      !Array.isArray(items) ||
      items.length === 0 ||
      items.some(
        (i) => typeof i.orderItemId !== 'string' || !Number.isInteger(i.quantity) || (i.quantity as number) < 1,
      )
    )
      throw invalidInput('orderItems must list orderItemId and a positive quantity.');
    const packages = confirmed.get(orderId) ?? confirmed.set(orderId, new Set()).get(orderId)!;
    if (packages.has(String(p.packageReferenceId)))
      throw invalidInput(`Package ${String(p.packageReferenceId)} was already confirmed for order ${orderId}.`);
    packages.add(String(p.packageReferenceId));
    return { status: 204, body: undefined };
  }

  /** createProductReviewAndSellerFeedbackSolicitation: 201 once per order; a second request is refused. */
  function solicit(ctx: SpContext) {
    const orderId = requireOrderId(ctx.params[0]);
    if (!listParam(ctx, 'marketplaceIds').includes(ctx.seller.marketplaceId))
      throw invalidInput('marketplaceIds is required.');
    if (solicited.has(orderId))
      throw invalidInput(`A productReviewAndSellerFeedback solicitation was already sent for order ${orderId}.`);
    solicited.add(orderId);
    return { status: 201, body: {} };
  }

  /**
   * createSubscription: SHIPMENT_TRACKING_MILESTONE_CHANGED needs exactly one tracking identifier; one subscription per
   * identifier and destination.
   */
  function subscribe(ctx: SpContext) {
    const type = ctx.params[0]!;
    const body = ctx.body as
      | {
          payloadVersion?: unknown;
          destinationId?: unknown;
          processingDirective?: {
            eventFilter?: { eventFilterType?: unknown; trackingIdentifier?: Record<string, unknown> };
          };
        }
      | undefined;
    if (typeof body?.payloadVersion !== 'string' || typeof body.destinationId !== 'string')
      throw invalidInput('payloadVersion and destinationId are required.');
    if (!UUID.test(body.destinationId))
      throw new SpError(404, 'NotFound', `Destination ${body.destinationId} was not found.`);
    let key = `${ctx.seller.sellerId}/${type}/${body.destinationId}`;
    if (type === 'SHIPMENT_TRACKING_MILESTONE_CHANGED') {
      const filter = body.processingDirective?.eventFilter;
      const id = filter?.trackingIdentifier ?? {};
      const fields = Object.entries(id).filter(([, v]) => v !== undefined);
      if (filter?.eventFilterType !== type || fields.length !== 1)
        throw invalidInput(
          'eventFilter with eventFilterType SHIPMENT_TRACKING_MILESTONE_CHANGED and exactly one trackingIdentifier field is required.',
        );
      if (ctx.seller.countryCode !== 'US')
        throw invalidInput('Shipment tracking notifications are available in the US only.');
      key += `/${createHash('sha1').update(JSON.stringify(fields)).digest('hex')}`;
    }
    if (subscriptions.has(key))
      throw new SpError(
        409,
        'Conflict',
        `A subscription for this notification type and destination already exists: ${subscriptions.get(key)}.`,
      );
    const subscriptionId = crypto.randomUUID();
    subscriptions.set(key, subscriptionId);
    return {
      status: 200,
      body: {
        payload: {
          subscriptionId,
          payloadVersion: body.payloadVersion,
          destinationId: body.destinationId,
          ...(body.processingDirective ? { processingDirective: body.processingDirective } : {}),
        },
      },
    };
  }

  return [
    {
      method: 'POST',
      pattern: /^\/orders\/v0\/orders\/([^/]+)\/shipmentConfirmation$/,
      operation: 'confirmShipment',
      handler: confirmShipment,
    },
    {
      method: 'POST',
      pattern: /^\/solicitations\/v1\/orders\/([^/]+)\/solicitations\/productReviewAndSellerFeedback$/,
      operation: 'createProductReviewAndSellerFeedbackSolicitation',
      handler: solicit,
    },
    ...shippingRoutes(),
    {
      method: 'POST',
      pattern: /^\/notifications\/v1\/subscriptions\/([A-Z_]+)$/,
      operation: 'createSubscription',
      handler: subscribe,
    },
  ];
}
