import { existsSync, readFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';

/**
 * The time the fake lives by: rate-limit refill, token expiry and report processing are measured on it. A client that
 * shares it (the same object in one process, or the same MKTDATA_CLOCK_* numbers in another) sees the documented
 * rates on a fast clock. mktdata's own clocks have this shape, so they can be passed in as they are.
 */
export interface Clock {
  /** Milliseconds since the epoch on this clock. */
  now(): number;
  /** Waits `ms` milliseconds of this clock's time. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** Clock milliseconds per real millisecond (1 for the system clock; absent for a manual clock). */
  speed?(): number;
}

/** The machine's own clock. */
export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) => delay(Math.max(0, ms), undefined, { signal }),
  speed: () => 1,
};

/**
 * A clock `speed` times faster than real time that reads `start` at the real instant `realStart`: two processes given
 * the same three numbers read the same time (the MKTDATA_CLOCK_* variables `fakeMarketplaceEnv` prints).
 */
export function scaledClock(speed: number, start: number, realStart: number): Clock {
  if (!(speed > 0)) throw new Error(`clock speed must be positive, not ${speed}`);
  return {
    now: () => start + (Date.now() - realStart) * speed,
    sleep: (ms, signal) => delay(Math.max(0, ms) / speed, undefined, { signal }),
    speed: () => speed,
  };
}

/**
 * The time a client in another process keeps in `file` (epoch milliseconds as decimal text; `start` until it writes
 * one): mktdata given MKTDATA_CLOCK_FILE writes there a virtual clock that moves only when its connectors wait, and
 * never while one of their requests is on its way, so every answer is given at the time the request was sent. A sleep
 * on it ends once that client's clock has passed its end.
 */
export function fileClock(file: string, start: number): Clock {
  const now = () => {
    const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
    const time = Number(text);
    return text && Number.isFinite(time) ? time : start;
  };
  return {
    now,
    async sleep(ms, signal) {
      const until = now() + Math.max(0, ms);
      while (now() < until) await delay(10, undefined, { signal });
    },
  };
}
