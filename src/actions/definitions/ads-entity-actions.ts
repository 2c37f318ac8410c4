import { z } from 'zod';
import type { ActionType } from '../../vocabulary/action-types.ts';
import {
  adProduct,
  adsId,
  adsPost,
  defined,
  multiStatusOutcome,
  page,
  pageOutcome,
  type MultiStatus,
} from './ads-common.ts';
import { define, type ActionContext, type ActionDefinition } from './define.ts';
import { atLeastOne, ruled } from './rules.ts';

/** An item of a batch, in our details or the upstream's. */
export type Item = Record<string, any>;

/**
 * One entity of Ads API v1 unified campaign management (POST /adsApi/v1/{create|update|delete|query}/{plural}; its
 * operations CreateX, UpdateX, DeleteX, QueryX): the item schemas of our details and their mapping to the upstream's,
 * the find filters (our list → upstream `<x>Filter.include`), how many an update takes, and one example per verb.
 */
export interface EntitySpec {
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

/** An update item: its id and at least one of the changes. */
export const updateItem = (idField: string, changes: Record<string, z.ZodType>) =>
  ruled(
    z.object({ [idField]: adsId, ...changes }).strict(),
    atLeastOne(Object.keys(changes), `give at least one of ${Object.keys(changes).join(', ')}`),
  );

const ids = z.array(adsId).min(1).max(100);
const operation = (verb: string, s: EntitySpec) => `${verb}${s.one[0]!.toUpperCase()}${s.one.slice(1)}`;

/**
 * The four types of one entity: ADD (create), UPDATE, REMOVE (delete: archives) as batches, FIND (query) a page at a
 * time.
 */
export function entityActions(s: EntitySpec): Partial<Record<ActionType, ActionDefinition>> {
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
