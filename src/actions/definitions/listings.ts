import { z } from 'zod';
import { completed, define, type ActionContext, type ActionGroup, type ActionOutcome } from './define.ts';
import { atLeastOne, exactlyOne, relation, requiredWhen, ruled } from './rules.ts';

export const sku = z.string().trim().min(1).max(40).describe('Seller SKU.');
export const money = z
  .object({
    amount: z.number().positive().max(1_000_000),
    currency: z.string().regex(/^[A-Z]{3}$/, 'an ISO 4217 code such as USD'),
  })
  .strict();
const productType = z.string().regex(/^[A-Z0-9_]{2,64}$/, 'a product type such as LUGGAGE');

type Patch = { op: string; path: string; value?: unknown };
interface PatchAnswer {
  sku: string;
  status: 'ACCEPTED' | 'INVALID';
  submissionId: string;
  issues: { code: string; message: string; severity: string }[];
}

/**
 * patchListingsItem (Listings Items 2021-08-01): ACCEPTED completes the action (the marketplace applies it within
 * minutes), with its WARNING issues COMPLETED_WITH_ISSUES; INVALID is BLOCKED_INVALID_INPUT with the issues.
 */
async function patchListing(
  ctx: ActionContext,
  sku: string,
  productType: string,
  patches: Patch[],
): Promise<ActionOutcome> {
  const { body } = await ctx.sp().request<PatchAnswer>('patchListingsItem', {
    method: 'PATCH',
    path: `/listings/2021-08-01/items/${encodeURIComponent(ctx.sellerId)}/${encodeURIComponent(sku)}`,
    query: { marketplaceIds: ctx.marketplaceId },
    body: { productType, patches },
  });
  const result = { sku: body.sku, submissionStatus: body.status, submissionId: body.submissionId, issues: body.issues };
  if (body.status !== 'ACCEPTED')
    return {
      status: 'BLOCKED_INVALID_INPUT',
      result,
      error: {
        status: 400,
        code: 'LISTING_INVALID',
        message: body.issues.map((i) => i.message).join(' ') || 'the marketplace refused the change',
      },
    };
  return { status: body.issues.length > 0 ? 'COMPLETED_WITH_ISSUES' : 'COMPLETED', result };
}

/** searchDefinitionsProductTypes by keywords, or by an item name for suggestions. */
async function searchProductTypes(
  ctx: ActionContext,
  d: { keywords?: string[]; itemName?: string },
): Promise<ActionOutcome> {
  const { body } = await ctx.sp().request<{
    productTypes: { name: string; displayName: string; marketplaceIds: string[] }[];
    productTypeVersion: string;
  }>('searchDefinitionsProductTypes', {
    method: 'GET',
    path: '/definitions/2020-09-01/productTypes',
    query: {
      marketplaceIds: ctx.marketplaceId,
      ...(d.keywords ? { keywords: d.keywords.join(',') } : { itemName: d.itemName }),
    },
  });
  return completed({ productTypes: body.productTypes, productTypeVersion: body.productTypeVersion });
}

const amount = (m: { amount: number }) => [{ schedule: [{ value_with_tax: m.amount }] }];

/**
 * The listing types (Listings Items API 2021-08-01: patchListingsItem and searchListingsItems, attribute names as the
 * product type definitions name them; Product Type Definitions API 2020-09-01). A pricing update replaces
 * `purchasable_offer` (our_price, minimum and maximum seller allowed price); a listings update sends its patches as
 * given; a find pages searchListingsItems.
 */
