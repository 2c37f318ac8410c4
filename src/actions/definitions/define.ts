import type { z } from 'zod';
import type { AdsApiClient } from '../../connectors/ads-api.ts';
import type { SpApiClient } from '../../connectors/sp-api.ts';
import type { ActionStatus, ActionType } from '../../vocabulary/action-types.ts';

/**
 * What a type's run needs: the connection's clients (made when first asked for: an ads type needs Ads API
 * credentials, the others SP-API ones), its selling partner, marketplace and currency, and the clock.
 */
export interface ActionContext {
  sp(): SpApiClient;
  ads(): AdsApiClient;
  sellerId: string;
  marketplaceId: string;
  currency: string;
  now: number;
}

/** Where an action ends after a run or a check (the worker sets IN_PROGRESS, BLOCKED_NO_TOKENS and CANCELED itself). */
export type OutcomeStatus = Extract<
  ActionStatus,
  | 'COMPLETED'
  | 'PARTIALLY_COMPLETED'
  | 'COMPLETED_WITH_ISSUES'
  | 'ERROR'
  | 'BLOCKED_INVALID_INPUT'
  | 'WAITING_EXTERNAL_PROCESSING'
>;

/**
 * How a run or a check ended: the status, what GET /actions/{id} answers as `result`, the `error`, and what to check
 * next.
 */
export interface ActionOutcome {
  status: OutcomeStatus;
  result: unknown;
  error?: { status: number; code: string; message: string };
  /** WAITING_EXTERNAL_PROCESSING: the upstream id (a transaction, a submission) `check` looks at, and how soon. */
  waitFor?: { externalId: string; checkAfterMs: number };
}

/**
 * One action type: its `details` schema (with one valid example in its metadata: clients and tests read it from the
 * served JSON Schema), the run that calls the mapped upstream operations, and, for a type the marketplace finishes
 * later, the check of its upstream id.
 */
export interface ActionDefinition<D = any> {
  schema: z.ZodType<D>;
  run(ctx: ActionContext, details: D): Promise<ActionOutcome>;
  check?(ctx: ActionContext, externalId: string, details: D): Promise<ActionOutcome>;
}

export type ActionGroup = Partial<Record<ActionType, ActionDefinition>>;

/** A type's definition, with `details` typed by its schema. */
export const define = <S extends z.ZodType>(
  schema: S,
  run: (ctx: ActionContext, details: z.output<S>) => Promise<ActionOutcome>,
  check?: (ctx: ActionContext, externalId: string, details: z.output<S>) => Promise<ActionOutcome>,
): ActionDefinition<z.output<S>> => ({ schema: schema as z.ZodType<z.output<S>>, run, ...(check ? { check } : {}) });

/** The valid example a type's schema carries in its metadata (served in its JSON Schema's `examples`). */
export const exampleOf = (definition: ActionDefinition): Record<string, unknown> =>
  (definition.schema.meta() as { examples: Record<string, unknown>[] }).examples[0]!;

/** A finished read or write: COMPLETED with its result. */
export const completed = (result: unknown): ActionOutcome => ({ status: 'COMPLETED', result });

/**
 * The outcome of a batch (several items in one request, each answered on its own): every item done is COMPLETED,
 * some is PARTIALLY_COMPLETED, none is BLOCKED_INVALID_INPUT when the marketplace refused each item's input (else
 * ERROR); items done with warnings make it COMPLETED_WITH_ISSUES. `result.items` lists each item's own result.
 */
export function batchOutcome(
  items: { ok: boolean; warnings?: unknown[]; invalid?: boolean }[],
  result: Record<string, unknown>,
): ActionOutcome {
  const done = items.filter((i) => i.ok).length;
  if (items.length > 0 && done === 0) {
    const invalid = items.every((i) => i.invalid !== false);
    return {
      status: invalid ? 'BLOCKED_INVALID_INPUT' : 'ERROR',
      result,
      error: {
        status: 400,
        code: invalid ? 'INVALID_INPUT' : 'UPSTREAM_ERROR',
        message: `the marketplace refused all ${items.length} items: see result.items`,
      },
    };
  }
  if (done < items.length) return { status: 'PARTIALLY_COMPLETED', result };
  if (items.some((i) => (i.warnings?.length ?? 0) > 0)) return { status: 'COMPLETED_WITH_ISSUES', result };
  return { status: 'COMPLETED', result };
}

/** Waits for the marketplace to finish: `check` looks at `externalId` again after `checkAfterMs`. */
export const waiting = (externalId: string, result: unknown, checkAfterMs = 30_000): ActionOutcome => ({
  status: 'WAITING_EXTERNAL_PROCESSING',
  result,
  waitFor: { externalId, checkAfterMs },
});
