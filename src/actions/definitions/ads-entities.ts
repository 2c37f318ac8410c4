import { z } from 'zod';
import type { ActionType } from '../../vocabulary/action-types.ts';
import {
  adProduct,
  adsId,
  adsPost,
  asin,
  day,
  defined,
  entityState,
  money,
  multiStatusOutcome,
  page,
  pageOutcome,
  type MultiStatus,
} from './ads-common.ts';
import { define, type ActionContext, type ActionDefinition, type ActionGroup } from './define.ts';

type Item = Record<string, any>;

/**
 * One entity of Ads API v1 unified campaign management (POST /adsApi/v1/{create|update|delete|query}/{plural}; its
 * operations CreateX, UpdateX, DeleteX, QueryX): the item schemas of our details and their mapping to the upstream's,
 * the find filters (our list → upstream `<x>Filter.include`), how many an update takes, and one example per verb.
 */
interface EntitySpec {
  type: string;
  plural: string;
  one: string;
  idField: string;
  /** Whether creates and queries name the ad product (ad associations do not). */
  byProduct: boolean;
  create: z.ZodType;
  toCreate(item: Item): Item;
  update: z.ZodType;
  toUpdate(item: Item): Item;
  maxUpdate: number;
  filters: Record<string, string>;
  examples: { add: Item; update: Item; remove: string[]; find: Item };
}

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
const aChange = (keys: string[]) => (d: Item) => keys.some((k) => d[k] !== undefined);
const changeMessage = (keys: string[]) => ({ message: `give at least one of ${keys.join(', ')}` });
const bidStrategy = z.enum(['SALES_DOWN_ONLY', 'SALES_UP_AND_DOWN', 'MANUAL', 'RULE_BASED']);
const usd = (amount: number) => ({ amount, currency: 'USD' });

/** An update item: its id and at least one of the changes. */
const updateItem = (idField: string, changes: Record<string, z.ZodType>) =>
  z
    .object({ [idField]: adsId, ...changes })
    .strict()
    .refine(aChange(Object.keys(changes)), changeMessage(Object.keys(changes)));

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
    create: z
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
      .strict()
      .refine((c) => !c.endDate || !c.startDate || c.endDate >= c.startDate, {
        message: 'is before startDate',
        path: ['endDate'],
      }),
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
    create: z
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
      .strict()
      .refine((t) => (t.adGroupId === undefined) !== (t.campaignId === undefined), {
        message: 'give exactly one of adGroupId and campaignId',
      })
      .refine((t) => (t.keyword === undefined) !== (t.product === undefined), {
        message: 'give exactly one of keyword and product',
      }),
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

const ids = z.array(adsId).min(1).max(100);
const operation = (verb: string, s: EntitySpec) => `${verb}${s.one[0]!.toUpperCase()}${s.one.slice(1)}`;

/**
 * The four types of one entity: ADD (create), UPDATE, REMOVE (delete: archives) as batches, FIND (query) a page at a
 * time.
 */
function entityActions(s: EntitySpec): Partial<Record<ActionType, ActionDefinition>> {
  const path = (verb: string) => `/adsApi/v1/${verb}/${s.plural}`;
  const write = async (ctx: ActionContext, verb: string, items: Item[]) => {
    const body = await adsPost<MultiStatus>(ctx, operation(verb, s), 'POST', path(verb.toLowerCase()), {
      [verb === 'Delete' ? `${s.idField}s` : s.plural]: items,
    });
    return multiStatusOutcome(body, items.length, s);
  };
  const productFor = s.byProduct ? { adProduct } : {};
  const filters = Object.fromEntries(
    Object.keys(s.filters).map((k) => [
      k,
      k === 'states'
        ? z
            .array(z.enum(['ENABLED', 'PAUSED', 'ARCHIVED']))
            .min(1)
            .max(3)
            .optional()
        : ids.optional(),
    ]),
  );
  return {
    [`MKT_ADS_${s.type}_ADD`]: define(
      z
        .object({ ...productFor, [s.plural]: z.array(s.create).min(1).max(100) })
        .strict()
        .meta({ examples: [s.examples.add] }),
      (ctx, d: Item) =>
        write(
          ctx,
          'Create',
          d[s.plural].map((i: Item) =>
            defined({ ...(s.byProduct ? { adProduct: d.adProduct } : {}), ...s.toCreate(i) }),
          ),
        ),
    ),
    [`MKT_ADS_${s.type}_UPDATE`]: define(
      z
        .object({ [s.plural]: z.array(s.update).min(1).max(s.maxUpdate) })
        .strict()
        .meta({ examples: [s.examples.update] }),
      (ctx, d: Item) =>
        write(
          ctx,
          'Update',
          d[s.plural].map((i: Item) => defined(s.toUpdate(i))),
        ),
    ),
    [`MKT_ADS_${s.type}_REMOVE`]: define(
      z
        .object({ [`${s.idField}s`]: ids })
        .strict()
        .meta({ examples: [{ [`${s.idField}s`]: s.examples.remove }] }),
      (ctx, d: Item) => write(ctx, 'Delete', d[`${s.idField}s`]),
    ),
    [`MKT_ADS_${s.type}_FIND`]: define(
      z
        .object({
          adProduct: s.byProduct
            ? adProduct
            : adProduct.describe(
                'The ad product of the ad groups named (QueryAdAssociation itself filters on no ad product).',
              ),
          ...filters,
          ...page,
        })
        .strict()
        .meta({ examples: [s.examples.find] }),
      async (ctx, d: Item) => {
        const body = defined({
          ...(s.byProduct ? { adProductFilter: { include: [d.adProduct] } } : {}),
          ...Object.fromEntries(
            Object.entries(s.filters)
              .filter(([k]) => d[k] !== undefined)
              .map(([k, filter]) => [filter, { include: d[k] }]),
          ),
          maxResults: d.maxResults,
          nextToken: d.nextToken,
        });
        const answer = await adsPost<Record<string, unknown>>(ctx, operation('Query', s), 'POST', path('query'), body);
        return pageOutcome(s.plural, answer[s.plural], answer.nextToken);
      },
    ),
  };
}

/**
 * Campaigns, ad groups, ads, targets and ad associations (Ads API v1 unified campaign management, one request per
 * action for every ad product): ADD, UPDATE (at most 25 targets) and REMOVE are batches answered per index, FIND
 * filters on exactly one ad product and pages with nextToken.
 */
export const adsEntityActions: ActionGroup = Object.assign({}, ...specs.map(entityActions));