export const listingsActions: ActionGroup = {
  MKT_LISTINGS_PRICING_UPDATE: define(
    ruled(
      z
        .object({
          sku,
          price: money.describe('The new offer price (purchasable_offer our_price).'),
          minimumSellerAllowedPrice: money.optional(),
          maximumSellerAllowedPrice: money.optional(),
        })
        .strict(),
      relation(
        (d) => !d.minimumSellerAllowedPrice || d.minimumSellerAllowedPrice.amount <= d.price.amount,
        'minimumSellerAllowedPrice.amount is at most price.amount',
        'is above price',
        ['minimumSellerAllowedPrice'],
      ),
      relation(
        (d) => !d.maximumSellerAllowedPrice || d.maximumSellerAllowedPrice.amount >= d.price.amount,
        'maximumSellerAllowedPrice.amount is at least price.amount',
        'is below price',
        ['maximumSellerAllowedPrice'],
      ),
    ).meta({
      examples: [
        {
          sku: 'ACM-PACK-DAY-BLK',
          price: { amount: 47.99, currency: 'USD' },
          minimumSellerAllowedPrice: { amount: 39.99, currency: 'USD' },
        },
      ],
    }),
    (ctx, d) => {
      const offer = {
        marketplace_id: ctx.marketplaceId,
        currency: d.price.currency,
        our_price: amount(d.price),
        ...(d.minimumSellerAllowedPrice ? { minimum_seller_allowed_price: amount(d.minimumSellerAllowedPrice) } : {}),
        ...(d.maximumSellerAllowedPrice ? { maximum_seller_allowed_price: amount(d.maximumSellerAllowedPrice) } : {}),
      };
      return patchListing(ctx, d.sku, 'PRODUCT', [
        { op: 'replace', path: '/attributes/purchasable_offer', value: [offer] },
      ]);
    },
  ),
  MKT_LISTINGS_UPDATE: define(
    z
      .object({
        sku,
        productType,
        patches: z
          .array(
            ruled(
              z
                .object({
                  op: z.enum(['add', 'replace', 'merge', 'delete']),
                  path: z.string().regex(/^\/attributes\/[a-z0-9_]+$/, 'a path such as /attributes/item_name'),
                  value: z.array(z.record(z.string(), z.unknown())).optional(),
                })
                .strict(),
              requiredWhen('value', 'op', ['add', 'replace', 'merge'], 'value is required unless op is delete'),
            ),
          )
          .min(1)
          .max(100),
      })
      .strict()
      .meta({
        examples: [
          {
            sku: 'ACM-PACK-DAY-BLK',
            productType: 'PACK',
            patches: [{ op: 'replace', path: '/attributes/color', value: [{ value: 'Black', language_tag: 'en_US' }] }],
          },
        ],
      }),
    (ctx, d) => patchListing(ctx, d.sku, d.productType, d.patches),
  ),
  MKT_LISTINGS_DETAILS_UPDATE: define(
    ruled(
      z
        .object({
          sku,
          productType,
          languageTag: z.string().regex(/^[a-z]{2}_[A-Z]{2}$/, 'a language tag such as en_US'),
          itemName: z.string().trim().min(1).max(200).optional(),
          bulletPoints: z.array(z.string().trim().min(1).max(500)).min(1).max(10).optional(),
          description: z.string().trim().min(1).max(2000).optional(),
        })
        .strict(),
      atLeastOne(['itemName', 'bulletPoints', 'description']),
    ).meta({
      examples: [
        {
          sku: 'ACM-PACK-DAY-BLK',
          productType: 'PACK',
          languageTag: 'en_US',
          itemName: 'Acme 22L Daypack, Black',
          bulletPoints: ['Padded laptop sleeve', 'Weighs 600 g'],
        },
      ],
    }),
    (ctx, d) => {
      const text = (value: string) => ({ value, language_tag: d.languageTag, marketplace_id: ctx.marketplaceId });
      const patches: Patch[] = [
        ...(d.itemName !== undefined
          ? [{ op: 'replace', path: '/attributes/item_name', value: [text(d.itemName)] }]
          : []),
        ...(d.bulletPoints !== undefined
          ? [{ op: 'replace', path: '/attributes/bullet_point', value: d.bulletPoints.map(text) }]
          : []),
        ...(d.description !== undefined
          ? [{ op: 'replace', path: '/attributes/product_description', value: [text(d.description)] }]
          : []),
      ];
      return patchListing(ctx, d.sku, d.productType, patches);
    },
  ),
  MKT_LISTINGS_PRODUCT_TYPES_FIND: define(
    ruled(
      z
        .object({
          keywords: z.array(z.string().trim().min(1).max(100)).min(1).max(10).optional(),
          itemName: z
            .string()
            .trim()
            .min(1)
            .max(500)
            .optional()
            .describe('Finds the product types suggested for an item of this name.'),
        })
        .strict(),
      exactlyOne('keywords', 'itemName'),
    ).meta({ examples: [{ keywords: ['backpack'] }] }),
    (ctx, d) => searchProductTypes(ctx, d),
  ),
  MKT_LISTINGS_PRODUCT_TYPE_SUGGEST: define(
    z
      .object({
        itemName: z
          .string()
          .trim()
          .min(1)
          .max(500)
          .describe('The title of the item: the product types suggested for it.'),
      })
      .strict()
      .meta({ examples: [{ itemName: 'Acme Trailhead 40L Hiking Backpack' }] }),
    (ctx, d) => searchProductTypes(ctx, d),
  ),
  MKT_LISTINGS_PRODUCT_TYPE_DEFINITION_FIND: define(
    z
      .object({
        productType,
        requirements: z.enum(['LISTING', 'LISTING_PRODUCT_ONLY', 'LISTING_OFFER_ONLY']).default('LISTING'),
        requirementsEnforced: z.enum(['ENFORCED', 'NOT_ENFORCED']).default('ENFORCED'),
        locale: z
          .string()
          .regex(/^(DEFAULT|[a-z]{2}(_[A-Z]{2})?)$/, 'DEFAULT or a locale such as en_US')
          .default('DEFAULT'),
      })
      .strict()
      .meta({ examples: [{ productType: 'PACK' }] }),
    async (ctx, d) => {
      const { body } = await ctx.sp().request<Record<string, unknown>>('getDefinitionsProductType', {
        method: 'GET',
        path: `/definitions/2020-09-01/productTypes/${encodeURIComponent(d.productType)}`,
        query: {
          marketplaceIds: ctx.marketplaceId,
          sellerId: ctx.sellerId,
          requirements: d.requirements,
          requirementsEnforced: d.requirementsEnforced,
          locale: d.locale,
        },
      });
      return completed(body);
    },
  ),
  MKT_LISTINGS_FIND: define(
    z
      .object({
        skus: z.array(sku).min(1).max(20).optional().describe('At most 20; without, every listing, a page at a time.'),
        pageSize: z.number().int().min(1).max(20).default(10),
        pageToken: z.string().max(1024).optional(),
      })
      .strict()
      .meta({ examples: [{ skus: ['ACM-PACK-DAY-BLK', 'ACM-MUG-16-RED'] }] }),
    async (ctx, d) => {
      const { body } = await ctx
        .sp()
        .request<{ numberOfResults: number; items: unknown[]; pagination?: { nextToken?: string } }>(
          'searchListingsItems',
          {
            method: 'GET',
            path: `/listings/2021-08-01/items/${encodeURIComponent(ctx.sellerId)}`,
            query: {
              marketplaceIds: ctx.marketplaceId,
              pageSize: String(d.pageSize),
              ...(d.skus ? { identifiers: d.skus.join(','), identifiersType: 'SKU' } : {}),
              ...(d.pageToken ? { pageToken: d.pageToken } : {}),
            },
          },
        );
      return completed({
        numberOfResults: body.numberOfResults,
        items: body.items,
        nextToken: body.pagination?.nextToken ?? null,
      });
    },
  ),
};
