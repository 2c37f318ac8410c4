import { describe, expect, it } from 'vitest';
import { manualClock } from '../../src/time/clock.ts';
import { ConnectorError } from '../../src/connectors/connector-error.ts';
import { retryDelay, withRetries } from '../../src/connectors/retry.ts';
import { TokenBucket } from '../../src/connectors/token-bucket.ts';
import { Throttle } from '@mktdata/fake-marketplace';

const T0 = Date.parse('2026-11-20T00:00:00Z');
const error = (kind: ConstructorParameters<typeof ConnectorError>[0]) =>
  new ConnectorError(kind, 'x', { operation: 'getReport' });

describe('the token bucket', () => {
  it('lets the burst through at once, then one request per token, refilled at the rate less a 5 % margin', async () => {
    const clock = manualClock(T0);
    const bucket = new TokenBucket(clock, { rate: 2, burst: 2 });
    const taken: number[] = [];
    const take = () => bucket.take().then(() => taken.push(clock.now() - T0));
    const all = Promise.all([take(), take(), take(), take()]);
    await clock.advance(0);
    expect(taken).toEqual([0, 0]);
    // One token takes 1 / (2 / 1.05) s = 525 ms; the fourth waits a second token: 1050 ms.
    await clock.advance(524);
    expect(taken).toEqual([0, 0]);
    await clock.advance(1);
    expect(taken).toEqual([0, 0, 525]);
    await clock.advance(525);
    await all;
    expect(taken).toEqual([0, 0, 525, 1050]);
  });

  it('follows x-amzn-RateLimit-Limit: a lower rate spaces the next requests further apart', async () => {
    const clock = manualClock(T0);
    const bucket = new TokenBucket(clock, { rate: 1, burst: 1 });
    await bucket.take();
    bucket.setRate(0.5);
    let done = false;
    const next = bucket.take().then(() => (done = true));
    // 1 / (0.5 / 1.05) s = 2100 ms.
    await clock.advance(2099);
    expect(done).toBe(false);
    await clock.advance(1);
    await next;
    expect(done).toBe(true);
  });
});

describe('retries', () => {
  it('waits at least one token after a 429 (or Retry-After when longer), and backs off exponentially with jitter after a 5xx', () => {
    const policy = { throttledMs: () => 60_000, baseMs: 1000, capMs: 8000 };
    // 429: one token of a 1-per-minute operation, plus at most a quarter of the backoff as jitter.
    expect(retryDelay(error('throttled'), 1, policy, null, () => 0)).toBe(60_000);
    expect(retryDelay(error('throttled'), 1, policy, 90_000, () => 0)).toBe(90_000);
    expect(retryDelay(error('throttled'), 2, policy, null, () => 1)).toBe(60_000 + 2000 / 4);
    // 5xx: full jitter over 1 s, 2 s, 4 s, then the 8 s cap.
    expect([1, 2, 3, 4, 5].map((n) => retryDelay(error('server'), n, policy, null, () => 1))).toEqual([
      1000, 2000, 4000, 8000, 8000,
    ]);
    expect(retryDelay(error('server'), 3, policy, null, () => 0.5)).toBe(2000);
  });

  it('retries throttling and server errors until the attempts are spent, and never an invalid grant', async () => {
    const clock = manualClock(T0);
    let calls = 0;
    const failing = withRetries(clock, { maxAttempts: 3, baseMs: 10 }, async () => {
      calls++;
      throw error('server');
    });
    const caught = failing.catch((e: unknown) => e);
    for (let i = 0; i < 10; i++) await clock.advance(100);
    expect(await caught).toMatchObject({ kind: 'server' });
    expect(calls).toBe(3);

    let grants = 0;
    await expect(
      withRetries(clock, {}, async () => {
        grants++;
        throw error('invalid-grant');
      }),
    ).rejects.toMatchObject({ kind: 'invalid-grant' });
    expect(grants).toBe(1);
  });
});

describe("the fake marketplace's rate check", () => {
  it('counts a request beyond the documented bucket as over the rate, and refuses it when enforcing', () => {
    const throttle = new Throttle(true);
    const at = (ms: number) => ({ earliest: T0 + ms, latest: T0 + ms });
    // getInventorySummaries: rate 2, burst 2. Two at once pass, the third at once does not; half a second later one
    // does.
    expect(throttle.check('S', 'getInventorySummaries', at(0)).overRate).toBe(false);
    expect(throttle.check('S', 'getInventorySummaries', at(0)).overRate).toBe(false);
    expect(throttle.check('S', 'getInventorySummaries', at(0))).toMatchObject({ overRate: true, allowed: false });
    expect(throttle.check('S', 'getInventorySummaries', at(500)).overRate).toBe(false);
    // Another seller has its own bucket.
    expect(throttle.check('T', 'getInventorySummaries', at(500)).overRate).toBe(false);
  });

  it('judges a request seen after a stall as favourably as its arrival window allows', () => {
    const throttle = new Throttle(true);
    // getItemOffers: rate 0.5, burst 1. The first empties the bucket at 0; the loop stalls until 2 s; a request
    // read then may have arrived any time from 0 to 2 s: at 2 s the bucket had refilled, so it is within the rate.
    expect(throttle.check('S', 'getItemOffers', { earliest: T0, latest: T0 }).overRate).toBe(false);
    expect(throttle.check('S', 'getItemOffers', { earliest: T0, latest: T0 + 2000 }).overRate).toBe(false);
    // Its token was taken at the window's start (0 s): the next is within the rate from 2 s on, not from 4 s.
    expect(throttle.check('S', 'getItemOffers', { earliest: T0 + 2000, latest: T0 + 2000 }).overRate).toBe(false);
    expect(throttle.check('S', 'getItemOffers', { earliest: T0 + 3000, latest: T0 + 3000 }).overRate).toBe(true);
  });
});
