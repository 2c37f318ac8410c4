import { createHash } from 'node:crypto';
import { ASINS } from '../data/catalog.ts';
import { decodeToken, encodeToken } from '../sp/paging.ts';
import type { AdsManagementStore, AdsRecord } from './ads-management-store.ts';
import { AdsError, type AdsContext, type AdsRoute } from './ads-routes.ts';

const PORTFOLIO_TYPE = 'application/vnd.spPortfolio.v3+json';
const POLICIES = ['DATE_RANGE', 'MONTHLY_RECURRING', 'NO_CAP'];
type PortfolioError = { errorType: string; errorValue: { message: string; cause?: string } };

const invalid = (message: string, cause?: string): PortfolioError => ({
  errorType: 'INVALID_ARGUMENT',
  errorValue: { message, ...(cause ? { cause } : {}) },
});

/** Why a portfolio's name, state or budget is refused, or null. */
function portfolioProblem(p: AdsRecord, creating: boolean): PortfolioError | null {
  if (creating && (typeof p.name !== 'string' || p.name.trim() === '')) return invalid('name is required', 'name');
  if (p.state !== undefined && p.state !== 'ENABLED' && p.state !== 'PAUSED')
    return invalid('state must be ENABLED or PAUSED', 'state');
  const budget = p.budget as Record<string, unknown> | undefined;
  if (budget && !POLICIES.includes(String(budget.policy)))
    return invalid(`budget.policy must be one of ${POLICIES.join(', ')}`, 'budget.policy');
  if (budget && budget.policy !== 'NO_CAP' && !(Number(budget.amount) > 0))
    return invalid('budget.amount must be positive', 'budget.amount');
  if (budget?.policy === 'DATE_RANGE' && !budget.startDate)
    return invalid('a DATE_RANGE budget needs startDate', 'budget.startDate');
  return null;
}

/** POST /portfolios (create) and PUT /portfolios (update): 207 `{ portfolios: { success, error } }` by index. */
function writePortfolios(store: AdsManagementStore, ctx: AdsContext, creating: boolean) {
  const list = (ctx.body as { portfolios?: unknown[] } | undefined)?.portfolios;
  if (!Array.isArray(list) || list.length === 0 || list.length > 100)
    throw new AdsError(400, 'portfolios must list 1 to 100 portfolios');
  const portfolios = store.of(ctx.seller, ctx.at).portfolios;
  const success: unknown[] = [];
  const error: unknown[] = [];
  list.forEach((raw, index) => {
    const p = (raw ?? {}) as AdsRecord;
    const target = creating ? undefined : portfolios.get(String(p.portfolioId));
    const refused =
      !creating && !target
        ? { errorType: 'ENTITY_NOT_FOUND', errorValue: { message: `portfolio ${String(p.portfolioId)} not found` } }
        : portfolioProblem(p, creating);
    if (refused) return void error.push({ index, errors: [refused] });
    const budget = p.budget ? { ...(p.budget as AdsRecord), currencyCode: ctx.seller.currency } : undefined;
    const record = target ?? {
      portfolioId: store.newId(),
      state: 'ENABLED',
      inBudget: true,
      budget: { policy: 'NO_CAP', currencyCode: ctx.seller.currency },
    };
    Object.assign(
      record,
      p.name !== undefined ? { name: p.name } : {},
      p.state !== undefined ? { state: p.state } : {},
      budget ? { budget } : {},
    );
    portfolios.set(String(record.portfolioId), record);
    success.push({ index, portfolioId: record.portfolioId, portfolio: record });
  });
  return { status: 207, body: { portfolios: { success, error } } };
}

