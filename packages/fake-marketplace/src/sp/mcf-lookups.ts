import { inventorySummaries } from '../data/fba-inventory.ts';
import {
  checkAddress,
  fbaListing,
  iso,
  mcfFeeCents,
  oneOf,
  oversize,
  requiredString,
  shipDates,
  SPEEDS,
} from './mcf-orders.ts';
import { invalidInput } from './sp-error.ts';
import { listParam, type SpContext, type SpRoute } from './sp-routes.ts';

/** The return reason codes listReturnReasonCodes answers (the model's example). */
export const REASON_CODES = [
  { returnReasonCode: 'CR-UNWANTED_ITEM', description: 'No longer needed/wanted' },
  { returnReasonCode: 'AMZ-PG-BAD-DESC', description: 'Different from website description' },
  { returnReasonCode: 'CR-DEFECTIVE', description: 'Defective/Does not work properly' },
  { returnReasonCode: 'CR-ORDERED_WRONG_ITEM', description: 'Accidental order' },
  { returnReasonCode: 'CR-FOUND_BETTER_PRICE', description: 'Better price available' },
  { returnReasonCode: 'CR-DAMAGED_BY_FC', description: 'Damaged due to inappropriate packaging' },
  { returnReasonCode: 'CR-MISSED_ESTIMATED_DELIVERY', description: 'Missed estimated delivery date' },
  { returnReasonCode: 'CR-MISSING_PARTS', description: 'Missing parts or accessories' },
  { returnReasonCode: 'CR-DAMAGED_BY_CARRIER', description: 'Damaged during shipping' },
  { returnReasonCode: 'CR-SWITCHEROO', description: 'Different from what was ordered' },
  { returnReasonCode: 'CR-EXTRA_ITEM', description: 'Arrived in addition to what was ordered' },
  { returnReasonCode: 'CR-UNAUTHORIZED_PURCHASE', description: 'Unauthorized purchase' },
];

/** The MCF features: the demo sellers are enrolled in all but OVERBOX; signature confirmation is US only. */
const FEATURES = [
  {
    featureName: 'BLOCK_AMZL',
    featureDescription: 'Blocks orders from being shipped using Amazon Logistics (AMZL).',
    enrolled: true,
  },
  {
    featureName: 'BLANK_BOX',
    featureDescription: 'Provides the ability to ship in non-Amazon branded packaging (blank boxes).',
    enrolled: true,
  },
  {
    featureName: 'OVERBOX',
    featureDescription: 'Ships items in an overbox rather than in their original product packaging.',
    enrolled: false,
  },
  {
    featureName: 'PACKING_SLIP',
    featureDescription: 'Provides the ability to insert customized packing slips with messages.',
    enrolled: true,
  },
  {
    featureName: 'SIGNATURE_CONFIRMATION',
    featureDescription: 'Requires a signature from the recipient upon delivery.',
    enrolled: true,
    usOnly: true,
  },
];

const money = (ctx: SpContext, cents: number) => ({
  currencyCode: ctx.seller.currency,
  value: (cents / 100).toFixed(2),
});

/** The `marketplaceId` query parameter: required, and the seller's. */
function marketplaceParam(ctx: SpContext): void {
  const id = listParam(ctx, 'marketplaceId')[0];
  if (id === undefined) throw invalidInput('marketplaceId is required.');
  if (id !== ctx.seller.marketplaceId) throw invalidInput(`Invalid marketplaceId ${id}.`);
}

/**
 * One preview per shipping speed: the FBA SKUs fulfillable in one shipment with their MCF fees, the others
 * unfulfillable (InvalidSKU).
 */
