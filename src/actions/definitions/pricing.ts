import { z } from 'zod';
import { batchOutcome, completed, define, type ActionContext, type ActionGroup, type ActionOutcome } from './define.ts';
import { money, sku } from './listings.ts';
import { distinct, minFields, relation, ruled } from './rules.ts';

const asin = z.string().regex(/^[A-Z0-9]{10}$/, 'a 10-character ASIN such as B0NB0P6V0A');
const productType = z.string().regex(/^[A-Z0-9_]{2,64}$/, 'a product type such as PACK');

/** One answer of a 2022-05-01 pricing batch: its status line, the request echoed (FOEP) and the body. */
interface BatchAnswer<B> {
  status: { statusCode: number; reasonPhrase?: string };
  request?: Record<string, unknown>;
  body?: B & { errors?: { code: string; message: string }[] };
}

/**
 * Posts one Product Pricing 2022-05-01 batch (each request a GET of `uri`) and turns its per-item answers into a batch
 * outcome: an item fails when its status is not 2xx; a 4xx refused its input.
 */
async function pricingBatch<B>(
  ctx: ActionContext,
  operation: string,
  path: string,
  requests: Record<string, unknown>[],
  keyOf: (answer: BatchAnswer<B>, i: number) => string,
  resultKey: string,
): Promise<ActionOutcome> {
  const { body } = await ctx
    .sp()
    .request<{ responses: BatchAnswer<B>[] }>(operation, { method: 'POST', path, body: { requests } });
  const items = body.responses.map((answer, i) => {
    const ok = answer.status.statusCode >= 200 && answer.status.statusCode < 300;
    return {
      ok,
      invalid: answer.status.statusCode >= 400 && answer.status.statusCode < 500,
      key: keyOf(answer, i),
      statusCode: answer.status.statusCode,
      body: answer.body,
    };
  });
  const result = {
    items: items.map((i) => ({
      [resultKey]: i.key,
      ok: i.ok,
      statusCode: i.statusCode,
      ...(i.ok ? { result: i.body } : { errors: i.body?.errors ?? [] }),
    })),
  };
  return batchOutcome(items, result);
}

interface FeesAnswer {
  payload: {
    FeesEstimateResult: {
      Status: string;
      FeesEstimateIdentifier?: unknown;
      FeesEstimate?: {
        TimeOfFeesEstimation: string;
        TotalFeesEstimate?: { CurrencyCode: string; Amount: number };
        FeeDetailList?: { FeeType: string; FinalFee: { CurrencyCode: string; Amount: number } }[];
      };
      Error?: { Code: string; Message: string };
    };
  };
}

const upstreamMoney = (m: { amount: number; currency: string }) => ({ CurrencyCode: m.currency, Amount: m.amount });

/**
 * The listing creation, fee and competitive pricing types: putListingsItem (Listings Items 2021-08-01),
 * getMyFeesEstimateForSKU (Product Fees v0), getFeaturedOfferExpectedPriceBatch and getCompetitiveSummary (Product
 * Pricing 2022-05-01: one request for several SKUs or ASINs, each answered on its own, hence batch outcomes).
 */
