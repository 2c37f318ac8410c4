import { z } from 'zod';
import { ConnectorError } from '../../connectors/connector-error.ts';
import { batchOutcome, completed, define, type ActionContext, type ActionGroup } from './define.ts';
import { money } from './listings.ts';

const orderId = z.string().regex(/^\d{3}-\d{7}-\d{7}$/, 'an order id such as 113-1234567-1234567');
const shipmentId = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .describe('The Amazon Shipping shipment id purchaseShipment answered.');
const isoDate = z.iso.datetime({ offset: true });

const address = z
  .object({
    name: z.string().trim().min(1).max(50),
    addressLine1: z.string().trim().min(1).max(60),
    addressLine2: z.string().trim().min(1).max(60).optional(),
    city: z.string().trim().min(1).max(50),
    stateOrRegion: z.string().trim().min(1).max(50),
    postalCode: z.string().trim().min(1).max(20),
    countryCode: z.string().regex(/^[A-Z]{2}$/, 'an ISO 3166 country code such as US'),
    phoneNumber: z.string().trim().min(1).max(20).optional(),
  })
  .strict();

const parcel = z
  .object({
    packageClientReferenceId: z
      .string()
      .trim()
      .min(1)
      .max(40)
      .describe('Your reference of the package: documents are fetched by it.'),
    lengthIn: z.number().positive().max(108),
    widthIn: z.number().positive().max(108),
    heightIn: z.number().positive().max(108),
    weightLb: z.number().positive().max(150),
    insuredValue: money,
    items: z
      .array(
        z
          .object({
            orderItemId: z.string().regex(/^\d{14}$/, 'a 14-digit order item id'),
            quantity: z.number().int().min(1).max(999),
          })
          .strict(),
      )
      .min(1)
      .max(50),
  })
  .strict();

/** What Amazon Shipping v2 getRates needs for an order: where from, the packages, the order. */
const ratesInput = z
  .object({ orderId, shipFrom: address, packages: z.array(parcel).min(1).max(1), shipDate: isoDate.optional() })
  .strict();
type RatesInput = z.output<typeof ratesInput>;

const RATES_EXAMPLE = {
  orderId: '113-4419825-7310652',
  shipFrom: {
    name: 'Acme Outdoor Warehouse',
    addressLine1: '1200 Industrial Way',
    city: 'Reno',
    stateOrRegion: 'NV',
    postalCode: '89502',
    countryCode: 'US',
  },
  packages: [
    {
      packageClientReferenceId: 'PKG-1',
      lengthIn: 14,
      widthIn: 10,
      heightIn: 6,
      weightLb: 2.5,
      insuredValue: { amount: 44.99, currency: 'USD' },
      items: [{ orderItemId: '60192733418025', quantity: 1 }],
    },
  ],
};

interface Rate {
  rateId: string;
  carrierId: string;
  carrierName: string;
  serviceId: string;
  serviceName: string;
  totalCharge: { value: number; unit: string };
  promise: unknown;
  requiresAdditionalInputs: boolean;
}

/** getRates (Amazon Shipping v2) for an Amazon order: the rates and the request token a purchase needs. */
async function getRates(ctx: ActionContext, d: RatesInput) {
  const { body } = await ctx
    .sp()
    .request<{ payload: { requestToken: string; rates: Rate[]; ineligibleRates?: unknown[] } }>('getRates', {
      method: 'POST',
      path: '/shipping/v2/shipments/rates',
      body: {
        shipFrom: d.shipFrom,
        ...(d.shipDate ? { shipDate: d.shipDate } : {}),
        packages: d.packages.map((p) => ({
          packageClientReferenceId: p.packageClientReferenceId,
          dimensions: { length: p.lengthIn, width: p.widthIn, height: p.heightIn, unit: 'INCH' },
          weight: { value: p.weightLb, unit: 'POUND' },
          insuredValue: { value: p.insuredValue.amount, unit: p.insuredValue.currency },
          items: p.items.map((i) => ({ itemIdentifier: i.orderItemId, quantity: i.quantity })),
        })),
        channelDetails: { channelType: 'AMAZON', amazonOrderDetails: { orderId: d.orderId } },
      },
    });
  return body.payload;
}

const trimRate = (r: Rate) => ({
  rateId: r.rateId,
  carrierId: r.carrierId,
  carrierName: r.carrierName,
  serviceId: r.serviceId,
  serviceName: r.serviceName,
  totalCharge: { amount: r.totalCharge.value, currency: r.totalCharge.unit },
  promise: r.promise,
});

const labelFormat = z.enum(['PDF', 'PNG', 'ZPL']).default('PDF');

/**
 * The order, shipping and tracking types: confirmShipment (Orders v0), createProductReviewAndSellerFeedbackSolicitation
 * (Solicitations v1), getRates / purchaseShipment / getShipmentDocuments / cancelShipment (Amazon Shipping v2, the API
 * that rates, buys labels for and cancels shipments of Amazon orders), and createSubscription (Notifications v1, type
 * SHIPMENT_TRACKING_MILESTONE_CHANGED, one subscription per tracking identifier, hence a batch outcome).
 */
