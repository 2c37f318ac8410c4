import { z } from 'zod';
import { adsId, adsPost, asin, day, defined, entityState, indexedOutcome, money, pageOutcome } from './ads-common.ts';
import { completed, define, type ActionContext, type ActionGroup } from './define.ts';
import { atLeastOne, requiredWhen, ruled } from './rules.ts';

const PORTFOLIO = 'application/vnd.spPortfolio.v3+json';
const BID_RECOMMENDATION = 'application/vnd.spthemebasedbidrecommendation.v3+json';

const budget = ruled(
  z
    .object({
      policy: z.enum(['DATE_RANGE', 'MONTHLY_RECURRING', 'NO_CAP']),
      amount: money.optional().describe('The cap (not for NO_CAP).'),
      startDate: day.optional(),
      endDate: day.optional(),
    })
    .strict(),
  requiredWhen('amount', 'policy', ['DATE_RANGE', 'MONTHLY_RECURRING'], 'a capped budget needs amount'),
  requiredWhen('startDate', 'policy', ['DATE_RANGE'], 'a DATE_RANGE budget needs startDate'),
);
const portfolioName = z.string().trim().min(1).max(128);

type Budget = z.output<typeof budget>;
const toBudget = (b: Budget | undefined, currency: string) =>
  b
    ? defined({
        policy: b.policy,
        amount: b.amount?.amount,
        currencyCode: currency,
        startDate: b.startDate,
        endDate: b.endDate,
      })
    : undefined;
type PortfolioAnswer = {
  portfolios: {
    success?: { index: number; portfolioId: string; portfolio?: unknown }[];
    error?: { index: number; errors: unknown[] }[];
  };
};

/**
 * CreatePortfolios (POST /portfolios) or UpdatePortfolios (PUT /portfolios), Portfolios v3: a batch answered per index.
 */
async function writePortfolios(ctx: ActionContext, method: 'POST' | 'PUT', portfolios: Record<string, unknown>[]) {
  const { portfolios: answer } = await adsPost<PortfolioAnswer>(
    ctx,
    method === 'POST' ? 'CreatePortfolios' : 'UpdatePortfolios',
    method,
    '/portfolios',
    { portfolios },
    PORTFOLIO,
  );
  return indexedOutcome(
    portfolios.length,
    (index) => {
      const success = answer.success?.find((s) => s.index === index);
      if (success) return { index, ok: true, id: success.portfolioId };
      const error = answer.error?.find((e) => e.index === index);
      return error ? { index, ok: false, invalid: true, errors: error.errors } : undefined;
    },
    { portfolios: (answer.success ?? []).map((s) => s.portfolio ?? { portfolioId: s.portfolioId }) },
  );
}

/**
 * Portfolios (Ads API portfolios v3: CreatePortfolios, UpdatePortfolios, ListPortfolios; they group campaigns of every
 * ad product, so their find names none), brands (Sponsored Brands getBrands, GET /brands) and the Sponsored Products
 * recommendations (theme-based bids for an ad group's targeting expressions; ASINs to target for advertised ASINs).
 */
