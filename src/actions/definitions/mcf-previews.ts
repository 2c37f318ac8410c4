import { z } from 'zod';
import { completed, define, type ActionGroup } from './define.ts';
import { sku } from './listings.ts';
import { patternWhen, relation, ruled } from './rules.ts';

/**
 * The Fulfillment Outbound API's base path (models/fulfillment-outbound-api-model/fulfillmentOutbound_2020-07-01.json).
 */
export const MCF = '/fba/outbound/2020-07-01';

/** A seller's fulfillment order id (sellerFulfillmentOrderId: 1 to 40 characters, never two spaces in a row). */
export const orderId = z
  .string()
  .trim()
  .min(1)
  .max(40)
  .regex(/^(?!.* {2})[\x20-\x7E\u00A0-\u00FF]+$/, 'ISO 8859-1 characters without two spaces in a row')
  .describe('sellerFulfillmentOrderId: the id the seller gave the multi-channel fulfillment order.');
/** Shipping speeds outside Japan (ScheduledDelivery is JP only). */
export const speed = z.enum(['Standard', 'Expedited', 'Priority']);
const text = (max: number) => z.string().trim().min(1).max(max);

/**
 * A destination address (the upstream Address): name, first line, city, state or region, postal code and country are
 * required.
 */
export const address = ruled(
  z
    .object({
      name: text(50),
      addressLine1: text(60),
      addressLine2: text(60).optional(),
      addressLine3: text(60).optional(),
      city: text(50),
      districtOrCounty: text(50).optional(),
      stateOrRegion: text(50).describe('State or region; a two-letter state code in the US.'),
      postalCode: text(20),
      countryCode: z.string().regex(/^[A-Z]{2}$/, 'an ISO 3166-1 alpha-2 code such as US'),
      phone: z
        .string()
        .trim()
        .regex(/^\+?[0-9 ()./-]{5,20}$/, 'a phone number')
        .optional(),
    })
    .strict(),
  patternWhen('postalCode', /^\d{5}(-\d{4})?$/, 'countryCode', ['US'], 'a US ZIP code such as 97205 or 97205-1234'),
  patternWhen('stateOrRegion', /^[A-Z]{2}$/, 'countryCode', ['US'], 'a two-letter US state code such as OR'),
);

export const FEATURE_NAMES = ['BLOCK_AMZL', 'BLANK_BOX', 'OVERBOX', 'PACKING_SLIP', 'SIGNATURE_CONFIRMATION'] as const;
/** featureConstraints: features to apply to an order and whether each is required. */
export const featureConstraints = z
  .array(z.object({ featureName: z.enum(FEATURE_NAMES), required: z.boolean() }).strict())
  .min(1)
  .max(5)
  .describe('Features to apply (BLANK_BOX, BLOCK_AMZL, …); required false means apply when possible.');
export const toFeatureSettings = (list: { featureName: string; required: boolean }[] | undefined) =>
  list?.map((f) => ({ featureName: f.featureName, featureFulfillmentPolicy: f.required ? 'Required' : 'NotRequired' }));

type UpstreamMoney = { currencyCode: string; value: string };
const money = (m: UpstreamMoney) => ({ amount: Number(m.value), currency: m.currencyCode });

interface Preview {
  shippingSpeedCategory: string;
  isFulfillable: boolean;
  estimatedFees?: { name: string; amount: UpstreamMoney }[];
  fulfillmentPreviewShipments?: {
    earliestShipDate?: string;
    latestShipDate?: string;
    earliestArrivalDate?: string;
    latestArrivalDate?: string;
    fulfillmentPreviewItems: { sellerSku: string; quantity: number }[];
  }[];
  unfulfillablePreviewItems?: { sellerSku: string; quantity: number; itemUnfulfillableReasons?: string[] }[];
  orderUnfulfillableReasons?: string[];
}

