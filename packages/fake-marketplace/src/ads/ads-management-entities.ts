import { createHash } from 'node:crypto';
import { decodeToken, encodeToken } from '../sp/paging.ts';
import type { AdsEntityName, AdsManagementStore, AdsProfileState, AdsRecord } from './ads-management-store.ts';
import { AdsError, type AdsContext, type AdsRoute } from './ads-routes.ts';

type Problem = { code: string; message: string; fieldLocation?: string };

/**
 * One unified entity of Ads API v1 campaign management: its name in one answer, id field, required create fields,
 * the parents it must name (and what it inherits from them), what an update may change, and its query filters.
 */
interface EntityTable {
  one: string;
  id: string;
  adProduct: boolean;
  required: string[];
  parents: { field: string; of: AdsEntityName; optional?: boolean }[];
  inherit: string[];
  mutable: string[];
  filters: Record<string, string>;
  check?: (item: AdsRecord, state: AdsProfileState) => Problem | null;
}

export const AD_PRODUCTS = ['SPONSORED_PRODUCTS', 'SPONSORED_BRANDS', 'SPONSORED_DISPLAY'];
const live = (r: AdsRecord | undefined) => r !== undefined && r.state !== 'ARCHIVED';

const tables: Record<AdsEntityName, EntityTable> = {
  campaigns: {
    one: 'campaign',
    id: 'campaignId',
    adProduct: true,
    required: ['adProduct', 'name', 'state'],
    parents: [],
    inherit: [],
    mutable: ['name', 'state', 'budgets', 'startDateTime', 'endDateTime', 'portfolioId', 'optimizations', 'tags'],
    filters: { campaignIdFilter: 'campaignId', stateFilter: 'state', portfolioIdFilter: 'portfolioId' },
    check: (item, state) =>
      [...state.entities.campaigns.values()].some((c) => live(c) && c.name === item.name)
        ? {
            code: 'FIELD_VALUE_NOT_UNIQUE',
            message: `A campaign named ${String(item.name)} already exists.`,
            fieldLocation: 'name',
          }
        : null,
  },
  adGroups: {
    one: 'adGroup',
    id: 'adGroupId',
    adProduct: true,
    required: ['adProduct', 'campaignId', 'name', 'state'],
    parents: [{ field: 'campaignId', of: 'campaigns' }],
    inherit: [],
    mutable: ['name', 'state', 'bid', 'endDateTime', 'tags'],
    filters: { adGroupIdFilter: 'adGroupId', campaignIdFilter: 'campaignId', stateFilter: 'state' },
  },
  ads: {
    one: 'ad',
    id: 'adId',
    adProduct: true,
    required: ['adProduct', 'adGroupId', 'adType', 'creative', 'state'],
    parents: [{ field: 'adGroupId', of: 'adGroups' }],
    inherit: ['campaignId'],
    mutable: ['name', 'state', 'creative', 'tags'],
    filters: { adIdFilter: 'adId', adGroupIdFilter: 'adGroupId', campaignIdFilter: 'campaignId', stateFilter: 'state' },
  },
  targets: {
    one: 'target',
    id: 'targetId',
    adProduct: true,
    required: ['adProduct', 'negative', 'state', 'targetDetails', 'targetType'],
    parents: [
      { field: 'adGroupId', of: 'adGroups', optional: true },
      { field: 'campaignId', of: 'campaigns', optional: true },
    ],
    inherit: ['campaignId'],
    mutable: ['state', 'bid', 'tags'],
    filters: {
      targetIdFilter: 'targetId',
      adGroupIdFilter: 'adGroupId',
      campaignIdFilter: 'campaignId',
      stateFilter: 'state',
      targetTypeFilter: 'targetType',
      negativeFilter: 'negative',
    },
    check: (item) =>
      item.adGroupId === undefined && item.campaignId === undefined
        ? { code: 'FIELD_VALUE_IS_NULL', message: 'adGroupId or campaignId is required.', fieldLocation: 'adGroupId' }
        : null,
  },
  adAssociations: {
    one: 'adAssociation',
    id: 'adAssociationId',
    adProduct: false,
    required: ['adGroupId', 'adId', 'state'],
    parents: [
      { field: 'adGroupId', of: 'adGroups' },
      { field: 'adId', of: 'ads' },
    ],
    inherit: [],
    mutable: ['state', 'weight', 'startDateTime', 'endDateTime'],
    filters: { adAssociationIdFilter: 'adAssociationId', adGroupIdFilter: 'adGroupId', adIdFilter: 'adId' },
  },
};

