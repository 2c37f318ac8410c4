import { isOversize, unitCents } from '../data/catalog.ts';
import { listings, type Listing } from '../data/listings.ts';
import type { SpContext } from './sp-routes.ts';

/** An amount in cents as a decimal amount (two places). */
export const cents2 = (cents: number) => Math.round(cents) / 100;
/** The seller's listing of an ASIN that is not Incomplete. */
export const listingOfAsin = (ctx: SpContext, asin: string): Listing | undefined =>
  listings(ctx.seller, ctx.at).find((l) => l.asin === asin && l.status !== 'Incomplete');

/**
 * One competitive summary answer: the seller's offer as the featured and lowest offer, the list price as reference.
 */
export function summaryEntry(ctx: SpContext, request: Record<string, unknown>) {
  const asin = String(request.asin ?? '');
  const included = Array.isArray(request.includedData) ? request.includedData.map(String) : [];
  if (
    request.method !== 'GET' ||
    request.uri !== '/products/pricing/2022-05-01/items/competitiveSummary' ||
    request.marketplaceId !== ctx.seller.marketplaceId ||
    included.length === 0
  ) {
    return {
      status: { statusCode: 400, reasonPhrase: 'Bad Request' },
      body: {
        asin,
        marketplaceId: String(request.marketplaceId ?? ''),
        errors: [{ code: 'InvalidInput', message: 'uri, method GET, marketplaceId and includedData are required.' }],
      },
    };
  }
  const listing = listingOfAsin(ctx, asin);
  if (!listing)
    return {
      status: { statusCode: 404, reasonPhrase: 'Not Found' },
      body: {
        asin,
        marketplaceId: ctx.seller.marketplaceId,
        errors: [
          { code: 'NOT_FOUND', message: `ASIN ${asin} was not found in marketplace ${ctx.seller.marketplaceId}.` },
        ],
      },
    };
  const moneyOf = (cents: number) => ({ amount: cents2(cents), currencyCode: ctx.seller.currency });
  const offer = {
    sellerId: ctx.seller.sellerId,
    condition: 'New',
    fulfillmentType: listing.merchantFulfilled ? 'MFN' : 'AFN',
    listingPrice: moneyOf(listing.price),
    shippingOptions: [{ shippingOptionType: 'DEFAULT', price: moneyOf(0) }],
    primeDetails: { eligibility: listing.merchantFulfilled ? 'NONE' : 'NATIONAL' },
  };
  const list = unitCents(listing.product, ctx.seller.currency);
  const parts: Record<string, unknown> = {
    featuredBuyingOptions: [
      {
        buyingOptionType: 'New',
        segmentedFeaturedOffers: [
          {
            ...offer,
            featuredOfferSegments: [
              { customerMembership: 'DEFAULT', segmentDetails: { glanceViewWeightPercentage: 100 } },
            ],
          },
        ],
      },
    ],
    referencePrices: [
      {
        name: 'CompetitivePriceThreshold',
        price: moneyOf(Math.round(list * (isOversize(listing.product) ? 0.95 : 0.9))),
      },
      { name: 'WasPrice', price: moneyOf(list) },
    ],
    lowestPricedOffers: [{ lowestPricedOffersInput: { itemCondition: 'New', offerType: 'Consumer' }, offers: [offer] }],
    similarItems: [],
  };
  return {
    status: { statusCode: 200, reasonPhrase: 'Success' },
    body: {
      asin,
      marketplaceId: ctx.seller.marketplaceId,
      ...Object.fromEntries(included.filter((k) => k in parts).map((k) => [k, parts[k]])),
    },
  };
}