/** POST /portfolios/list: id, state and name filters, maxResults, nextToken, totalResults. */
function listPortfolios(store: AdsManagementStore, ctx: AdsContext) {
  const body = (ctx.body ?? {}) as {
    portfolioIdFilter?: { include?: string[] };
    stateFilter?: { include?: string[] };
    nameFilter?: { include?: string[] };
    maxResults?: number;
    nextToken?: string;
  };
  const maxResults = body.maxResults ?? 100;
  if (!Number.isInteger(maxResults) || maxResults < 1 || maxResults > 100)
    throw new AdsError(400, 'maxResults must be between 1 and 100');
  const all = [...store.of(ctx.seller, ctx.at).portfolios.values()].filter(
    (p) =>
      (!body.portfolioIdFilter?.include || body.portfolioIdFilter.include.includes(String(p.portfolioId))) &&
      (!body.stateFilter?.include || body.stateFilter.include.includes(String(p.state))) &&
      (!body.nameFilter?.include || body.nameFilter.include.includes(String(p.name))),
  );
  const scope = `${ctx.seller.ads!.profileId}/portfolios/${createHash('sha1')
    .update(JSON.stringify([body.portfolioIdFilter, body.stateFilter, body.nameFilter, maxResults]))
    .digest('hex')}`;
  const offset = body.nextToken === undefined ? 0 : (decodeToken(body.nextToken, scope)?.offset ?? -1);
  if (offset < 0) throw new AdsError(400, 'nextToken is invalid');
  const next =
    offset + maxResults < all.length
      ? encodeToken({ offset: offset + maxResults, scope, issuedAt: ctx.at })
      : undefined;
  return {
    status: 200,
    body: {
      portfolios: all.slice(offset, offset + maxResults),
      totalResults: all.length,
      ...(next ? { nextToken: next } : {}),
    },
  };
}

/** GET /brands: the advertiser's registered brand. */
function brands(ctx: AdsContext) {
  const brandName = ctx.seller.name.replace(/ (US|DE)$/, '');
  return {
    status: 200,
    body: [
      {
        brandId: `${ctx.seller.ads!.entityId}-BRAND`,
        brandEntityId: `ENTITY${ctx.seller.ads!.profileId % 1_000_000}BR`,
        brandRegistryName: brandName,
      },
    ],
  };
}

const EXPRESSIONS = [
  'CLOSE_MATCH',
  'LOOSE_MATCH',
  'SUBSTITUTES',
  'COMPLEMENTS',
  'KEYWORD_BROAD_MATCH',
  'KEYWORD_EXACT_MATCH',
  'KEYWORD_PHRASE_MATCH',
  'PAT_ASIN',
  'PAT_CATEGORY',
];

/**
 * POST /sp/targets/bid/recommendations (theme-based, BIDS_FOR_EXISTING_AD_GROUP): low, median and high bids per
 * expression.
 */
function bidRecommendations(store: AdsManagementStore, ctx: AdsContext) {
  const body = (ctx.body ?? {}) as {
    recommendationType?: string;
    campaignId?: string;
    adGroupId?: string;
    targetingExpressions?: { type?: string; value?: string }[];
  };
  if (body.recommendationType !== 'BIDS_FOR_EXISTING_AD_GROUP')
    throw new AdsError(400, 'recommendationType must be BIDS_FOR_EXISTING_AD_GROUP');
  const group = store.of(ctx.seller, ctx.at).entities.adGroups.get(String(body.adGroupId));
  if (!group || group.campaignId !== body.campaignId || group.adProduct !== 'SPONSORED_PRODUCTS')
    throw new AdsError(
      400,
      `adGroupId ${String(body.adGroupId)} is not an ad group of campaign ${String(body.campaignId)}`,
    );
  const expressions = body.targetingExpressions;
  if (
    !Array.isArray(expressions) ||
    expressions.length === 0 ||
    expressions.length > 100 ||
    expressions.some((e) => !EXPRESSIONS.includes(String(e.type)))
  )
    throw new AdsError(400, `targetingExpressions must list 1 to 100 expressions of types ${EXPRESSIONS.join(', ')}`);
  const base = (e: { type?: string; value?: string }) =>
    0.5 +
    (parseInt(
      createHash('sha1')
        .update(`${e.type}/${e.value ?? ''}`)
        .digest('hex')
        .slice(0, 4),
      16,
    ) %
      100) /
      100;
  const bid = (value: number) => Math.round(value * 100) / 100;
  return {
    status: 200,
    body: {
      bidRecommendations: [
        {
          theme: 'CONVERSION_OPPORTUNITIES',
          bidRecommendationsForTargetingExpressions: expressions.map((e) => ({
            targetingExpression: { type: e.type, value: e.value ?? null },
            bidValues: [0.75, 1, 1.3].map((f) => ({ suggestedBid: bid(base(e) * f) })),
          })),
        },
      ],
    },
  };
}