const asRecord = (raw: unknown): AdsRecord => (raw && typeof raw === 'object' ? raw : {}) as AdsRecord;
const problem = (code: string, message: string, fieldLocation?: string): Problem => ({
  code,
  message,
  ...(fieldLocation ? { fieldLocation } : {}),
});

/** The request's list under `key`: 1 to 1,000 items, or a 400 BAD_REQUEST. */
function listOf(ctx: AdsContext, key: string): unknown[] {
  const list = (ctx.body as Record<string, unknown> | undefined)?.[key];
  if (!Array.isArray(list) || list.length === 0 || list.length > 1000)
    throw new AdsError(400, `BAD_REQUEST: ${key} must list 1 to 1000 items`);
  return list;
}

/** Why a new entity cannot be created (required fields, values, parents), or null. */
function createProblem(t: EntityTable, item: AdsRecord, state: AdsProfileState): Problem | null {
  const missing = t.required.find((f) => item[f] === undefined || item[f] === null || item[f] === '');
  if (missing) return problem('FIELD_VALUE_IS_NULL', `${missing} is required.`, missing);
  if (t.adProduct && !AD_PRODUCTS.includes(String(item.adProduct)))
    return problem('FIELD_VALUE_IS_INVALID', `adProduct ${String(item.adProduct)} is not supported.`, 'adProduct');
  if (item.state !== 'ENABLED' && item.state !== 'PAUSED')
    return problem('FIELD_VALUE_IS_INVALID', 'state must be ENABLED or PAUSED.', 'state');
  for (const p of t.parents) {
    if (item[p.field] === undefined && p.optional) continue;
    const parent = state.entities[p.of].get(String(item[p.field]));
    if (!parent) return problem('FIELD_VALUE_NOT_FOUND', `${p.field} ${String(item[p.field])} was not found.`, p.field);
    if (parent.state === 'ARCHIVED')
      return problem('ARCHIVED_PARENT_CANNOT_CREATE', `${p.field} ${String(item[p.field])} is archived.`, p.field);
    if (t.adProduct && parent.adProduct !== item.adProduct)
      return problem(
        'FIELD_VALUE_MISMATCH',
        `adProduct does not match that of ${p.field} ${String(item[p.field])}.`,
        'adProduct',
      );
  }
  return t.check?.(item, state) ?? null;
}

/** A multi-status (207) answer: `success` with each done item, `error` with each refused one, by index. */
function multiStatus(t: EntityTable, items: unknown[], apply: (item: unknown) => Problem | AdsRecord) {
  const success: unknown[] = [];
  const error: unknown[] = [];
  items.forEach((raw, index) => {
    const done = apply(raw);
    if (!(t.id in done)) error.push({ index, errors: [done] });
    else success.push({ index, [t.one]: done });
  });
  return { status: 207, body: { success, error, partialSuccess: [] } };
}

function create(store: AdsManagementStore, name: AdsEntityName, ctx: AdsContext) {
  const t = tables[name];
  const state = store.of(ctx.seller, ctx.at);
  return multiStatus(t, listOf(ctx, name), (raw) => {
    const item = asRecord(raw);
    const refused = createProblem(t, item, state);
    if (refused) return refused;
    const parent =
      t.parents[0] && item[t.parents[0].field] !== undefined
        ? state.entities[t.parents[0].of].get(String(item[t.parents[0].field]))
        : undefined;
    const inherited = Object.fromEntries(
      t.inherit.filter((f) => parent?.[f] !== undefined).map((f) => [f, parent![f]]),
    );
    const record: AdsRecord = {
      ...item,
      ...inherited,
      [t.id]: store.newId(),
      creationDateTime: new Date(ctx.at).toISOString(),
      lastUpdatedDateTime: new Date(ctx.at).toISOString(),
    };
    if (t.adProduct)
      Object.assign(record, { marketplaceScope: 'SINGLE_MARKETPLACE', marketplaces: [ctx.seller.countryCode] });
    state.entities[name].set(String(record[t.id]), record);
    return record;
  });
}

/** The entity an update or delete names, or why not. */
function existing(t: EntityTable, records: Map<string, AdsRecord>, id: unknown): AdsRecord | Problem {
  if (typeof id !== 'string' || id === '') return problem('FIELD_VALUE_IS_NULL', `${t.id} is required.`, t.id);
  const record = records.get(id);
  if (!record) return problem('RESOURCE_ID_NOT_FOUND', `${t.id} ${id} was not found.`, t.id);
  if (record.state === 'ARCHIVED') return problem('ARCHIVED_RESOURCE_CANNOT_EDIT', `${t.id} ${id} is archived.`, t.id);
  return record;
}

