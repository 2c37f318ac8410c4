import { z } from 'zod';
import { ConnectorError } from '../../connectors/connector-error.ts';
import { batchOutcome, completed, define, type ActionGroup } from './define.ts';
import { isoDate, orderId, orderItemLines, ordersShippingActions } from './orders-shipping.ts';
import { onlyWhen, requiredWhen, ruled } from './rules.ts';

/**
 * The order, shipping and tracking types: confirmShipment (Orders v0), createProductReviewAndSellerFeedbackSolicitation
 * (Solicitations v1), the Amazon Shipping v2 types of orders-shipping.ts, and createSubscription (Notifications v1, type
 * SHIPMENT_TRACKING_MILESTONE_CHANGED, one subscription per tracking identifier, hence a batch outcome).
 */
export const ordersActions: ActionGroup = {
  MKT_ORDERS_CONFIRM_SHIPMENT: define(
    ruled(
      z
        .object({
          orderId,
          packageReferenceId: z.string().regex(/^[1-9]\d{0,8}$/, 'a positive integer as text, unique per order'),
          carrierCode: z
            .string()
            .trim()
            .min(1)
            .max(50)
            .describe('The carrier code, e.g. UPS, USPS, FedEx, or Other (then give carrierName).'),
          carrierName: z.string().trim().min(1).max(50).optional(),
          shippingMethod: z.string().trim().min(1).max(100).optional(),
          trackingNumber: z.string().trim().min(1).max(50),
          shipDate: isoDate,
          items: orderItemLines(100),
        })
        .strict(),
      requiredWhen('carrierName', 'carrierCode', ['Other'], 'is required when carrierCode is Other'),
    ).meta({
      examples: [
        {
          orderId: '113-4419825-7310652',
          packageReferenceId: '1',
          carrierCode: 'UPS',
          shippingMethod: 'UPS Ground',
          trackingNumber: '1Z999AA10123456784',
          shipDate: '2025-03-01T10:00:00Z',
          items: [{ orderItemId: '60192733418025', quantity: 1 }],
        },
      ],
    }),
    async (ctx, d) => {
      await ctx.sp().request<unknown>('confirmShipment', {
        method: 'POST',
        path: `/orders/v0/orders/${encodeURIComponent(d.orderId)}/shipmentConfirmation`,
        body: {
          marketplaceId: ctx.marketplaceId,
          packageDetail: {
            packageReferenceId: d.packageReferenceId,
            carrierCode: d.carrierCode,
            ...(d.carrierName ? { carrierName: d.carrierName } : {}),
            ...(d.shippingMethod ? { shippingMethod: d.shippingMethod } : {}),
            trackingNumber: d.trackingNumber,
            shipDate: d.shipDate,
            orderItems: d.items,
          },
        },
      });
      return completed({ orderId: d.orderId, packageReferenceId: d.packageReferenceId, confirmed: true });
    },
  ),
  MKT_ORDERS_SOLICITATION_FEEDBACK_SEND: define(
    z
      .object({ orderId })
      .strict()
      .meta({ examples: [{ orderId: '113-4419825-7310652' }] }),
    async (ctx, d) => {
      await ctx.sp().request<unknown>('createProductReviewAndSellerFeedbackSolicitation', {
        method: 'POST',
        path: `/solicitations/v1/orders/${encodeURIComponent(d.orderId)}/solicitations/productReviewAndSellerFeedback`,
        query: { marketplaceIds: ctx.marketplaceId },
      });
      return completed({ orderId: d.orderId, solicitation: 'productReviewAndSellerFeedback', sent: true });
    },
  ),
  ...ordersShippingActions,
  MKT_SHIPMENT_TRACKING_SUBSCRIBE: define(
    z
      .object({
        destinationId: z
          .uuid()
          .describe('The Notifications API destination (createDestination) the milestones are delivered to.'),
        trackingIds: z
          .array(
            ruled(
              z
                .object({
                  kind: z
                    .enum(['id', 'aftn', 'acsin', 'containerNumber', 'houseBillOfLadingNumber', 'carrierTracking'])
                    .describe('Which identifier this is (Tracking API 2026-01-30).'),
                  value: z.string().trim().min(1).max(100),
                  carrierCode: z.string().trim().min(1).max(50).optional().describe('With kind carrierTracking only.'),
                })
                .strict(),
              onlyWhen('carrierCode', 'kind', ['carrierTracking'], 'only with kind carrierTracking'),
            ),
          )
          .min(1)
          .max(20)
          .describe('One subscription is made per identifier (US only).'),
      })
      .strict()
      .meta({
        examples: [
          {
            destinationId: '3acafc7e-121b-1329-8ae8-1571be663aa2',
            trackingIds: [
              { kind: 'aftn', value: 'AFTN987654321' },
              { kind: 'carrierTracking', value: '1Z999AA10123456784', carrierCode: 'UPS' },
            ],
          },
        ],
      }),
    async (ctx, d) => {
      const items = [];
      for (const t of d.trackingIds) {
        const trackingIdentifier =
          t.kind === 'carrierTracking'
            ? { carrierTracking: { trackingNumber: t.value, ...(t.carrierCode ? { carrierCode: t.carrierCode } : {}) } }
            : { [t.kind]: t.value };
        try {
          const { body } = await ctx.sp().request<{ payload: { subscriptionId: string } }>('createSubscription', {
            method: 'POST',
            path: '/notifications/v1/subscriptions/SHIPMENT_TRACKING_MILESTONE_CHANGED',
            body: {
              payloadVersion: '2026-01-30',
              destinationId: d.destinationId,
              processingDirective: {
                eventFilter: { eventFilterType: 'SHIPMENT_TRACKING_MILESTONE_CHANGED', trackingIdentifier },
              },
            },
          });
          items.push({ ok: true, trackingId: t, subscriptionId: body.payload.subscriptionId });
        } catch (error) {
          if (!(error instanceof ConnectorError) || !['invalid-input', 'not-found'].includes(error.kind)) throw error;
          items.push({
            ok: false,
            invalid: true,
            trackingId: t,
            error: { status: error.status, code: error.code, message: error.message },
          });
        }
      }
      return batchOutcome(items, { items });
    },
  ),
};
