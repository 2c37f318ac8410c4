import { invalidInput, SpError } from './sp-error.ts';
import { decodeToken, encodeToken } from './paging.ts';
import { productTypeRoutes } from './product-type-operations.ts';
import { listParam, type SpContext, type SpRoute } from './sp-routes.ts';

/** FBA inventory tokens expire 30 seconds after they are issued (docs/design/live-apis.md §3, §7). */
const INVENTORY_TOKEN_MS = 30_000;

/** getInventorySummaries: exactly one marketplace, `payload` + `pagination` envelope, short-lived tokens. */
function inventorySummaries(ctx: SpContext) {
  const marketplaces = listParam(ctx, 'marketplaceIds');
  if (
    marketplaces.length !== 1 ||
    ctx.query.granularityType !== 'Marketplace' ||
    ctx.query.granularityId !== marketplaces[0]
  )
    throw invalidInput(
      'granularityType Marketplace, granularityId and exactly one marketplaceIds value are required, and they must agree.',
    );
  if (marketplaces[0] !== ctx.seller.marketplaceId) throw invalidInput(`Invalid marketplace ${marketplaces[0]}.`);
  const scope = `inventory/${ctx.seller.sellerId}`;
  let offset = 0;
  if (ctx.query.nextToken !== undefined) {
    const token = decodeToken(ctx.query.nextToken, scope);
    if (!token || ctx.at - token.issuedAt > INVENTORY_TOKEN_MS)
      throw invalidInput('The nextToken is invalid or has expired.');
    offset = token.offset;
  }
  const all = ctx.seller.fba ? ctx.state.data.inventorySummaries(ctx.seller, ctx.at) : [];
  const details = ctx.query.details === 'true';
  const page = all.slice(offset, offset + 50).map((s) => (details ? s : { ...s, inventoryDetails: undefined }));
  const next = offset + 50 < all.length ? encodeToken({ offset: offset + 50, scope, issuedAt: ctx.at }) : undefined;
  return {
    status: 200,
    body: {
      payload: {
        granularity: { granularityType: 'Marketplace', granularityId: marketplaces[0] },
        inventorySummaries: page,
      },
      ...(next ? { pagination: { nextToken: next } } : {}),
    },
  };
}

/**
 * searchListingsItems: at most 20 a page, `pageToken` ↔ `pagination.nextToken`, only the first 1,000 items pageable.
 */
function searchListings(ctx: SpContext) {
  if (ctx.params[0] !== ctx.seller.sellerId)
    throw new SpError(403, 'Unauthorized', 'Access to requested resource is denied.', '');
  if (!listParam(ctx, 'marketplaceIds').includes(ctx.seller.marketplaceId))
    throw invalidInput('marketplaceIds is required.');
  const pageSize = ctx.query.pageSize === undefined ? 10 : Number(ctx.query.pageSize);
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 20)
    throw invalidInput('pageSize must be between 1 and 20.');
  const scope = `listings/${ctx.seller.sellerId}/${pageSize}`;
  const offset = ctx.query.pageToken === undefined ? 0 : (decodeToken(ctx.query.pageToken, scope)?.offset ?? -1);
  if (offset < 0) throw invalidInput('The pageToken is invalid.');
  const identifiers = ctx.query.identifiers?.split(',');
  if (identifiers && (ctx.query.identifiersType !== 'SKU' || identifiers.length > 20))
    throw invalidInput('identifiers needs identifiersType SKU and at most 20 values.');
  const all = ctx.state.data
    .listingsItems(ctx.seller, ctx.at)
    .filter((item) => !identifiers || identifiers.includes(String(item.sku)));
  const pageable = all.slice(0, 1000);
  const items = pageable.slice(offset, offset + pageSize);
  const next =
    offset + pageSize < pageable.length
      ? encodeToken({ offset: offset + pageSize, scope, issuedAt: ctx.at })
      : undefined;
  return {
    status: 200,
    body: { numberOfResults: all.length, ...(next ? { pagination: { nextToken: next } } : {}), items },
  };
}

/**
 * patchListingsItem (Listings Items 2021-08-01): JSON Patch operations on a listing's attributes, answered ACCEPTED
 * with a submission id, or INVALID with issues. A `purchasable_offer` with `our_price` changes the listing's price from
 * now on (what the next listings fetch and the merchant listings report show), with a WARNING issue when it is less
 * than half or more than twice the current one; other attributes are accepted as is.
 */