/**
 * POST /sp/targets/products/recommendations: ASINs to target for the advertised ASINs, `count` a page, `cursor` ↔
 * `nextCursor`.
 */
function productRecommendations(ctx: AdsContext) {
  const body = (ctx.body ?? {}) as { adAsins?: string[]; count?: number; cursor?: string };
  if (!Array.isArray(body.adAsins) || body.adAsins.length === 0 || body.adAsins.length > 50)
    throw new AdsError(400, 'adAsins must list 1 to 50 ASINs');
  const count = body.count ?? 100;
  if (!Number.isInteger(count) || count < 1 || count > 1000)
    throw new AdsError(400, 'count must be between 1 and 1000');
  const all = [...new Set(ASINS.values())]
    .filter((a) => !body.adAsins!.includes(a))
    .sort()
    .map((recommendedAsin, i) => ({
      recommendedAsin,
      themes: [i % 2 === 0 ? 'Similar items (frequently viewed together)' : 'Complements'],
    }));
  const scope = `${ctx.seller.ads!.profileId}/products/${body.adAsins.join(',')}/${count}`;
  const offset = body.cursor === undefined ? 0 : (decodeToken(body.cursor, scope)?.offset ?? -1);
  if (offset < 0) throw new AdsError(400, 'cursor is invalid');
  const next = offset + count < all.length ? encodeToken({ offset: offset + count, scope, issuedAt: ctx.at }) : null;
  return { status: 200, body: { recommendations: all.slice(offset, offset + count), nextCursor: next } };
}

/** Portfolios (v3), brands and the Sponsored Products recommendations, over one store. */
export function adsAccountRoutes(store: AdsManagementStore): AdsRoute[] {
  return [
    {
      method: 'POST',
      pattern: /^\/portfolios$/,
      operation: 'CreatePortfolios',
      contentType: PORTFOLIO_TYPE,
      handler: (ctx) => writePortfolios(store, ctx, true),
    },
    {
      method: 'PUT',
      pattern: /^\/portfolios$/,
      operation: 'UpdatePortfolios',
      contentType: PORTFOLIO_TYPE,
      handler: (ctx) => writePortfolios(store, ctx, false),
    },
    {
      method: 'POST',
      pattern: /^\/portfolios\/list$/,
      operation: 'ListPortfolios',
      contentType: PORTFOLIO_TYPE,
      handler: (ctx) => listPortfolios(store, ctx),
    },
    { method: 'GET', pattern: /^\/brands$/, operation: 'getBrands', handler: brands },
    {
      method: 'POST',
      pattern: /^\/sp\/targets\/bid\/recommendations$/,
      operation: 'GetThemeBasedBidRecommendationForAdGroup_v1',
      contentType: 'application/vnd.spthemebasedbidrecommendation.v3+json',
      handler: (ctx) => bidRecommendations(store, ctx),
    },
    {
      method: 'POST',
      pattern: /^\/sp\/targets\/products\/recommendations$/,
      operation: 'getProductRecommendations',
      contentType: 'application/vnd.spproductrecommendation.v3+json',
      handler: productRecommendations,
    },
  ];
}
