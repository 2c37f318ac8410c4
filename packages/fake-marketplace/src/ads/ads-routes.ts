import type { FakeSeller } from '../data/sellers.ts';
import type { FakeState } from '../state.ts';

/** An Ads API error: `{ code, detail }` with its status. */
export class AdsError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}

/**
 * What a campaign management handler gets: the advertiser of the profile Scope, the request, a detail bag for the log.
 */
export interface AdsContext {
  state: FakeState;
  seller: FakeSeller;
  at: number;
  params: string[];
  query: Record<string, string>;
  body: unknown;
  detail: Record<string, unknown>;
}

/**
 * One Ads API operation under a profile's Scope: method, path pattern (captures are `params`), its name in the
 * Ads API reference, the vendor media type its request body must carry (415 otherwise), and its handler, which
 * answers a status (207 for multi-status batches) and a JSON body.
 */
export interface AdsRoute {
  method: string;
  pattern: RegExp;
  operation: string;
  contentType?: string;
  handler: (ctx: AdsContext) => { status: number; body: unknown };
}