/** A fulfillment preview, trimmed: fees as money, the shipments' dates and items, what cannot be fulfilled and why. */
const previewResult = (p: Preview) => ({
  shippingSpeedCategory: p.shippingSpeedCategory,
  isFulfillable: p.isFulfillable,
  estimatedFees: (p.estimatedFees ?? []).map((f) => ({ name: f.name, amount: money(f.amount) })),
  shipments: (p.fulfillmentPreviewShipments ?? []).map((s) => ({
    earliestShipDate: s.earliestShipDate ?? null,
    latestShipDate: s.latestShipDate ?? null,
    earliestArrivalDate: s.earliestArrivalDate ?? null,
    latestArrivalDate: s.latestArrivalDate ?? null,
    items: s.fulfillmentPreviewItems.map((i) => ({ sku: i.sellerSku, quantity: i.quantity })),
  })),
  unfulfillableItems: (p.unfulfillablePreviewItems ?? []).map((i) => ({
    sku: i.sellerSku,
    quantity: i.quantity,
    reasons: i.itemUnfulfillableReasons ?? [],
  })),
  orderUnfulfillableReasons: p.orderUnfulfillableReasons ?? [],
});

/** The address the MCF types' examples ship to. */
export const exampleAddress = {
  name: 'Sam Rivera',
  addressLine1: '742 Evergreen Terrace',
  city: 'Portland',
  stateOrRegion: 'OR',
  postalCode: '97205',
  countryCode: 'US',
};

/**
 * The multi-channel fulfillment look-ups (Fulfillment Outbound API 2020-07-01): getFulfillmentPreview,
 * deliveryOffers, getFeatures, getFeatureSKU and listReturnReasonCodes.
 */
