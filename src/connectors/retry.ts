import type { Clock } from '../time/clock.ts';
import { ConnectorError, isRetryable } from './connector-error.ts';

/** How a failed attempt is retried. */
export interface RetryPolicy {
  /** Attempts in all. @default 6 */
  maxAttempts?: number;
  /** Least wait after a 429, in ms: one token of the operation's bucket (1 / rate). */
  throttledMs?: () => number;
  /** First backoff after a 5xx or a network error, doubled each time. @default 1000 */
  baseMs?: number;
  /** Longest backoff. @default 60 000 */
  capMs?: number;
}

/**
 * The wait before the next attempt: at least a token's time (or Retry-After) after a 429, else exponential backoff with
 * full jitter.
 */
export function retryDelay(
  error: ConnectorError,
  attempt: number,
  policy: RetryPolicy,
  retryAfterMs: number | null,
  random = Math.random,
): number {
  const backoff = Math.min(policy.capMs ?? 60_000, (policy.baseMs ?? 1000) * 2 ** (attempt - 1));
  const jitter = random() * backoff;
  if (error.kind === 'throttled') return Math.max(retryAfterMs ?? 0, policy.throttledMs?.() ?? 0) + jitter / 4;
  return jitter;
}

/** An error from an attempt, with the server's Retry-After when it sent one. */
export class AttemptError extends Error {
  constructor(
    readonly error: ConnectorError,
    readonly retryAfterMs: number | null,
  ) {
    super(error.message);
  }
}

/** Runs `attempt` until it succeeds, its error is not worth retrying, or the attempts are spent; waits on the clock. */
export async function withRetries<T>(
  clock: Clock,
  policy: RetryPolicy,
  attempt: (n: number) => Promise<T>,
): Promise<T> {
  const max = policy.maxAttempts ?? 6;
  for (let n = 1; ; n++) {
    try {
      return await attempt(n);
    } catch (caught) {
      const error = caught instanceof AttemptError ? caught.error : caught;
      if (!isRetryable(error) || n >= max) throw error;
      await clock.sleep(
        retryDelay(error as ConnectorError, n, policy, caught instanceof AttemptError ? caught.retryAfterMs : null),
      );
    }
  }
}

/**
 * A `fetch` that turns a failure to connect into a `network` ConnectorError (retried). On a clock that moves only when
 * its readers wait, time stands still until the answer comes: the request arrives at the instant it was sent, right
 * after its rate-limit token was taken.
 */
export async function fetchOrThrow(
  url: string,
  init: RequestInit,
  operation: string,
  clock?: Clock,
): Promise<Response> {
  const release = clock?.hold?.();
  try {
    return await fetch(url, init);
  } catch (error) {
    throw new ConnectorError(
      'network',
      `cannot reach ${new URL(url).host}: ${(error as Error).cause instanceof Error ? ((error as Error).cause as Error).message : (error as Error).message}`,
      { operation, cause: error },
    );
  } finally {
    release?.();
  }
}