function patchListing(ctx: SpContext) {
  if (ctx.params[0] !== ctx.seller.sellerId)
    throw new SpError(403, 'Unauthorized', 'Access to requested resource is denied.', '');
  if (!listParam(ctx, 'marketplaceIds').includes(ctx.seller.marketplaceId))
    throw invalidInput('marketplaceIds is required.');
  const sku = decodeURIComponent(ctx.params[1]!);
  const body = ctx.body as
    { productType?: unknown; patches?: { op?: unknown; path?: unknown; value?: unknown }[] } | undefined;
  if (typeof body?.productType !== 'string' || !Array.isArray(body.patches) || body.patches.length === 0)
    throw invalidInput('productType and patches are required.');
  const listing = ctx.state.data.listingsItems(ctx.seller, ctx.at).find((l) => l.sku === sku);
  const submissionId = crypto.randomUUID().replaceAll('-', '');
  if (!listing) {
    return {
      status: 200,
      body: {
        sku,
        status: 'INVALID',
        submissionId,
        issues: [
          {
            code: '4000001',
            message: `SKU ${sku} does not exist for this seller.`,
            severity: 'ERROR',
            attributeNames: [],
            categories: [],
          },
        ],
      },
    };
  }
  const issues: Record<string, unknown>[] = [];
  for (const patch of body.patches) {
    if (
      !['add', 'replace', 'merge', 'delete'].includes(String(patch.op)) ||
      typeof patch.path !== 'string' ||
      !patch.path.startsWith('/attributes/')
    ) {
      issues.push({
        code: '4000003',
        message: `Invalid patch operation ${String(patch.op)} ${String(patch.path)}.`,
        severity: 'ERROR',
        attributeNames: [],
        categories: ['INVALID_ATTRIBUTE'],
      });
      continue;
    }
    if (patch.path !== '/attributes/purchasable_offer' || patch.op === 'delete') continue;
    const offer = (Array.isArray(patch.value) ? patch.value[0] : undefined) as
      { currency?: string; our_price?: { schedule?: { value_with_tax?: number }[] }[] } | undefined;
    const price = offer?.our_price?.[0]?.schedule?.[0]?.value_with_tax;
    if (typeof price !== 'number' || !(price > 0) || offer?.currency !== ctx.seller.currency) {
      issues.push({
        code: '90220',
        message: `'our_price' must be a positive amount in ${ctx.seller.currency}.`,
        severity: 'ERROR',
        attributeNames: ['purchasable_offer'],
        categories: ['INVALID_PRICE'],
      });
      continue;
    }
    // Like the marketplace's pricing alerts: a price far from the listing's current one is applied, with a warning.
    const current = Number((listing.offers as { price: { amount: string } }[])[0]!.price.amount);
    if (price < current / 2 || price > current * 2) {
      issues.push({
        code: '18348',
        message: `The price ${price} differs by more than 50% from the current price ${current}; check it is intended.`,
        severity: 'WARNING',
        attributeNames: ['purchasable_offer'],
        categories: ['INVALID_PRICE'],
      });
    }
    (ctx.seller.priceChanges ??= new Map()).set(sku, { cents: Math.round(price * 100), from: ctx.at });
  }
  return {
    status: 200,
    body: { sku, status: issues.some((i) => i.severity === 'ERROR') ? 'INVALID' : 'ACCEPTED', submissionId, issues },
  };
}
const batchEntry = (ctx: SpContext, request: Record<string, unknown>) => {
  const asin = /^\/products\/pricing\/v0\/items\/([^/]+)\/offers$/.exec(String(request.uri ?? ''))?.[1];
  const payload =
    asin && request.MarketplaceId === ctx.seller.marketplaceId
      ? ctx.state.data.itemOffers(ctx.seller, asin, String(request.ItemCondition ?? 'New'), ctx.at)
      : null;
  const status = payload ? { statusCode: 200, reasonPhrase: 'OK' } : { statusCode: 400, reasonPhrase: 'Bad Request' };
  const body = payload
    ? { payload }
    : {
        errors: [
          {
            code: 'InvalidInput',
            message: `Invalid ASIN ${asin ?? ''} for marketplace ${String(request.MarketplaceId)}`,
          },
        ],
      };
  return {
    status,
    headers: { 'x-amzn-RequestId': crypto.randomUUID(), Date: new Date(ctx.at).toUTCString() },
    body,
    request: {
      MarketplaceId: request.MarketplaceId,
      Asin: asin,
      ItemCondition: request.ItemCondition,
      CustomerType: request.CustomerType,
    },
  };
};

/**
 * Listings Items, FBA Inventory, Product Pricing (single and batch) and Sellers operations, and the product type
 * definitions of product-type-operations.ts.
 */
export function listingsRoutes(): SpRoute[] {
  return [
    {
      method: 'GET',
      pattern: /^\/fba\/inventory\/v1\/summaries$/,
      operation: 'getInventorySummaries',
      handler: inventorySummaries,
    },
    {
      method: 'GET',
      pattern: /^\/listings\/2021-08-01\/items\/([^/]+)$/,
      operation: 'searchListingsItems',
      handler: searchListings,
    },
    ...productTypeRoutes(),
    {
      method: 'PATCH',
      pattern: /^\/listings\/2021-08-01\/items\/([^/]+)\/([^/]+)$/,
      operation: 'patchListingsItem',
      handler: patchListing,
    },
    {
      method: 'POST',
      pattern: /^\/batches\/products\/pricing\/v0\/itemOffers$/,
      operation: 'getItemOffersBatch',
      handler: (ctx) => {
        const requests = (ctx.body as { requests?: Record<string, unknown>[] } | undefined)?.requests;
        if (!Array.isArray(requests) || requests.length < 1 || requests.length > 20)
          throw invalidInput('requests must hold 1 to 20 entries.');
        const uris = requests.map((r) => r.uri);
        if (new Set(uris).size !== uris.length)
          throw invalidInput('Duplicate requests submitted. Cannot run batch request.');
        return { status: 200, body: { responses: requests.map((r) => batchEntry(ctx, r)) } };
      },
    },
    {
      method: 'GET',
      pattern: /^\/sellers\/v1\/marketplaceParticipations$/,
      operation: 'getMarketplaceParticipations',
      handler: (ctx) => ({
        status: 200,
        body: {
          payload: [
            {
              marketplace: {
                id: ctx.seller.marketplaceId,
                countryCode: ctx.seller.countryCode,
                name: ctx.seller.salesChannel,
                defaultCurrencyCode: ctx.seller.currency,
                defaultLanguageCode: ctx.seller.countryCode === 'DE' ? 'de_DE' : 'en_US',
                domainName: ctx.seller.salesChannel.toLowerCase(),
              },
              participation: { isParticipating: true, hasSuspendedListings: false },
              storeName: ctx.seller.name,
            },
          ],
        },
      }),
    },
  ];
}