function update(store: AdsManagementStore, name: AdsEntityName, ctx: AdsContext) {
  const t = tables[name];
  const records = store.of(ctx.seller, ctx.at).entities[name];
  return multiStatus(t, listOf(ctx, name), (raw) => {
    const item = asRecord(raw);
    const found = existing(t, records, item[t.id]);
    if (!(t.id in found)) return found;
    if (item.state !== undefined && item.state !== 'ENABLED' && item.state !== 'PAUSED')
      return problem('FIELD_VALUE_IS_INVALID', 'state must be ENABLED or PAUSED.', 'state');
    const changes = Object.fromEntries(Object.entries(item).filter(([k]) => t.mutable.includes(k)));
    Object.assign(found, changes, { lastUpdatedDateTime: new Date(ctx.at).toISOString() });
    return found;
  });
}

function remove(store: AdsManagementStore, name: AdsEntityName, ctx: AdsContext) {
  const t = tables[name];
  const records = store.of(ctx.seller, ctx.at).entities[name];
  return multiStatus(t, listOf(ctx, `${t.id}s`), (id) => {
    const found = existing(t, records, id);
    if (!(t.id in found)) return found;
    return Object.assign(found, { state: 'ARCHIVED', lastUpdatedDateTime: new Date(ctx.at).toISOString() });
  });
}

/**
 * A query: exactly one ad product (not for ad associations), `<field>Filter.include` lists, maxResults 1 to 1000,
 * nextToken.
 */
function query(store: AdsManagementStore, name: AdsEntityName, ctx: AdsContext) {
  const t = tables[name];
  const body = (ctx.body ?? {}) as Record<string, { include?: unknown[] } | number | string | undefined>;
  const products = (body.adProductFilter as { include?: unknown[] } | undefined)?.include;
  if (t.adProduct && (!Array.isArray(products) || products.length !== 1 || !AD_PRODUCTS.includes(String(products[0]))))
    throw new AdsError(400, 'BAD_REQUEST: adProductFilter must include exactly one ad product');
  const maxResults = body.maxResults === undefined ? 100 : Number(body.maxResults);
  if (!Number.isInteger(maxResults) || maxResults < 1 || maxResults > 1000)
    throw new AdsError(400, 'BAD_REQUEST: maxResults must be between 1 and 1000');
  const filters = Object.entries({ ...(t.adProduct ? { adProductFilter: 'adProduct' } : {}), ...t.filters }).flatMap(
    ([filter, field]) => {
      const include = (body[filter] as { include?: unknown[] } | undefined)?.include;
      return Array.isArray(include) ? [{ field, include: include.map(String) }] : [];
    },
  );
  const scope = `${ctx.seller.ads!.profileId}/${name}/${createHash('sha1')
    .update(JSON.stringify([filters, maxResults]))
    .digest('hex')}`;
  const offset = body.nextToken === undefined ? 0 : (decodeToken(String(body.nextToken), scope)?.offset ?? -1);
  if (offset < 0) throw new AdsError(400, 'BAD_REQUEST: nextToken is invalid');
  const all = [...store.of(ctx.seller, ctx.at).entities[name].values()].filter((r) =>
    filters.every((f) => f.include.includes(String(r[f.field]))),
  );
  const next =
    offset + maxResults < all.length
      ? encodeToken({ offset: offset + maxResults, scope, issuedAt: ctx.at })
      : undefined;
  return {
    status: 200,
    body: { [name]: all.slice(offset, offset + maxResults), ...(next ? { nextToken: next } : {}) },
  };
}

const verbs = {
  create: ['Create', create],
  update: ['Update', update],
  delete: ['Delete', remove],
  query: ['Query', query],
} as const;

/**
 * Ads API v1 unified campaign management: POST /adsApi/v1/{create|update|delete|query}/{entity}, JSON bodies, 207
 * multi-status writes.
 */
export function adsEntityRoutes(store: AdsManagementStore): AdsRoute[] {
  return (Object.keys(tables) as AdsEntityName[]).flatMap((name) =>
    Object.entries(verbs).map(([verb, [operation, handler]]) => ({
      method: 'POST',
      pattern: new RegExp(`^/adsApi/v1/${verb}/${name}$`),
      operation: `${operation}${tables[name].one[0]!.toUpperCase()}${tables[name].one.slice(1)}`,
      contentType: 'application/json',
      handler: (ctx: AdsContext) => handler(store, name, ctx),
    })),
  );
}