export const pricingActions: ActionGroup = {
  MKT_LISTINGS_CREATE: define(
    z
      .object({
        sku,
        productType,
        requirements: z
          .enum(['LISTING', 'LISTING_PRODUCT_ONLY', 'LISTING_OFFER_ONLY'])
          .default('LISTING')
          .describe(
            'LISTING_OFFER_ONLY offers an existing catalog item (give merchant_suggested_asin and condition_type).',
          ),
        attributes: ruled(
          z.record(
            z.string().regex(/^[a-z0-9_]+$/, 'an attribute name such as item_name'),
            z.array(z.record(z.string(), z.unknown())).min(1),
          ),
          minFields(1, 'give at least one attribute'),
        ).describe(
          'The listing attributes as the product type definition names them, each a list of values (putListingsItem replaces the whole listing).',
        ),
      })
      .strict()
      .meta({
        examples: [
          {
            sku: 'ACM-PACK-DAY-BLK-2',
            productType: 'PACK',
            requirements: 'LISTING_OFFER_ONLY',
            attributes: {
              merchant_suggested_asin: [{ value: 'B0NB0P6V0A', marketplace_id: 'ATVPDKIKX0DER' }],
              condition_type: [{ value: 'new_new', marketplace_id: 'ATVPDKIKX0DER' }],
              purchasable_offer: [
                {
                  marketplace_id: 'ATVPDKIKX0DER',
                  currency: 'USD',
                  our_price: [{ schedule: [{ value_with_tax: 45.99 }] }],
                },
              ],
              fulfillment_availability: [{ fulfillment_channel_code: 'DEFAULT', quantity: 12 }],
            },
          },
        ],
      }),
    async (ctx, d) => {
      const { body } = await ctx.sp().request<{
        sku: string;
        status: string;
        submissionId: string;
        issues: { code: string; message: string; severity: string }[];
      }>('putListingsItem', {
        method: 'PUT',
        path: `/listings/2021-08-01/items/${encodeURIComponent(ctx.sellerId)}/${encodeURIComponent(d.sku)}`,
        query: { marketplaceIds: ctx.marketplaceId },
        body: { productType: d.productType, requirements: d.requirements, attributes: d.attributes },
      });
      const result = {
        sku: body.sku,
        submissionStatus: body.status,
        submissionId: body.submissionId,
        issues: body.issues,
      };
      if (body.status !== 'ACCEPTED')
        return {
          status: 'BLOCKED_INVALID_INPUT',
          result,
          error: {
            status: 400,
            code: 'LISTING_INVALID',
            message: body.issues.map((i) => i.message).join(' ') || 'the marketplace refused the listing',
          },
        };
      return { status: body.issues.length > 0 ? 'COMPLETED_WITH_ISSUES' : 'COMPLETED', result };
    },
  ),
  MKT_LISTINGS_FEES_ESTIMATE: define(
    ruled(
      z
        .object({
          sku,
          price: money.describe('The listing price to estimate the fees at.'),
          shipping: money.optional().describe('The shipping the buyer pays, if any.'),
          fulfilledByAmazon: z.boolean().default(true),
        })
        .strict(),
      relation(
        (d) => !d.shipping || d.shipping.currency === d.price.currency,
        'shipping.currency is that of price',
        'must be in the currency of price',
        ['shipping'],
      ),
    ).meta({ examples: [{ sku: 'ACM-PACK-DAY-BLK', price: { amount: 40, currency: 'USD' } }] }),
    async (ctx, d) => {
      const { body } = await ctx.sp().request<FeesAnswer>('getMyFeesEstimateForSKU', {
        method: 'POST',
        path: `/products/fees/v0/listings/${encodeURIComponent(d.sku)}/feesEstimate`,
        body: {
          FeesEstimateRequest: {
            MarketplaceId: ctx.marketplaceId,
            IsAmazonFulfilled: d.fulfilledByAmazon,
            Identifier: `${d.sku}-${ctx.now}`,
            PriceToEstimateFees: {
              ListingPrice: upstreamMoney(d.price),
              ...(d.shipping ? { Shipping: upstreamMoney(d.shipping) } : {}),
            },
          },
        },
      });
      const r = body.payload.FeesEstimateResult;
      if (r.Status !== 'Success' || !r.FeesEstimate)
        return {
          status: 'BLOCKED_INVALID_INPUT',
          result: { sku: d.sku, status: r.Status, error: r.Error ?? null },
          error: {
            status: 400,
            code: r.Error?.Code ?? 'FEES_ESTIMATE_FAILED',
            message: r.Error?.Message ?? `the estimate ended ${r.Status}`,
          },
        };
      const fees = r.FeesEstimate;
      return completed({
        sku: d.sku,
        estimatedAt: fees.TimeOfFeesEstimation,
        totalFees: fees.TotalFeesEstimate
          ? { amount: fees.TotalFeesEstimate.Amount, currency: fees.TotalFeesEstimate.CurrencyCode }
          : null,
        fees: (fees.FeeDetailList ?? []).map((f) => ({
          feeType: f.FeeType,
          amount: f.FinalFee.Amount,
          currency: f.FinalFee.CurrencyCode,
        })),
      });
    },
  ),
  MKT_LISTINGS_FEATURED_PRICE_ESTIMATE: define(
    z
      .object({
        skus: ruled(z.array(sku).min(1).max(40), distinct('must not repeat a SKU')).describe(
          'At most 40 SKUs in one batch; each answered on its own.',
        ),
      })
      .strict()
      .meta({ examples: [{ skus: ['ACM-PACK-DAY-BLK', 'ACM-BOTTLE-1L-WHT'] }] }),
    (ctx, d) =>
      pricingBatch(
        ctx,
        'getFeaturedOfferExpectedPriceBatch',
        '/batches/products/pricing/2022-05-01/offer/featuredOfferExpectedPrice',
        d.skus.map((s) => ({
          uri: '/products/pricing/2022-05-01/offer/featuredOfferExpectedPrice',
          method: 'GET',
          marketplaceId: ctx.marketplaceId,
          sku: s,
        })),
        (answer, i) => String(answer.request?.sku ?? d.skus[i]),
        'sku',
      ),
  ),
  MKT_LISTINGS_COMPETITIVE_SUMMARY_FIND: define(
    z
      .object({
        asins: ruled(z.array(asin).min(1).max(20), distinct('must not repeat an ASIN')).describe(
          'At most 20 ASINs in one batch; each answered on its own.',
        ),
        includedData: z
          .array(z.enum(['featuredBuyingOptions', 'referencePrices', 'lowestPricedOffers', 'similarItems']))
          .min(1)
          .max(4)
          .default(['featuredBuyingOptions', 'referencePrices', 'lowestPricedOffers']),
      })
      .strict()
      .meta({ examples: [{ asins: ['B0NB0P6V0A', 'B0WA5LCA35'] }] }),
    (ctx, d) =>
      pricingBatch<{ asin: string }>(
        ctx,
        'getCompetitiveSummary',
        '/batches/products/pricing/2022-05-01/items/competitiveSummary',
        d.asins.map((a) => ({
          uri: '/products/pricing/2022-05-01/items/competitiveSummary',
          method: 'GET',
          asin: a,
          marketplaceId: ctx.marketplaceId,
          includedData: d.includedData,
          ...(d.includedData.includes('lowestPricedOffers')
            ? { lowestPricedOffersInputs: [{ itemCondition: 'New', offerType: 'Consumer' }] }
            : {}),
        })),
        (answer, i) => answer.body?.asin ?? d.asins[i]!,
        'asin',
      ),
  ),
};
