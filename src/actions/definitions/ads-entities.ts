import { z } from 'zod';
import { adsId, asin, day, entityState, money } from './ads-common.ts';
import { entityActions, updateItem, type EntitySpec, type Item } from './ads-entity-actions.ts';
import type { ActionGroup } from './define.ts';
import { exactlyOne, relation, ruled } from './rules.ts';

const time = (d: string | undefined, end = false) =>
  d === undefined ? undefined : `${d}T${end ? '23:59:59' : '00:00:00'}Z`;
const budgets = (m: { amount: number } | undefined) =>
  m
    ? [
        {
          budgetType: 'MONETARY',
          recurrenceTimePeriod: 'DAILY',
          budgetValue: { monetaryBudgetValue: { monetaryBudget: { value: m.amount } } },
        },
      ]
    : undefined;
const bidSettings = (strategy: string | undefined) =>
  strategy ? { bidSettings: { bidStrategy: strategy } } : undefined;
const bidStrategy = z.enum(['SALES_DOWN_ONLY', 'SALES_UP_AND_DOWN', 'MANUAL', 'RULE_BASED']);
const usd = (amount: number) => ({ amount, currency: 'USD' });

const campaignChanges = {
  name: z.string().trim().min(1).max(128).optional(),
  state: entityState.optional(),
  dailyBudget: money.optional(),
  endDate: day.optional(),
  portfolioId: adsId.optional(),
  bidStrategy: bidStrategy.optional(),
};
const campaignUpstream = (c: Item) => ({
  name: c.name,
  state: c.state,
  budgets: budgets(c.dailyBudget),
  endDateTime: time(c.endDate, true),
  portfolioId: c.portfolioId,
  optimizations: bidSettings(c.bidStrategy),
});

