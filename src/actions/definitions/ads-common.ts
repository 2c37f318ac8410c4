import { z } from 'zod';
import { batchOutcome, completed, type ActionContext, type ActionOutcome } from './define.ts';

export { money } from './listings.ts';

/** The ad products of sponsored ads, as the Ads API names them (`adProduct`, `adProductFilter`). */
export const adProduct = z
  .enum(['SPONSORED_PRODUCTS', 'SPONSORED_BRANDS', 'SPONSORED_DISPLAY'])
  .describe('The one ad product this action is about.');
/** An Ads API entity id: a numeric string. */
export const adsId = z.string().regex(/^\d{1,20}$/, 'a numeric id such as 301442718905621');
export const entityState = z.enum(['ENABLED', 'PAUSED']);
export const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a date such as 2025-03-31');
export const asin = z.string().regex(/^[A-Z0-9]{10}$/, 'an ASIN such as B0NB0P6V0A');
/** A find's page: up to `maxResults` (default 100) and the `nextToken` of the previous page. */
export const page = {
  maxResults: z.number().int().min(1).max(1000).default(100),
  nextToken: z.string().min(1).max(2048).optional().describe('The nextToken of the previous page.'),
};

/** One item of a batch as the action's result lists it (its index in the request, its id once done, its errors). */
export interface ItemResult {
  index: number;
  ok: boolean;
  id?: unknown;
  errors?: unknown[];
  warnings?: unknown[];
  invalid?: boolean;
}

/**
 * A batch's outcome from an answer given per index (multi-status): each item the answer does not mention failed.
 * The result lists `items` and whatever else the caller adds (for example the entities done).
 */
export function indexedOutcome(
  count: number,
  itemAt: (index: number) => ItemResult | undefined,
  result: Record<string, unknown>,
): ActionOutcome {
  const items = Array.from(
    { length: count },
    (_, index) =>
      itemAt(index) ?? {
        index,
        ok: false,
        invalid: false,
        errors: [{ code: 'NO_ANSWER', message: 'the answer does not mention this item' }],
      },
  );
  return batchOutcome(items, { ...result, items });
}

type Indexed = { index: number } & Record<string, unknown>;
/**
 * An Ads API v1 multi-status (207) answer: done items with their entity, refused ones with their errors, done ones with
 * errors.
 */
export interface MultiStatus {
  success?: Indexed[];
  error?: { index: number; errors: { code: string; message: string }[] }[];
  partialSuccess?: (Indexed & { errors: unknown[] })[];
}

/**
 * The outcome of an Ads API v1 create/update/delete of `count` items of one entity (`one`, id field `idField`) under
 * `plural`.
 */
export function multiStatusOutcome(
  body: MultiStatus,
  count: number,
  entity: { plural: string; one: string; idField: string },
): ActionOutcome {
  const idOf = (s: Indexed) => (s[entity.one] as Record<string, unknown> | undefined)?.[entity.idField] ?? null;
  const done = [...(body.success ?? []), ...(body.partialSuccess ?? [])].sort((a, b) => a.index - b.index);
  return indexedOutcome(
    count,
    (index) => {
      const success = body.success?.find((s) => s.index === index);
      if (success) return { index, ok: true, id: idOf(success) };
      const partial = body.partialSuccess?.find((s) => s.index === index);
      if (partial) return { index, ok: true, id: idOf(partial), warnings: partial.errors };
      const error = body.error?.find((e) => e.index === index);
      return error
        ? { index, ok: false, invalid: error.errors.every((e) => e.code !== 'INTERNAL_ERROR'), errors: error.errors }
        : undefined;
    },
    { [entity.plural]: done.map((s) => s[entity.one]) },
  );
}

/** A find's result: the page under `key` and the token of the next page (null on the last). */
export const pageOutcome = (key: string, list: unknown, nextToken: unknown): ActionOutcome =>
  completed({ [key]: list ?? [], nextToken: nextToken ?? null });

/** An Ads API call of the profile with a JSON body of this media type. */
export const adsPost = <T>(
  ctx: ActionContext,
  operation: string,
  method: 'POST' | 'PUT',
  path: string,
  body: unknown,
  contentType = 'application/json',
  accept?: string,
) => ctx.ads().call<T>(operation, { method, path, body, contentType, accept: accept ?? contentType });

/** Drops the keys whose value is undefined (optional fields not given). */
export const defined = (o: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