function preview(ctx: SpContext) {
  const body = (ctx.body ?? {}) as Record<string, unknown>;
  checkAddress(body.address, 'address');
  if (body.marketplaceId !== undefined && body.marketplaceId !== ctx.seller.marketplaceId)
    throw invalidInput(`Invalid marketplaceId ${String(body.marketplaceId)}.`);
  if (!Array.isArray(body.items) || body.items.length < 1 || body.items.length > 100)
    throw invalidInput('items must hold 1 to 100 items.');
  const items = (body.items as Record<string, unknown>[]).map((raw) => {
    const line = {
      sellerSku: requiredString(raw?.sellerSku, 'sellerSku', 50),
      quantity: raw.quantity as number,
      sellerFulfillmentOrderItemId: requiredString(
        raw.sellerFulfillmentOrderItemId,
        'sellerFulfillmentOrderItemId',
        50,
      ),
    };
    if (!Number.isInteger(line.quantity) || line.quantity < 1)
      throw invalidInput(`quantity for Item Id: ${line.sellerFulfillmentOrderItemId} must be a positive integer.`);
    return { line, listing: fbaListing(ctx.seller, line.sellerSku, ctx.at) };
  });
  const speeds =
    body.shippingSpeedCategories === undefined
      ? ['Standard', 'Expedited', 'Priority']
      : (body.shippingSpeedCategories as unknown[]).map((s) => oneOf(s, SPEEDS, 'shippingSpeedCategories'));
  const fulfillmentPreviews = speeds.map((speed) => {
    const scheduled = speed === 'ScheduledDelivery';
    const ok = scheduled ? [] : items.filter((i) => i.listing);
    const unfulfillable = items
      .filter((i) => !ok.includes(i))
      .map((i) => ({
        ...i.line,
        itemUnfulfillableReasons: [i.listing ? 'ScheduledDeliveryUnavailable' : 'InvalidSKU'],
      }));
    const { ship, arrival } = shipDates(speed, ctx.at);
    const fee = ok.reduce((sum, i) => sum + mcfFeeCents(ctx.seller, i.listing!, speed) * i.line.quantity, 0);
    return {
      shippingSpeedCategory: speed,
      isFulfillable: unfulfillable.length === 0,
      isCODCapable: false,
      marketplaceId: ctx.seller.marketplaceId,
      estimatedFees: ok.length > 0 ? [{ name: 'FBAPerUnitFulfillmentFee', amount: money(ctx, fee) }] : [],
      fulfillmentPreviewShipments:
        ok.length > 0
          ? [
              {
                earliestShipDate: iso(ship),
                latestShipDate: iso(ship),
                earliestArrivalDate: iso(arrival),
                latestArrivalDate: iso(arrival + 86_400_000),
                fulfillmentPreviewItems: ok.map((i) => ({
                  ...i.line,
                  shippingWeightCalculationMethod: oversize(i.listing!) ? 'Dimensional' : 'Package',
                })),
              },
            ]
          : [],
      unfulfillablePreviewItems: unfulfillable,
      ...(unfulfillable.length > 0
        ? { orderUnfulfillableReasons: [...new Set(unfulfillable.flatMap((u) => u.itemUnfulfillableReasons))] }
        : {}),
      ...(Array.isArray(body.featureConstraints) ? { featureConstraints: body.featureConstraints } : {}),
    };
  });
  return { status: 200, body: { payload: { fulfillmentPreviews } } };
}

/** deliveryOffers: one offer for an FBA SKU shipped from the seller's country, valid for an hour. */
function deliveryOffers(ctx: SpContext) {
  const body = (ctx.body ?? {}) as {
    product?: { productIdentifier?: { merchantSku?: unknown } };
    terms?: {
      origin?: { countryCode?: unknown };
      destination?: { deliveryAddress?: Record<string, unknown>; ipAddress?: unknown };
    };
  };
  const sku = requiredString(body.product?.productIdentifier?.merchantSku, 'product.productIdentifier.merchantSku', 50);
  const origin = requiredString(body.terms?.origin?.countryCode, 'terms.origin.countryCode', 2);
  const address = body.terms?.destination?.deliveryAddress;
  if (!address && typeof body.terms?.destination?.ipAddress !== 'string')
    throw invalidInput('terms.destination needs a deliveryAddress or an ipAddress.');
  if (address) {
    requiredString(address.postalCode, 'terms.destination.deliveryAddress.postalCode', 20);
    requiredString(address.countryCode, 'terms.destination.deliveryAddress.countryCode', 2);
  }
  if (origin !== ctx.seller.countryCode) throw invalidInput(`No fulfillment network inventory ships from ${origin}.`);
  if (!fbaListing(ctx.seller, sku, ctx.at)) throw invalidInput(`the merchantSku ${sku} is invalid.`);
  const { ship, arrival } = shipDates('Standard', ctx.at);
  const locale = ctx.seller.countryCode === 'US' ? 'en_US' : 'de_DE';
  const day = new Intl.DateTimeFormat(locale.replace('_', '-'), {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    timeZone: ctx.seller.timezone,
  }).format(ship + 2 * 86_400_000);
  const text = locale === 'en_US' ? `Get it as soon as ${day}` : `Lieferung frühestens ${day}`;
  return {
    status: 200,
    body: {
      payload: {
        deliveryOffers: [
          {
            expiresAt: iso(ctx.at + 3_600_000),
            dateRange: { earliest: iso(ship + 2 * 86_400_000), latest: iso(arrival) },
            policy: { message: { text, locale } },
          },
        ],
      },
    },
  };
}