const specs: EntitySpec[] = [
  {
    type: 'CAMPAIGNS',
    plural: 'campaigns',
    one: 'campaign',
    idField: 'campaignId',
    byProduct: true,
    maxUpdate: 100,
    create: ruled(
      z
        .object({
          ...campaignChanges,
          name: z.string().trim().min(1).max(128),
          state: entityState.default('ENABLED'),
          dailyBudget: money.describe('The daily budget, in the marketplace currency.'),
          startDate: day.optional().describe('First day (UTC); today when left out.'),
          autoCreateTargets: z
            .boolean()
            .optional()
            .describe('Sponsored Products: let Amazon target automatically (an auto campaign).'),
        })
        .strict(),
      relation(
        (c) => !c.endDate || !c.startDate || c.endDate >= c.startDate,
        'endDate is not before startDate',
        'is before startDate',
        ['endDate'],
      ),
    ),
    toCreate: (c) => ({
      ...campaignUpstream(c),
      marketplaceScope: 'SINGLE_MARKETPLACE',
      startDateTime: time(c.startDate),
      autoCreationSettings: c.autoCreateTargets === undefined ? undefined : { autoCreateTargets: c.autoCreateTargets },
    }),
    update: updateItem('campaignId', campaignChanges),
    toUpdate: (c) => ({ campaignId: c.campaignId, ...campaignUpstream(c) }),
    filters: { campaignIds: 'campaignIdFilter', states: 'stateFilter', portfolioIds: 'portfolioIdFilter' },
    examples: {
      add: {
        adProduct: 'SPONSORED_PRODUCTS',
        campaigns: [
          { name: 'Acme Mugs - Manual', dailyBudget: usd(20), startDate: '2025-03-05', bidStrategy: 'SALES_DOWN_ONLY' },
        ],
      },
      update: { campaigns: [{ campaignId: '301442718905621', dailyBudget: usd(55), state: 'ENABLED' }] },
      remove: ['301442718905622'],
      find: { adProduct: 'SPONSORED_PRODUCTS', states: ['ENABLED', 'PAUSED'] },
    },
  },
  {
    type: 'AD_GROUPS',
    plural: 'adGroups',
    one: 'adGroup',
    idField: 'adGroupId',
    byProduct: true,
    maxUpdate: 100,
    create: z
      .object({
        campaignId: adsId,
        name: z.string().trim().min(1).max(255),
        state: entityState.default('ENABLED'),
        defaultBid: money.describe('The default maximum bid of its ads and targets.'),
      })
      .strict(),
    toCreate: (g) => ({
      campaignId: g.campaignId,
      name: g.name,
      state: g.state,
      bid: { defaultBid: g.defaultBid.amount },
    }),
    update: updateItem('adGroupId', {
      name: z.string().trim().min(1).max(255).optional(),
      state: entityState.optional(),
      defaultBid: money.optional(),
    }),
    toUpdate: (g) => ({
      adGroupId: g.adGroupId,
      name: g.name,
      state: g.state,
      bid: g.defaultBid ? { defaultBid: g.defaultBid.amount } : undefined,
    }),
    filters: { adGroupIds: 'adGroupIdFilter', campaignIds: 'campaignIdFilter', states: 'stateFilter' },
    examples: {
      add: {
        adProduct: 'SPONSORED_PRODUCTS',
        adGroups: [{ campaignId: '301442718905621', name: 'Daypacks - Exact', defaultBid: usd(0.85) }],
      },
      update: { adGroups: [{ adGroupId: '402118839305512', defaultBid: usd(0.95) }] },
      remove: ['402118839305513'],
      find: { adProduct: 'SPONSORED_PRODUCTS', campaignIds: ['301442718905621'] },
    },
  },
  {
    type: 'ADS',
    plural: 'ads',
    one: 'ad',
    idField: 'adId',
    byProduct: true,
    maxUpdate: 100,
    create: z
      .object({
        adGroupId: adsId,
        asin: asin.describe('The advertised product (a product ad).'),
        state: entityState.default('ENABLED'),
        name: z.string().trim().min(1).max(255).optional(),
      })
      .strict(),
    toCreate: (a) => ({
      adGroupId: a.adGroupId,
      adType: 'PRODUCT_AD',
      state: a.state,
      name: a.name,
      creative: {
        productCreative: {
          productCreativeSettings: { advertisedProduct: { productId: a.asin, productIdType: 'ASIN' } },
        },
      },
    }),
    update: updateItem('adId', { state: entityState.optional(), name: z.string().trim().min(1).max(255).optional() }),
    toUpdate: (a) => ({ adId: a.adId, state: a.state, name: a.name }),
    filters: {
      adIds: 'adIdFilter',
      adGroupIds: 'adGroupIdFilter',
      campaignIds: 'campaignIdFilter',
      states: 'stateFilter',
    },
    examples: {
      add: { adProduct: 'SPONSORED_PRODUCTS', ads: [{ adGroupId: '402118839305512', asin: 'B015AG461J' }] },
      update: { ads: [{ adId: '512093847561230', state: 'PAUSED' }] },
      remove: ['512093847561231'],
      find: { adProduct: 'SPONSORED_PRODUCTS', adGroupIds: ['402118839305512'] },
    },
  },
  {
    type: 'TARGETS',
    plural: 'targets',
    one: 'target',
    idField: 'targetId',
    byProduct: true,
    maxUpdate: 25,
    create: ruled(
      z
        .object({
          adGroupId: adsId.optional(),
          campaignId: adsId.optional().describe('Instead of adGroupId: a campaign-level (negative) target.'),
          state: entityState.default('ENABLED'),
          negative: z.boolean().default(false),
          bid: money.optional(),
          keyword: z
            .object({ text: z.string().trim().min(1).max(80), matchType: z.enum(['BROAD', 'PHRASE', 'EXACT']) })
            .strict()
            .optional(),
          product: z
            .object({ asin, matchType: z.enum(['PRODUCT_EXACT', 'PRODUCT_SIMILAR']).default('PRODUCT_EXACT') })
            .strict()
            .optional(),
        })
        .strict(),
      exactlyOne('adGroupId', 'campaignId'),
      exactlyOne('keyword', 'product'),
    ),
    toCreate: (t) => ({
      adGroupId: t.adGroupId,
      campaignId: t.campaignId,
      state: t.state,
      negative: t.negative,
      bid: t.bid ? { bid: t.bid.amount } : undefined,
      targetType: t.keyword ? 'KEYWORD' : 'PRODUCT',
      targetDetails: t.keyword
        ? { keywordTarget: { keyword: t.keyword.text, matchType: t.keyword.matchType } }
        : {
            productTarget: {
              product: { productId: t.product.asin },
              productIdType: 'ASIN',
              matchType: t.product.matchType,
            },
          },
    }),
    update: updateItem('targetId', { state: entityState.optional(), bid: money.optional() }),
    toUpdate: (t) => ({ targetId: t.targetId, state: t.state, bid: t.bid ? { bid: t.bid.amount } : undefined }),
    filters: {
      targetIds: 'targetIdFilter',
      adGroupIds: 'adGroupIdFilter',
      campaignIds: 'campaignIdFilter',
      states: 'stateFilter',
    },
    examples: {
      add: {
        adProduct: 'SPONSORED_PRODUCTS',
        targets: [
          { adGroupId: '402118839305512', keyword: { text: 'lightweight daypack', matchType: 'EXACT' }, bid: usd(1.1) },
        ],
      },
      update: { targets: [{ targetId: '611093847561231', bid: usd(1.05) }] },
      remove: ['611093847561232'],
      find: { adProduct: 'SPONSORED_PRODUCTS', adGroupIds: ['402118839305512'] },
    },
  },
  {
    type: 'AD_ASSOCIATIONS',
    plural: 'adAssociations',
    one: 'adAssociation',
    idField: 'adAssociationId',
    byProduct: false,
    maxUpdate: 100,
    create: z
      .object({
        adGroupId: adsId,
        adId: adsId,
        state: entityState.default('ENABLED'),
        weight: z
          .number()
          .int()
          .min(1)
          .max(100)
          .optional()
          .describe("The percentage of the ad group's traffic sent to this ad."),
      })
      .strict(),
    toCreate: (a) => a,
    update: updateItem('adAssociationId', {
      state: entityState.optional(),
      weight: z.number().int().min(1).max(100).optional(),
    }),
    toUpdate: (a) => a,
    filters: { adAssociationIds: 'adAssociationIdFilter', adGroupIds: 'adGroupIdFilter', adIds: 'adIdFilter' },
    examples: {
      add: { adAssociations: [{ adGroupId: '402118839305530', adId: '512093847561240', weight: 50 }] },
      update: { adAssociations: [{ adAssociationId: '721093847561240', weight: 70 }] },
      remove: ['721093847561241'],
      find: { adProduct: 'SPONSORED_BRANDS', adGroupIds: ['402118839305530'] },
    },
  },
];

/**
 * Campaigns, ad groups, ads, targets and ad associations (Ads API v1 unified campaign management, one request per
 * action for every ad product): ADD, UPDATE (at most 25 targets) and REMOVE are batches answered per index, FIND
 * filters on exactly one ad product and pages with nextToken.
 */
export const adsEntityActions: ActionGroup = Object.assign({}, ...specs.map(entityActions));
