import type { SpApiClient } from '../connectors/sp-api.ts';
import type { ActionStatus, ActionType } from './action-types.ts';

/** What an executor needs: the connection's SP-API client, its seller and marketplace, the validated details. */
export interface ActionContext {
  sp: SpApiClient;
  sellerId: string;
  marketplaceId: string;
  currency: string;
  details: Record<string, unknown>;
}

/** How an action ended: its final status and what the status read answers as `result`. */
export interface ActionOutcome {
  status: Extract<ActionStatus, 'COMPLETED' | 'PARTIALLY_COMPLETED' | 'COMPLETED_WITH_ISSUES' | 'ERROR' | 'WAITING_EXTERNAL_PROCESSING'>;
  result: unknown;
  error?: { status: number; code: string; message: string };
}

type Patch = { op: string; path: string; value?: unknown };
interface PatchAnswer { sku: string; status: 'ACCEPTED' | 'INVALID'; submissionId: string; issues: { code: string; message: string; severity: string }[] }

/** patchListingsItem: ACCEPTED completes the action (the marketplace applies it within minutes); INVALID is an ERROR with its issues. */
async function patchListing(ctx: ActionContext, sku: string, productType: string, patches: Patch[]): Promise<ActionOutcome> {
  const { body } = await ctx.sp.request<PatchAnswer>('patchListingsItem', {
    method: 'PATCH',
    path: `/listings/2021-08-01/items/${encodeURIComponent(ctx.sellerId)}/${encodeURIComponent(sku)}`,
    query: { marketplaceIds: ctx.marketplaceId },
    body: { productType, patches },
  });
  const result = { sku: body.sku, submissionStatus: body.status, submissionId: body.submissionId, issues: body.issues };
  if (body.status === 'ACCEPTED') return { status: 'COMPLETED', result };
  return { status: 'ERROR', result, error: { status: 400, code: 'LISTING_INVALID', message: body.issues.map((i) => i.message).join(' ') || 'the marketplace refused the change' } };
}

/** searchDefinitionsProductTypes by keywords, or by an item name for suggestions. */
async function searchProductTypes(ctx: ActionContext, d: { keywords?: string[]; itemName?: string }): Promise<ActionOutcome> {
  const { body } = await ctx.sp.request<{ productTypes: { name: string; displayName: string; marketplaceIds: string[] }[]; productTypeVersion: string }>('searchDefinitionsProductTypes', {
    method: 'GET',
    path: '/definitions/2020-09-01/productTypes',
    query: { marketplaceIds: ctx.marketplaceId, ...(d.keywords ? { keywords: d.keywords.join(',') } : { itemName: d.itemName }) },
  });
  return { status: 'COMPLETED', result: { productTypes: body.productTypes, productTypeVersion: body.productTypeVersion } };
}

const amount = (m: { amount: number }) => [{ schedule: [{ value_with_tax: m.amount }] }];

/**
 * The upstream operations each type this server runs maps to (live-apis.md; Listings Items 2021-08-01): a pricing
 * update replaces `purchasable_offer` (our_price, minimum and maximum seller allowed price); a listings update sends
 * its patches as given; a find pages searchListingsItems.
 */
export const executors: Partial<Record<ActionType, (ctx: ActionContext) => Promise<ActionOutcome>>> = {
  MKT_LISTINGS_PRICING_UPDATE: (ctx) => {
    const d = ctx.details as { sku: string; price: { amount: number; currency: string }; minimumSellerAllowedPrice?: { amount: number }; maximumSellerAllowedPrice?: { amount: number } };
    const offer = {
      marketplace_id: ctx.marketplaceId,
      currency: d.price.currency,
      our_price: amount(d.price),
      ...(d.minimumSellerAllowedPrice ? { minimum_seller_allowed_price: amount(d.minimumSellerAllowedPrice) } : {}),
      ...(d.maximumSellerAllowedPrice ? { maximum_seller_allowed_price: amount(d.maximumSellerAllowedPrice) } : {}),
    };
    return patchListing(ctx, d.sku, 'PRODUCT', [{ op: 'replace', path: '/attributes/purchasable_offer', value: [offer] }]);
  },
  MKT_LISTINGS_UPDATE: (ctx) => {
    const d = ctx.details as { sku: string; productType: string; patches: Patch[] };
    return patchListing(ctx, d.sku, d.productType, d.patches);
  },
  MKT_LISTINGS_DETAILS_UPDATE: (ctx) => {
    const d = ctx.details as { sku: string; productType: string; languageTag: string; itemName?: string; bulletPoints?: string[]; description?: string };
    const text = (value: string) => ({ value, language_tag: d.languageTag, marketplace_id: ctx.marketplaceId });
    const patches: Patch[] = [
      ...(d.itemName !== undefined ? [{ op: 'replace', path: '/attributes/item_name', value: [text(d.itemName)] }] : []),
      ...(d.bulletPoints !== undefined ? [{ op: 'replace', path: '/attributes/bullet_point', value: d.bulletPoints.map(text) }] : []),
      ...(d.description !== undefined ? [{ op: 'replace', path: '/attributes/product_description', value: [text(d.description)] }] : []),
    ];
    return patchListing(ctx, d.sku, d.productType, patches);
  },
  MKT_LISTINGS_PRODUCT_TYPES_FIND: (ctx) => searchProductTypes(ctx, ctx.details as { keywords?: string[]; itemName?: string }),
  MKT_LISTINGS_PRODUCT_TYPE_SUGGEST: (ctx) => searchProductTypes(ctx, ctx.details as { itemName: string }),
  MKT_LISTINGS_PRODUCT_TYPE_DEFINITION_FIND: async (ctx) => {
    const d = ctx.details as { productType: string; requirements: string; requirementsEnforced: string; locale: string };
    const { body } = await ctx.sp.request<Record<string, unknown>>('getDefinitionsProductType', {
      method: 'GET',
      path: `/definitions/2020-09-01/productTypes/${encodeURIComponent(d.productType)}`,
      query: { marketplaceIds: ctx.marketplaceId, sellerId: ctx.sellerId, requirements: d.requirements, requirementsEnforced: d.requirementsEnforced, locale: d.locale },
    });
    return { status: 'COMPLETED', result: body };
  },
  MKT_LISTINGS_FIND: async (ctx) => {
    const d = ctx.details as { skus?: string[]; pageSize: number; pageToken?: string };
    const { body } = await ctx.sp.request<{ numberOfResults: number; items: unknown[]; pagination?: { nextToken?: string } }>('searchListingsItems', {
      method: 'GET',
      path: `/listings/2021-08-01/items/${encodeURIComponent(ctx.sellerId)}`,
      query: {
        marketplaceIds: ctx.marketplaceId,
        pageSize: String(d.pageSize),
        ...(d.skus ? { identifiers: d.skus.join(','), identifiersType: 'SKU' } : {}),
        ...(d.pageToken ? { pageToken: d.pageToken } : {}),
      },
    });
    return { status: 'COMPLETED', result: { numberOfResults: body.numberOfResults, items: body.items, nextToken: body.pagination?.nextToken ?? null } };
  },
};
