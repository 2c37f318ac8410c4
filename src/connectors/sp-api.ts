import { systemClock, type Clock } from '../time/clock.ts';
import { ConnectorError, type ConnectorErrorKind } from './connector-error.ts';
import type { LwaClient } from './lwa.ts';
import type { RateLimits } from './rate-limits.ts';
import { AttemptError, fetchOrThrow, withRetries } from './retry.ts';

/** One attempt as the client reports it: never headers, tokens or bodies. */
export type ApiLog = (event: {
  api: 'sp' | 'ads';
  operation: string;
  status: number;
  ms: number;
  /** How long it waited for its rate limit's token (on the client's clock). */
  waitedMs: number;
  attempt: number;
  requestId: string | null;
}) => void;

export interface SpApiClientOptions {
  /** The region's host, e.g. https://sellingpartnerapi-na.amazon.com. */
  baseUrl: string;
  lwa: LwaClient;
  refreshToken: string;
  /** Whose buckets the calls take from: the selling partner (buckets are per seller and application). */
  sellerKey: string;
  limits: RateLimits;
  clock?: Clock;
  log?: ApiLog;
}

/** An SP-API request: the operation (its usage plan) and the HTTP call. */
export interface SpRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query?: Record<string, string | undefined>;
  body?: unknown;
}

/** JSON of an answer body, or undefined when it is not JSON (a proxy's HTML error page). */
export function safeJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : {};
  } catch {
    return undefined;
  }
}

interface SpErrorBody {
  errors?: { code?: string; message?: string; details?: string }[];
}

/** The kind of an SP-API failure (docs/design/live-apis.md §1.2, §2.3). */
function kindOf(status: number): ConnectorErrorKind {
  if (status === 429) return 'throttled';
  if (status >= 500) return 'server';
  if (status === 403 || status === 401) return 'access-denied';
  if (status === 404) return 'not-found';
  return 'invalid-input';
}

/**
 * A thin SP-API client for one seller: each attempt first takes a token of the (seller, operation) bucket, sends
 * the LWA access token, and follows `x-amzn-RateLimit-Limit`; 429, 5xx and network failures are retried with
 * backoff, an expired access token is refreshed once.
 */
export class SpApiClient {
  readonly #clock: Clock;

  constructor(private readonly o: SpApiClientOptions) {
    this.#clock = o.clock ?? systemClock;
  }

  /** Calls an operation; the answer's JSON body, status and headers, or a ConnectorError. */
  async request<T>(operation: string, request: SpRequest): Promise<{ status: number; body: T; headers: Headers }> {
    const bucket = this.o.limits.bucket(this.o.sellerKey, operation);
    const url = new URL(`${this.o.baseUrl.replace(/\/+$/, '')}${request.path}`);
    for (const [k, v] of Object.entries(request.query ?? {})) if (v !== undefined) url.searchParams.set(k, v);
    let refreshed = false;
    return withRetries(this.#clock, { throttledMs: () => 1000 / bucket.rate }, async (attempt) => {
      for (;;) {
        // The access token first (a token request can take a while), then the bucket's token right before sending:
        // the server stamps the request on arrival, and a delay between the two would look like a burst to it.
        await this.o.lwa.accessToken(this.o.refreshToken);
        const waiting = this.#clock.now();
        await bucket.take();
        const waitedMs = this.#clock.now() - waiting;
        const token = await this.o.lwa.accessToken(this.o.refreshToken);
        bucket.settle();
        const started = this.#clock.now();
        const response = await fetchOrThrow(
          url.toString(),
          {
            method: request.method,
            headers: {
              'x-amz-access-token': token,
              'x-amz-date': new Date(this.#clock.now()).toISOString().replace(/[-:]|\.\d+/g, ''),
              'user-agent': 'mktdata/0.1 (Language=TypeScript)',
              ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
            },
            body: request.body === undefined ? undefined : JSON.stringify(request.body),
          },
          operation,
          this.#clock,
        );
        const requestId = response.headers.get('x-amzn-requestid');
        this.o.log?.({
          api: 'sp',
          operation,
          status: response.status,
          ms: this.#clock.now() - started,
          waitedMs,
          attempt,
          requestId,
        });
        const text = await response.text();
        if (response.ok) {
          const limit = Number(response.headers.get('x-amzn-ratelimit-limit'));
          if (limit > 0) bucket.setRate(limit);
          const body = safeJson(text);
          if (body === undefined)
            throw new AttemptError(
              new ConnectorError('server', `${response.status} answer is not JSON`, {
                status: response.status,
                operation,
                requestId,
              }),
              null,
            );
          return { status: response.status, body: body as T, headers: response.headers };
        }
        const first = (safeJson(text) as SpErrorBody | undefined)?.errors?.[0];
        // An expired access token: refresh it once and ask again (the refresh token itself may be fine).
        if (response.status === 403 && /expired/i.test(first?.details ?? '') && !refreshed) {
          refreshed = true;
          this.o.lwa.invalidate(this.o.refreshToken);
          continue;
        }
        const error = new ConnectorError(
          kindOf(response.status),
          `${response.status} ${first?.code ?? ''} ${first?.message ?? ''}${first?.details ? ` (${first.details})` : ''}`
            .replace(/\s+/g, ' ')
            .trim(),
          { status: response.status, code: first?.code ?? null, details: first?.details ?? null, operation, requestId },
        );
        throw new AttemptError(error, null);
      }
    });
  }
}
