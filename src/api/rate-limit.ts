/** A token bucket per key: `perSecond` tokens a second, bursts up to `perSecond`. */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    readonly perSecond: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes a token for `key`: null when allowed, else the whole seconds (≥ 1) to wait. */
  take(key: string): number | null {
    const now = this.now();
    const bucket = this.buckets.get(key) ?? { tokens: this.perSecond, at: now };
    bucket.tokens = Math.min(this.perSecond, bucket.tokens + ((now - bucket.at) / 1000) * this.perSecond);
    bucket.at = now;
    this.buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return null;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / this.perSecond));
  }
}