export const ordersActions: ActionGroup = {
  MKT_ORDERS_CONFIRM_SHIPMENT: define(
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
        items: z
          .array(
            z
              .object({
                orderItemId: z.string().regex(/^\d{14}$/, 'a 14-digit order item id'),
                quantity: z.number().int().min(1).max(999),
              })
              .strict(),
          )
          .min(1)
          .max(100),
      })
      .strict()
      .refine((d) => d.carrierCode !== 'Other' || d.carrierName !== undefined, {
        message: 'is required when carrierCode is Other',
        path: ['carrierName'],
      })
      .meta({
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
  MKT_ORDERS_GET_SHIPPING_RATES: define(ratesInput.meta({ examples: [RATES_EXAMPLE] }), async (ctx, d) => {
    const answer = await getRates(ctx, d);
    return completed({
      requestToken: answer.requestToken,
      rates: answer.rates.map(trimRate),
      ineligibleRates: answer.ineligibleRates ?? [],
    });
  }),
  MKT_ORDERS_CREATE_SHIPMENT: define(
    ratesInput
      .extend({
        serviceIds: z
          .array(z.string().trim().min(1).max(50))
          .min(1)
          .max(10)
          .optional()
          .describe(
            'Buy the cheapest rate among these services (as GET_SHIPPING_RATES names them); without, the cheapest rate.',
          ),
        labelFormat,
      })
      .strict()
      .meta({ examples: [{ ...RATES_EXAMPLE, serviceIds: ['UPS_GROUND'], labelFormat: 'PDF' }] }),
    async (ctx, d) => {
      const answer = await getRates(ctx, d);
      const rate = answer.rates
        .filter((r) => !r.requiresAdditionalInputs && (!d.serviceIds || d.serviceIds.includes(r.serviceId)))
        .sort((a, b) => a.totalCharge.value - b.totalCharge.value)[0];
      if (!rate)
        return {
          status: 'BLOCKED_INVALID_INPUT',
          result: { rates: answer.rates.map(trimRate) },
          error: {
            status: 400,
            code: 'NO_RATE',
            message: 'no rate of the requested services is available for this shipment',
          },
        };
      const { body } = await ctx.sp().request<{
        payload: {
          shipmentId: string;
          packageDocumentDetails: {
            packageClientReferenceId: string;
            trackingId?: string;
            packageDocuments: { type: string; format: string; contents: string }[];
          }[];
          promise: unknown;
        };
      }>('purchaseShipment', {
        method: 'POST',
        path: '/shipping/v2/shipments',
        body: {
          requestToken: answer.requestToken,
          rateId: rate.rateId,
          requestedDocumentSpecification: {
            format: d.labelFormat,
            size: { width: 4, length: 6, unit: 'INCH' },
            needFileJoining: false,
            requestedDocumentTypes: ['LABEL'],
          },
        },
      });
      return completed({
        shipmentId: body.payload.shipmentId,
        rate: trimRate(rate),
        packages: body.payload.packageDocumentDetails,
        promise: body.payload.promise,
      });
    },
  ),
  MKT_ORDERS_GET_SHIPMENT_DOCS: define(
    z
      .object({ shipmentId, packageClientReferenceId: z.string().trim().min(1).max(40), format: labelFormat })
      .strict()
      .meta({ examples: [{ shipmentId: '87852211788104', packageClientReferenceId: 'PKG-1', format: 'PDF' }] }),
    async (ctx, d) => {
      const { body } = await ctx.sp().request<{ payload: Record<string, unknown> }>('getShipmentDocuments', {
        method: 'GET',
        path: `/shipping/v2/shipments/${encodeURIComponent(d.shipmentId)}/documents`,
        query: { packageClientReferenceId: d.packageClientReferenceId, format: d.format },
      });
      return completed(body.payload);
    },
  ),
  MKT_ORDERS_CANCEL_SHIPMENT: define(
    z
      .object({ shipmentId })
      .strict()
      .meta({ examples: [{ shipmentId: '87852211788105' }] }),
    async (ctx, d) => {
      await ctx.sp().request<unknown>('cancelShipment', {
        method: 'PUT',
        path: `/shipping/v2/shipments/${encodeURIComponent(d.shipmentId)}/cancel`,
      });
      return completed({ shipmentId: d.shipmentId, canceled: true });
    },
  ),
  MKT_SHIPMENT_TRACKING_SUBSCRIBE: define(
    z
      .object({
        destinationId: z
          .uuid()
          .describe('The Notifications API destination (createDestination) the milestones are delivered to.'),
        trackingIds: z
          .array(
            z
              .object({
                kind: z
                  .enum(['id', 'aftn', 'acsin', 'containerNumber', 'houseBillOfLadingNumber', 'carrierTracking'])
                  .describe('Which identifier this is (Tracking API 2026-01-30).'),
                value: z.string().trim().min(1).max(100),
                carrierCode: z.string().trim().min(1).max(50).optional().describe('With kind carrierTracking only.'),
              })
              .strict()
              .refine((t) => t.kind === 'carrierTracking' || t.carrierCode === undefined, {
                message: 'only with kind carrierTracking',
                path: ['carrierCode'],
              }),
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