export const adsAccountActions: ActionGroup = {
  MKT_ADS_PORTFOLIOS_ADD: define(
    z
      .object({
        portfolios: z
          .array(
            z
              .object({ name: portfolioName, state: entityState.default('ENABLED'), budget: budget.optional() })
              .strict(),
          )
          .min(1)
          .max(100),
      })
      .strict()
      .meta({
        examples: [
          {
            portfolios: [
              {
                name: 'Acme Summer',
                budget: { policy: 'MONTHLY_RECURRING', amount: { amount: 500, currency: 'USD' } },
              },
            ],
          },
        ],
      }),
    (ctx, d) =>
      writePortfolios(
        ctx,
        'POST',
        d.portfolios.map((p) => defined({ name: p.name, state: p.state, budget: toBudget(p.budget, ctx.currency) })),
      ),
  ),
  MKT_ADS_PORTFOLIOS_UPDATE: define(
    z
      .object({
        portfolios: z
          .array(
            ruled(
              z
                .object({
                  portfolioId: adsId,
                  name: portfolioName.optional(),
                  state: entityState.optional(),
                  budget: budget.optional(),
                })
                .strict(),
              atLeastOne(['name', 'state', 'budget']),
            ),
          )
          .min(1)
          .max(100),
      })
      .strict()
      .meta({ examples: [{ portfolios: [{ portfolioId: '274923182315193', name: 'Acme Core 2025' }] }] }),
    (ctx, d) =>
      writePortfolios(
        ctx,
        'PUT',
        d.portfolios.map((p) =>
          defined({
            portfolioId: p.portfolioId,
            name: p.name,
            state: p.state,
            budget: toBudget(p.budget, ctx.currency),
          }),
        ),
      ),
  ),
  MKT_ADS_PORTFOLIOS_FIND: define(
    z
      .object({
        portfolioIds: z.array(adsId).min(1).max(100).optional(),
        states: z
          .array(z.enum(['ENABLED', 'PAUSED', 'ARCHIVED']))
          .min(1)
          .max(3)
          .optional(),
        maxResults: z.number().int().min(1).max(100).default(100),
        nextToken: z.string().min(1).max(2048).optional(),
      })
      .strict()
      .meta({ examples: [{ states: ['ENABLED'] }] }),
    async (ctx, d) => {
      const body = defined({
        portfolioIdFilter: d.portfolioIds && { include: d.portfolioIds },
        stateFilter: d.states && { include: d.states },
        maxResults: d.maxResults,
        nextToken: d.nextToken,
      });
      const answer = await adsPost<{ portfolios?: unknown[]; nextToken?: string }>(
        ctx,
        'ListPortfolios',
        'POST',
        '/portfolios/list',
        body,
        PORTFOLIO,
      );
      return pageOutcome('portfolios', answer.portfolios, answer.nextToken);
    },
  ),
  MKT_ADS_BRANDS_FIND: define(
    z
      .object({
        adProduct: z
          .literal('SPONSORED_BRANDS')
          .default('SPONSORED_BRANDS')
          .describe('Brands are those of Sponsored Brands; one page, no nextToken.'),
      })
      .strict()
      .meta({ examples: [{ adProduct: 'SPONSORED_BRANDS' }] }),
    async (ctx) =>
      pageOutcome('brands', await ctx.ads().call<unknown[]>('getBrands', { method: 'GET', path: '/brands' }), null),
  ),
  MKT_ADS_SP_BID_RECOMMENDATIONS_FIND: define(
    z
      .object({
        adProduct: z.literal('SPONSORED_PRODUCTS').default('SPONSORED_PRODUCTS'),
        campaignId: adsId,
        adGroupId: adsId.describe('An ad group of the campaign with at least one product ad.'),
        targetingExpressions: z
          .array(
            z
              .object({
                type: z.enum([
                  'CLOSE_MATCH',
                  'LOOSE_MATCH',
                  'SUBSTITUTES',
                  'COMPLEMENTS',
                  'KEYWORD_BROAD_MATCH',
                  'KEYWORD_EXACT_MATCH',
                  'KEYWORD_PHRASE_MATCH',
                  'PAT_ASIN',
                  'PAT_CATEGORY',
                ]),
                value: z
                  .string()
                  .trim()
                  .min(1)
                  .max(200)
                  .optional()
                  .describe('The keyword, ASIN or category id (not for the auto-targeting types).'),
              })
              .strict(),
          )
          .min(1)
          .max(100),
      })
      .strict()
      .meta({
        examples: [
          {
            campaignId: '301442718905621',
            adGroupId: '402118839305512',
            targetingExpressions: [{ type: 'KEYWORD_EXACT_MATCH', value: 'hiking daypack' }, { type: 'CLOSE_MATCH' }],
          },
        ],
      }),
    async (ctx, d) => {
      const body = {
        recommendationType: 'BIDS_FOR_EXISTING_AD_GROUP',
        campaignId: d.campaignId,
        adGroupId: d.adGroupId,
        targetingExpressions: d.targetingExpressions,
      };
      const answer = await adsPost<{ bidRecommendations?: unknown[] }>(
        ctx,
        'GetThemeBasedBidRecommendationForAdGroup_v1',
        'POST',
        '/sp/targets/bid/recommendations',
        body,
        BID_RECOMMENDATION,
      );
      return completed({ bidRecommendations: answer.bidRecommendations ?? [], nextToken: null });
    },
  ),
  MKT_ADS_SP_TARGET_RECOMMENDATIONS_FIND: define(
    z
      .object({
        adProduct: z.literal('SPONSORED_PRODUCTS').default('SPONSORED_PRODUCTS'),
        asins: z.array(asin).min(1).max(50).describe('The advertised ASINs: products to target alongside them.'),
        count: z.number().int().min(1).max(1000).default(100),
        nextToken: z.string().min(1).max(2048).optional(),
      })
      .strict()
      .meta({ examples: [{ asins: ['B0NB0P6V0A'], count: 5 }] }),
    async (ctx, d) => {
      const body = defined({ adAsins: d.asins, count: d.count, cursor: d.nextToken });
      const answer = await adsPost<{ recommendations?: unknown[]; nextCursor?: string | null }>(
        ctx,
        'getProductRecommendations',
        'POST',
        '/sp/targets/products/recommendations',
        body,
        'application/vnd.spproductrecommendation.v3+json',
        'application/vnd.spproductrecommendationresponse.asins.v3+json',
      );
      return pageOutcome('recommendations', answer.recommendations, answer.nextCursor);
    },
  ),
};
