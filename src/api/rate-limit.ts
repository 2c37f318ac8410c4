import { sql } from 'kysely';
import type { FastifyReply } from 'fastify';
import type { ControlStore } from '../db/control-store.ts';
import { MktdataError } from '../errors.ts';

/** The API's rate limit: a token bucket per key, `perSecond` tokens a second, bursts up to `perSecond`. */
export interface Limiter {
  readonly perSecond: number;
  /** Takes a token for `key`: null when allowed, else the whole seconds (≥ 1) to wait. */
  take(key: string): Promise<number | null>;
}

const wait = (tokens: number, perSecond: number) => Math.max(1, Math.ceil((1 - tokens) / perSecond));

/** The buckets in this process's memory: one API process per home. */
export class RateLimiter implements Limiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    readonly perSecond: number,
    private readonly now: () => number = Date.now,
  ) {}

  async take(key: string): Promise<number | null> {
    const now = this.now();
    const bucket = this.buckets.get(key) ?? { tokens: this.perSecond, at: now };
    bucket.tokens = Math.min(this.perSecond, bucket.tokens + ((now - bucket.at) / 1000) * this.perSecond);
    bucket.at = now;
    this.buckets.set(key, bucket);
    if (bucket.tokens < 1) return wait(bucket.tokens, this.perSecond);
    bucket.tokens -= 1;
    return null;
  }
}

/**
 * The buckets in the control plane, for API processes sharing it: one statement refills a key's bucket, takes a
 * token when there is one, and says whether it did, so that replicas together stay within the limit.
 */
export class SharedRateLimiter implements Limiter {
  constructor(
    private readonly store: ControlStore,
    readonly perSecond: number,
    private readonly now: () => number = Date.now,
  ) {}

  async take(key: string): Promise<number | null> {
    const now = this.now();
    const rate = this.perSecond;
    const refilled = sql<number>`least(${rate}::double precision, rate_buckets.tokens + greatest(${now}::bigint - rate_buckets.at_ms, 0) / 1000.0 * ${rate})`;
    const { rows } = await sql<{ tokens: number; granted: boolean }>`
      insert into control.rate_buckets (key, tokens, at_ms, granted) values (${key}, ${rate - 1}::double precision, ${now}::bigint, true)
      on conflict (key) do update set
        tokens = case when ${refilled} >= 1 then ${refilled} - 1 else ${refilled} end,
        at_ms = greatest(${now}::bigint, rate_buckets.at_ms),
        granted = ${refilled} >= 1
      returning tokens, granted`.execute(this.store.db);
    const row = rows[0]!;
    return row.granted ? null : wait(Number(row.tokens), rate);
  }
}

/** Takes one of the organization's tokens, or answers ERR_RATE_LIMITED (429) with its Retry-After header. */
export async function takeRateLimitToken(limiter: Limiter, organizationId: string, reply: FastifyReply): Promise<void> {
  const retryAfter = await limiter.take(organizationId);
  if (retryAfter === null) return;
  reply.header('Retry-After', String(retryAfter));
  throw new MktdataError('ERR_RATE_LIMITED', { perSecond: limiter.perSecond, retryAfter });
}
