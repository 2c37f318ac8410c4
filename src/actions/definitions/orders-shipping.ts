import { z } from 'zod';
import { completed, define, type ActionContext, type ActionGroup } from './define.ts';
import { money } from './listings.ts';

/** An Amazon order id (3-7-7 digits). */
export const orderId = z.string().regex(/^\d{3}-\d{7}-\d{7}$/, 'an order id such as 113-1234567-1234567');
const shipmentId = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .describe('The Amazon Shipping shipment id purchaseShipment answered.');
/** A date and time with its offset (ISO 8601). */
export const isoDate = z.iso.datetime({ offset: true });
/** An order's item lines: each order item id once a line, with its quantity, at most `max` lines. */
export const orderItemLines = (max: number) =>
  z
    .array(
      z
        .object({
          orderItemId: z.string().regex(/^\d{14}$/, 'a 14-digit order item id'),
          quantity: z.number().int().min(1).max(999),
        })
        .strict(),
    )
    .min(1)
    .max(max);

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
    items: orderItemLines(50),
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
 * The Amazon Shipping v2 types, the API that rates, buys labels for and cancels shipments of Amazon orders: getRates,
 * purchaseShipment (the cheapest rate of the services asked for), getShipmentDocuments and cancelShipment.
 */
export const ordersShippingActions: ActionGroup = {
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
};