export const mcfPreviewActions: ActionGroup = {
  MKT_MCF_ORDERS_PREVIEW: define(
    ruled(
      z
        .object({
          address,
          items: z
            .array(z.object({ sku, quantity: z.number().int().min(1).max(10_000) }).strict())
            .min(1)
            .max(100),
          shippingSpeedCategories: z
            .array(speed)
            .min(1)
            .max(3)
            .optional()
            .describe('Without, a preview for each of Standard, Expedited and Priority.'),
          featureConstraints: featureConstraints.optional(),
        })
        .strict(),
      relation(
        (d) => new Set(d.items.map((i) => i.sku)).size === d.items.length,
        'each line has its own sku',
        'each SKU once',
        ['items'],
      ),
    ).meta({
      examples: [
        {
          address: exampleAddress,
          items: [{ sku: 'ACM-PACK-DAY-BLK', quantity: 2 }],
          shippingSpeedCategories: ['Standard', 'Expedited'],
        },
      ],
    }),
    async (ctx, d) => {
      const { body } = await ctx
        .sp()
        .request<{ payload: { fulfillmentPreviews?: Preview[] } }>('getFulfillmentPreview', {
          method: 'POST',
          path: `${MCF}/fulfillmentOrders/preview`,
          body: {
            marketplaceId: ctx.marketplaceId,
            address: d.address,
            items: d.items.map((i, n) => ({
              sellerSku: i.sku,
              quantity: i.quantity,
              sellerFulfillmentOrderItemId: String(n + 1),
            })),
            ...(d.shippingSpeedCategories ? { shippingSpeedCategories: d.shippingSpeedCategories } : {}),
            ...(d.featureConstraints ? { featureConstraints: toFeatureSettings(d.featureConstraints) } : {}),
          },
        });
      return completed({ previews: (body.payload.fulfillmentPreviews ?? []).map(previewResult) });
    },
  ),
  MKT_MCF_DELIVERY_OFFERS_PREVIEW: define(
    z
      .object({
        sku,
        quantity: z.number().int().min(1).max(10_000).default(1),
        originCountryCode: z
          .string()
          .regex(/^[A-Z]{2}$/)
          .optional()
          .describe('Where the items ship from; the destination country when not given.'),
        destination: z
          .object({
            postalCode: text(20),
            countryCode: z.string().regex(/^[A-Z]{2}$/, 'an ISO 3166-1 alpha-2 code such as US'),
            addressLine1: text(60).optional(),
            city: text(50).optional(),
            stateOrRegion: text(50).optional(),
          })
          .strict(),
      })
      .strict()
      .meta({ examples: [{ sku: 'ACM-PACK-DAY-BLK', destination: { postalCode: '97205', countryCode: 'US' } }] }),
    async (ctx, d) => {
      const { body } = await ctx.sp().request<{
        payload: {
          deliveryOffers?: {
            expiresAt?: string;
            dateRange?: { earliest: string; latest: string };
            policy?: { message?: { text?: string; locale?: string } };
          }[];
        };
      }>('deliveryOffers', {
        method: 'POST',
        path: `${MCF}/deliveryOffers`,
        body: {
          product: {
            productIdentifier: { merchantSku: d.sku },
            amount: { unitOfMeasure: 'Eaches', value: String(d.quantity) },
          },
          terms: {
            origin: { countryCode: d.originCountryCode ?? d.destination.countryCode },
            destination: { deliveryAddress: d.destination },
          },
        },
      });
      const offers = (body.payload.deliveryOffers ?? []).map((o) => ({
        expiresAt: o.expiresAt ?? null,
        earliest: o.dateRange?.earliest ?? null,
        latest: o.dateRange?.latest ?? null,
        message: o.policy?.message?.text ?? null,
      }));
      return completed({ deliveryOffers: offers });
    },
  ),
  MKT_MCF_FEATURES_MARKETPLACE_FIND: define(
    z
      .object({})
      .strict()
      .meta({ examples: [{}] }),
    async (ctx) => {
      const { body } = await ctx.sp().request<{ payload: { features: unknown[] } }>('getFeatures', {
        method: 'GET',
        path: `${MCF}/features`,
        query: { marketplaceId: ctx.marketplaceId },
      });
      return completed({ features: body.payload.features });
    },
  ),
  MKT_MCF_FEATURES_SKU_FIND: define(
    z
      .object({ featureName: z.enum(FEATURE_NAMES), sku })
      .strict()
      .meta({ examples: [{ featureName: 'BLANK_BOX', sku: 'ACM-PACK-DAY-BLK' }] }),
    async (ctx, d) => {
      const { body } = await ctx.sp().request<{ payload: Record<string, unknown> }>('getFeatureSKU', {
        method: 'GET',
        path: `${MCF}/features/inventory/${encodeURIComponent(d.featureName)}/${encodeURIComponent(d.sku)}`,
        query: { marketplaceId: ctx.marketplaceId },
      });
      return completed(body.payload);
    },
  ),
  MKT_MCF_RETURNS_REASON_CODES_FIND: define(
    z
      .object({
        sku,
        sellerFulfillmentOrderId: orderId.optional(),
        language: z
          .string()
          .regex(/^[a-z]{2}_[A-Z]{2}$/, 'a language tag such as en_US')
          .optional()
          .describe('Adds each description translated into this language.'),
      })
      .strict()
      .meta({ examples: [{ sku: 'ACM-PACK-DAY-BLK', sellerFulfillmentOrderId: 'MCF-DEMO-0001', language: 'en_US' }] }),
    async (ctx, d) => {
      const { body } = await ctx.sp().request<{ payload: { reasonCodeDetails?: unknown[] } }>('listReturnReasonCodes', {
        method: 'GET',
        path: `${MCF}/returnReasonCodes`,
        query: {
          sellerSku: d.sku,
          marketplaceId: ctx.marketplaceId,
          sellerFulfillmentOrderId: d.sellerFulfillmentOrderId,
          language: d.language,
        },
      });
      return completed({ reasonCodeDetails: body.payload.reasonCodeDetails ?? [] });
    },
  ),
};
