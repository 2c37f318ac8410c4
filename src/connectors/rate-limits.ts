import type { Clock } from '../time/clock.ts';
import { TokenBucket, type RatePlan } from './token-bucket.ts';
import { usagePlans } from './usage-plans.ts';

/**
 * The buckets of one process: one per (seller, operation), as the marketplace counts them (per selling partner
 * and application), shared by every job that calls for that seller.
 */
export class RateLimits {
  readonly #buckets = new Map<string, TokenBucket>();

  constructor(private readonly clock: Clock) {}

  /** The bucket of a seller's operation: its documented plan, or `plan` for operations without one. */
  bucket(sellerKey: string, operation: string, plan?: RatePlan): TokenBucket {
    const key = `${sellerKey}/${operation}`;
    let bucket = this.#buckets.get(key);
    if (!bucket) {
      const documented = usagePlans[operation] ?? plan;
      if (!documented) throw new Error(`no documented rate for ${operation}: add it to src/connectors/usage-plans.ts`);
      bucket = new TokenBucket(this.clock, documented);
      this.#buckets.set(key, bucket);
    }
    return bucket;
  }
}
