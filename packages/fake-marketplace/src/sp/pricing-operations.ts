import { fbaFeeCents, unitCents } from '../data/catalog.ts';
import { listings, type Listing } from '../data/listings.ts';
import { cents2, listingOfAsin, summaryEntry } from './pricing-summary.ts';
import { invalidInput, SpError } from './sp-error.ts';
import { listParam, type SpContext, type SpRoute } from './sp-routes.ts';

/** A listing created through putListingsItem (kept by the route factory, per seller and SKU). */
interface Created {
  sku: string;
  productType: string;
  asin: string | null;
  cents: number | null;
  at: number;
}

type Attributes = Record<string, Record<string, unknown>[]>;

const REQUIRED: Record<string, string[]> = {
  LISTING: ['item_name', 'brand', 'condition_type', 'purchasable_offer'],
  LISTING_PRODUCT_ONLY: ['item_name', 'brand'],
  LISTING_OFFER_ONLY: ['merchant_suggested_asin', 'condition_type', 'purchasable_offer'],
};

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * The price of a `purchasable_offer` attribute in cents, or an issue when it is not a positive amount in the seller's
 * currency.
 */
function offerCents(ctx: SpContext, attributes: Attributes): number | null | string {
  const offer = attributes.purchasable_offer?.[0] as
    { currency?: string; our_price?: { schedule?: { value_with_tax?: number }[] }[] } | undefined;
  if (!offer) return null;
  const price = offer.our_price?.[0]?.schedule?.[0]?.value_with_tax;
  return typeof price === 'number' && price > 0 && offer.currency === ctx.seller.currency
    ? Math.round(price * 100)
    : `'our_price' must be a positive amount in ${ctx.seller.currency}.`;
}

/**
 * The pricing and fee operations of the action types: putListingsItem (Listings Items 2021-08-01),
 * getMyFeesEstimateForSKU (Product Fees v0), getFeaturedOfferExpectedPriceBatch and getCompetitiveSummary (Product
 * Pricing 2022-05-01; its answers in pricing-summary.ts). Listings created here are known to the fee and
 * featured-price estimates of the same fake.
 */
