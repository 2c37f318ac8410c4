import type { FakeSeller } from '../data/sellers.ts';
import type { FakeState } from '../state.ts';

/** What an SP-API operation handler gets: the authenticated seller, the request, and a detail bag for the log. */
export interface SpContext {
  state: FakeState;
  seller: FakeSeller;
  /** The fake's base URL, for the links it hands out. */
  base: string;
  /** When the request arrived, on the clock. */
  at: number;
  params: string[];
  query: Record<string, string>;
  /** Every value of each query parameter (the SP-API takes lists comma-separated, some clients repeat them). */
  rawQuery: URLSearchParams;
  body: unknown;
  detail: Record<string, unknown>;
}

/** An operation's answer: status and JSON body. */
export interface SpAnswer {
  status: number;
  body: unknown;
}

/** One SP-API operation: method, path pattern (captures are `params`), the model's operationId, its handler. */
export interface SpRoute {
  method: string;
  pattern: RegExp;
  operation: string;
  handler: (ctx: SpContext) => SpAnswer | Promise<SpAnswer>;
}

/** A comma-separated (or repeated) list parameter. */
export const listParam = (ctx: SpContext, name: string): string[] =>
  ctx.rawQuery
    .getAll(name)
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