/**
 * getFeatureSKU: whether an FBA SKU of the seller can use a feature (oversize items ship in no blank box or overbox),
 * and its fulfillable count.
 */
function featureSku(ctx: SpContext) {
  marketplaceParam(ctx);
  const [featureName, sellerSku] = [ctx.params[0]!, ctx.params[1]!];
  const feature = FEATURES.find((f) => f.featureName === featureName && (!f.usOnly || ctx.seller.countryCode === 'US'));
  if (!feature) throw invalidInput(`Invalid featureName ${featureName}.`);
  const base = { marketplaceId: ctx.seller.marketplaceId, featureName };
  const listing = fbaListing(ctx.seller, sellerSku, ctx.at);
  if (!listing)
    return { status: 200, body: { payload: { ...base, isEligible: false, ineligibleReasons: ['INVALID_SKU'] } } };
  const reasons = [
    ...(feature.enrolled ? [] : ['MERCHANT_NOT_ENROLLED']),
    ...(oversize(listing) && ['BLANK_BOX', 'OVERBOX'].includes(featureName) ? ['SKU_NOT_ELIGIBLE'] : []),
  ];
  if (reasons.length > 0)
    return { status: 200, body: { payload: { ...base, isEligible: false, ineligibleReasons: reasons } } };
  const summary = inventorySummaries(ctx.seller, ctx.at).find((s) => s.sellerSku === listing.sku) as
    { inventoryDetails?: { fulfillableQuantity?: number } } | undefined;
  return {
    status: 200,
    body: {
      payload: {
        ...base,
        isEligible: true,
        ineligibleReasons: [],
        sellerSku: listing.sku,
        fnSku: listing.fnsku,
        asin: listing.asin,
        skuCount: summary?.inventoryDetails?.fulfillableQuantity ?? 0,
      },
    },
  };
}

/** listReturnReasonCodes: the codes for an FBA SKU of the seller; `language` adds the (English) translation. */
function reasonCodes(ctx: SpContext, knownOrder: (ctx: SpContext, id: string) => void) {
  const sku = requiredString(ctx.query.sellerSku, 'sellerSku', 50);
  if (ctx.query.marketplaceId !== undefined) marketplaceParam(ctx);
  if (ctx.query.sellerFulfillmentOrderId !== undefined) knownOrder(ctx, ctx.query.sellerFulfillmentOrderId);
  if (!fbaListing(ctx.seller, sku, ctx.at)) throw invalidInput(`the SellerSKU ${sku} is invalid.`);
  const translate = ctx.query.language?.startsWith('en') ?? false;
  return {
    status: 200,
    body: {
      payload: {
        reasonCodeDetails: REASON_CODES.map((c) => ({
          ...c,
          ...(translate ? { translatedDescription: c.description } : {}),
        })),
      },
    },
  };
}

/** Previews, delivery offers, features and return reason codes (Fulfillment Outbound API 2020-07-01). */
export function mcfLookupRoutes(base: string, knownOrder: (ctx: SpContext, id: string) => void): SpRoute[] {
  return [
    {
      method: 'POST',
      pattern: new RegExp(`^${base}/fulfillmentOrders/preview$`),
      operation: 'getFulfillmentPreview',
      handler: preview,
    },
    {
      method: 'POST',
      pattern: new RegExp(`^${base}/deliveryOffers$`),
      operation: 'deliveryOffers',
      handler: deliveryOffers,
    },
    {
      method: 'GET',
      pattern: new RegExp(`^${base}/features$`),
      operation: 'getFeatures',
      handler: (ctx) => {
        marketplaceParam(ctx);
        const features = FEATURES.filter((f) => !f.usOnly || ctx.seller.countryCode === 'US').map((f) => ({
          featureName: f.featureName,
          featureDescription: f.featureDescription,
          sellerEligible: f.enrolled,
        }));
        return { status: 200, body: { payload: { features } } };
      },
    },
    {
      method: 'GET',
      pattern: new RegExp(`^${base}/features/inventory/([^/]+)/([^/]+)$`),
      operation: 'getFeatureSKU',
      handler: featureSku,
    },
    {
      method: 'GET',
      pattern: new RegExp(`^${base}/returnReasonCodes$`),
      operation: 'listReturnReasonCodes',
      handler: (ctx) => reasonCodes(ctx, knownOrder),
    },
  ];
}