export function pricingRoutes(): SpRoute[] {
  const created = new Map<string, Map<string, Created>>();
  const createdOf = (ctx: SpContext) =>
    created.get(ctx.seller.sellerId) ?? created.set(ctx.seller.sellerId, new Map()).get(ctx.seller.sellerId)!;
  const listingOf = (ctx: SpContext, sku: string): Listing | undefined =>
    listings(ctx.seller, ctx.at).find((l) => l.sku === sku);

  /** putListingsItem: the whole listing; INVALID with issues when a required attribute of `requirements` is missing. */
  function putListing(ctx: SpContext) {
    if (ctx.params[0] !== ctx.seller.sellerId)
      throw new SpError(403, 'Unauthorized', 'Access to requested resource is denied.');
    if (!listParam(ctx, 'marketplaceIds').includes(ctx.seller.marketplaceId))
      throw invalidInput('marketplaceIds is required.');
    const sku = ctx.params[1]!;
    const body = ctx.body as { productType?: unknown; requirements?: unknown; attributes?: unknown } | undefined;
    if (typeof body?.productType !== 'string' || typeof body.attributes !== 'object' || body.attributes === null)
      throw invalidInput('productType and attributes are required.');
    const requirements = String(body.requirements ?? 'LISTING');
    if (!REQUIRED[requirements]) throw invalidInput(`Invalid requirements ${requirements}.`);
    const attributes = body.attributes as Attributes;
    const issue = (code: string, message: string, names: string[]) => ({
      code,
      message,
      severity: 'ERROR',
      attributeNames: names,
    });
    const issues = REQUIRED[requirements]!.filter(
      (name) => !Array.isArray(attributes[name]) || attributes[name].length === 0,
    ).map((name) => issue('90220', `'${name}' is required but not supplied.`, [name]));
    const asin = attributes.merchant_suggested_asin?.[0]?.value;
    if (asin !== undefined && !listingOfAsin(ctx, String(asin)))
      issues.push(
        issue('8541', `ASIN ${String(asin)} does not match an item in the catalog.`, ['merchant_suggested_asin']),
      );
    const cents = offerCents(ctx, attributes);
    if (typeof cents === 'string') issues.push(issue('90220', cents, ['purchasable_offer']));
    const submissionId = crypto.randomUUID().replaceAll('-', '');
    if (issues.length > 0) return { status: 200, body: { sku, status: 'INVALID', submissionId, issues } };
    createdOf(ctx).set(sku, {
      sku,
      productType: body.productType,
      asin: asin === undefined ? null : String(asin),
      cents: cents as number | null,
      at: ctx.at,
    });
    return { status: 200, body: { sku, status: 'ACCEPTED', submissionId, issues: [] } };
  }

  /** getMyFeesEstimateForSKU: referral fee 15 % (at least 0.30) of price plus shipping, and the FBA fee of the item. */
  function feesEstimate(ctx: SpContext) {
    const sku = ctx.params[0]!;
    const request = (ctx.body as { FeesEstimateRequest?: Record<string, unknown> } | undefined)?.FeesEstimateRequest;
    if (!request) throw invalidInput('FeesEstimateRequest is required.');
    const price = request.PriceToEstimateFees as
      | {
          ListingPrice?: { CurrencyCode?: string; Amount?: number };
          Shipping?: { CurrencyCode?: string; Amount?: number };
        }
      | undefined;
    if (request.MarketplaceId !== ctx.seller.marketplaceId)
      throw invalidInput(`Invalid MarketplaceId ${String(request.MarketplaceId)}.`);
    if (typeof request.Identifier !== 'string' || !request.Identifier) throw invalidInput('Identifier is required.');
    const amounts = [price?.ListingPrice, price?.Shipping].filter((m) => m !== undefined);
    if (
      !price?.ListingPrice ||
      amounts.some((m) => m.CurrencyCode !== ctx.seller.currency || typeof m.Amount !== 'number' || m.Amount < 0)
    )
      throw invalidInput(`PriceToEstimateFees.ListingPrice must be an amount in ${ctx.seller.currency}.`);
    const fba = request.IsAmazonFulfilled !== false;
    const identifier = {
      MarketplaceId: ctx.seller.marketplaceId,
      SellerId: ctx.seller.sellerId,
      IdType: 'SellerSKU',
      IdValue: sku,
      IsAmazonFulfilled: fba,
      PriceToEstimateFees: price,
      SellerInputIdentifier: request.Identifier,
    };
    const made = createdOf(ctx).get(sku);
    const listing = listingOf(ctx, sku) ?? (made?.asin ? listingOfAsin(ctx, made.asin) : undefined);
    if (!listing && !made) {
      return {
        status: 200,
        body: {
          payload: {
            FeesEstimateResult: {
              Status: 'ClientError',
              FeesEstimateIdentifier: identifier,
              Error: {
                Type: 'Sender',
                Code: 'InvalidParameterValue',
                Message: `The item for SellerSKU ${sku} was not found.`,
                Detail: [],
              },
            },
          },
        },
      };
    }
    const paid = Math.round(amounts.reduce((s, m) => s + m.Amount! * 100, 0));
    const referral = Math.max(30, Math.round(paid * 0.15));
    const fbaFee = fba ? (listing ? fbaFeeCents(listing.product, ctx.seller.currency) : 476) : 0;
    const fee = (FeeType: string, cents: number) => ({
      FeeType,
      FeeAmount: { CurrencyCode: ctx.seller.currency, Amount: cents2(cents) },
      FeePromotion: { CurrencyCode: ctx.seller.currency, Amount: 0 },
      FinalFee: { CurrencyCode: ctx.seller.currency, Amount: cents2(cents) },
    });
    return {
      status: 200,
      body: {
        payload: {
          FeesEstimateResult: {
            Status: 'Success',
            FeesEstimateIdentifier: identifier,
            FeesEstimate: {
              TimeOfFeesEstimation: iso(ctx.at),
              TotalFeesEstimate: { CurrencyCode: ctx.seller.currency, Amount: cents2(referral + fbaFee) },
              FeeDetailList: [
                fee('ReferralFee', referral),
                fee('VariableClosingFee', 0),
                fee('PerItemFee', 0),
                fee('FBAFees', fbaFee),
              ],
            },
          },
        },
      },
    };
  }

  /**
   * One FOEP answer: the featured offer expected price is 97 % of the item's list price (the seller's offer is
   * featured).
   */
  function foepEntry(ctx: SpContext, request: Record<string, unknown>) {
    const echo = {
      marketplaceId: request.marketplaceId,
      sku: request.sku,
      ...(request.segment ? { segment: request.segment } : {}),
    };
    const headers = { 'x-amzn-RequestId': crypto.randomUUID() };
    if (
      request.method !== 'GET' ||
      request.uri !== '/products/pricing/2022-05-01/offer/featuredOfferExpectedPrice' ||
      request.marketplaceId !== ctx.seller.marketplaceId ||
      typeof request.sku !== 'string'
    ) {
      return {
        request: echo,
        status: { statusCode: 400, reasonPhrase: 'Bad Request' },
        headers,
        body: { errors: [{ code: 'InvalidInput', message: 'uri, method GET, marketplaceId and sku are required.' }] },
      };
    }
    const made = createdOf(ctx).get(request.sku);
    const listing = listingOf(ctx, request.sku) ?? (made?.asin ? listingOfAsin(ctx, made.asin) : undefined);
    if (!listing)
      return {
        request: echo,
        status: { statusCode: 404, reasonPhrase: 'Not Found' },
        headers,
        body: { errors: [{ code: 'NOT_FOUND', message: `The SKU ${request.sku} was not found for this seller.` }] },
      };
    const offerIdentifier = {
      marketplaceId: ctx.seller.marketplaceId,
      sellerId: ctx.seller.sellerId,
      sku: request.sku,
      asin: listing.asin,
      fulfillmentType: listing.merchantFulfilled ? 'MFN' : 'AFN',
    };
    const eligible = listing.status === 'Active';
    const list = unitCents(listing.product, ctx.seller.currency);
    const moneyOf = (cents: number) => ({ amount: cents2(cents), currencyCode: ctx.seller.currency });
    const current = {
      offerIdentifier,
      condition: 'New',
      price: { listingPrice: moneyOf(made?.cents ?? listing.price), shippingPrice: moneyOf(0) },
    };
    const result = eligible
      ? {
          featuredOfferExpectedPrice: { listingPrice: moneyOf(Math.round(list * 0.97)) },
          resultStatus: 'VALID_FOEP',
          competingFeaturedOffer: current,
          currentFeaturedOffer: current,
        }
      : { resultStatus: 'OFFER_NOT_ELIGIBLE' };
    return {
      request: echo,
      status: { statusCode: 200, reasonPhrase: 'Success' },
      headers,
      body: { offerIdentifier, featuredOfferExpectedPriceResults: [result] },
    };
  }

  const batch =
    (max: number, entry: (ctx: SpContext, request: Record<string, unknown>) => unknown) => (ctx: SpContext) => {
      const requests = (ctx.body as { requests?: Record<string, unknown>[] } | undefined)?.requests;
      if (!Array.isArray(requests) || requests.length < 1 || requests.length > max)
        throw invalidInput(`requests must hold 1 to ${max} entries.`);
      return { status: 200, body: { responses: requests.map((r) => entry(ctx, r)) } };
    };

  return [
    {
      method: 'PUT',
      pattern: /^\/listings\/2021-08-01\/items\/([^/]+)\/([^/]+)$/,
      operation: 'putListingsItem',
      handler: putListing,
    },
    {
      method: 'POST',
      pattern: /^\/products\/fees\/v0\/listings\/([^/]+)\/feesEstimate$/,
      operation: 'getMyFeesEstimateForSKU',
      handler: feesEstimate,
    },
    {
      method: 'POST',
      pattern: /^\/batches\/products\/pricing\/2022-05-01\/offer\/featuredOfferExpectedPrice$/,
      operation: 'getFeaturedOfferExpectedPriceBatch',
      handler: batch(40, foepEntry),
    },
    {
      method: 'POST',
      pattern: /^\/batches\/products\/pricing\/2022-05-01\/items\/competitiveSummary$/,
      operation: 'getCompetitiveSummary',
      handler: batch(20, summaryEntry),
    },
  ];
}
