import type { Clock } from '../time/clock.ts';

/** A rate and a burst: tokens refill at `rate` per second up to `burst`; each request takes one. */
export interface RatePlan {
  rate: number;
  burst: number;
}

/**
 * A token bucket on a clock, full at first use, with waiters served in order of arrival. It spaces requests a
 * `margin` slower than the rate (5 %), so that a server stamping arrivals a little late never sees more than the rate.
 */
export class TokenBucket {
  #rate: number;
  readonly #burst: number;
  readonly #margin: number;
  #tokens: number;
  #at: number;
  #queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly clock: Clock,
    plan: RatePlan,
    /** @default 0.05 */
    margin = 0.05,
  ) {
    this.#rate = plan.rate;
    this.#burst = plan.burst;
    this.#margin = margin;
    this.#tokens = plan.burst;
    this.#at = clock.now();
  }

  get rate(): number {
    return this.#rate;
  }

  /** Changes the refill rate (from `x-amzn-RateLimit-Limit`); the burst stays. */
  setRate(rate: number): void {
    if (!(rate > 0) || rate === this.#rate) return;
    this.#refill();
    this.#rate = rate;
  }

  #refill(): void {
    const now = this.clock.now();
    this.#tokens = Math.min(this.#burst, this.#tokens + ((now - this.#at) / 1000) * (this.#rate / (1 + this.#margin)));
    this.#at = now;
  }

  /**
   * Marks the request of the last token as sent now: refill counts from the send, not the take, so a request that
   * left late cannot make the next one look early to the server.
   */
  settle(): void {
    this.#at = Math.max(this.#at, this.clock.now());
  }

  /** Waits (on the clock, behind earlier callers) until a token is there, and takes it. */
  take(signal?: AbortSignal): Promise<void> {
    const turn = this.#queue.then(async () => {
      for (;;) {
        signal?.throwIfAborted();
        this.#refill();
        if (this.#tokens >= 1) {
          this.#tokens -= 1;
          return;
        }
        await this.clock.sleep(((1 - this.#tokens) / (this.#rate / (1 + this.#margin))) * 1000, signal);
      }
    });
    this.#queue = turn.catch(() => undefined);
    return turn;
  }
}
