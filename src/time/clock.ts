import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

/**
 * The time the connectors and the fake marketplace live by. Rate limits, polling intervals, backoff, token expiry and
 * report processing are all measured on it, so that tests and benchmarks can run the documented rates on a fast clock.
 */
export interface Clock {
  /** Milliseconds since the epoch on this clock. */
  now(): number;
  /** Waits `ms` milliseconds of this clock's time. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** Clock milliseconds per real millisecond (1 for the system clock; absent for a manual clock). */
  speed?(): number;
  /**
   * Keeps this clock's time where it is until the returned function is called: a clock that moves only when its
   * readers wait must not move while a request is on its way (`virtualClock`). Clocks whose time passes by itself
   * have none.
   */
  hold?(): () => void;
}

/** The machine's own clock. */
export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) => delay(Math.max(0, ms), undefined, { signal }),
  speed: () => 1,
};

/**
 * Real time in epoch milliseconds, the same in every process. (`performance.timeOrigin` is sampled once when a
 * process starts, and on a loaded machine that sample can be off by a scheduling delay: times 500 on a fast clock,
 * minutes between two processes.)
 */
export const realNow = () => Date.now();

/**
 * A clock that runs `speed` times faster than real time: with speed 600, a minute of rate-limit refill takes 100 ms.
 * It reads `start` at the real instant `realStart`; two processes given the same three numbers read the same time,
 * so a client and a fake marketplace in another process agree.
 * @param start epoch milliseconds the clock reads at `realStart` @default now
 * @param realStart the real epoch milliseconds that `start` corresponds to @default now
 */
export function scaledClock(speed: number, start?: number, realStart?: number): Clock {
  if (!(speed > 0)) throw new Error(`clock speed must be positive, not ${speed}`);
  const real0 = realStart ?? realNow();
  const start0 = start ?? real0;
  return {
    now: () => start0 + (realNow() - real0) * speed,
    sleep: (ms, signal) => delay(Math.max(0, ms) / speed, undefined, { signal }),
    speed: () => speed,
  };
}

/** A clock that moves only when told to: `advance(ms)` wakes the sleepers whose time has come, in order. */
export interface ManualClock extends Clock {
  advance(ms: number): Promise<void>;
}

/** A clock for unit tests: time stands still until `advance`. */
export function manualClock(start: number): ManualClock {
  let now = start;
  const sleepers: { at: number; wake: () => void }[] = [];
  return {
    now: () => now,
    sleep(ms, signal) {
      return new Promise<void>((resolve, reject) => {
        const sleeper = { at: now + Math.max(0, ms), wake: resolve };
        sleepers.push(sleeper);
        signal?.addEventListener(
          'abort',
          () => {
            sleepers.splice(sleepers.indexOf(sleeper), 1);
            reject(signal.reason);
          },
          { once: true },
        );
      });
    },
    async advance(ms) {
      const until = now + ms;
      for (;;) {
        // Let what is already running reach its next sleep before time moves.
        await new Promise((resolve) => setImmediate(resolve));
        sleepers.sort((a, b) => a.at - b.at);
        const next = sleepers[0];
        if (!next || next.at > until) break;
        sleepers.shift();
        now = next.at;
        next.wake();
      }
      now = until;
    },
  };
}

/** A clock that moves only when what reads it waits on it (`jump` moves it on at once, as a day passing would). */
export interface VirtualClock extends Clock {
  jump(ms: number): void;
  hold(): () => void;
}

/**
 * A clock for end-to-end tests that share it between mktdata and a fake marketplace in one process: its time stands
 * still while anything works, and when the event loop comes round to it with sleepers waiting it moves to the
 * earliest of them and wakes it, unless a request is on its way (`hold`). A busy machine makes a test slower, never
 * later on the clock: no token expires and no poll budget runs out because the CPU was elsewhere, and no test waits
 * for time to pass.
 */
export function virtualClock(start: number, onMove?: (now: number) => void): VirtualClock {
  let now = start;
  let order = 0;
  const sleepers: { at: number; order: number; wake: () => void }[] = [];
  let pending: NodeJS.Timeout | null = null;
  let held = 0;
  // A timer, not setImmediate: I/O that is ready (a response on loopback, a query's result) is handled first, so what
  // it sets off can sleep too before time moves.
  const schedule = () => (pending ??= setTimeout(advance, 0));
  function advance() {
    pending = null;
    if (sleepers.length === 0 || held > 0) return;
    sleepers.sort((a, b) => a.at - b.at || a.order - b.order);
    if (sleepers[0]!.at > now) {
      now = sleepers[0]!.at;
      onMove?.(now);
    }
    while (sleepers.length > 0 && sleepers[0]!.at <= now) sleepers.shift()!.wake();
    if (sleepers.length > 0) schedule();
  }
  return {
    now: () => now,
    sleep(ms, signal) {
      return new Promise<void>((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason);
        // Whole milliseconds, rounded up: a sleep shorter than the clock can tell apart from now (a token bucket's
        // last sliver) would wake at the same instant again and again, and time would never move.
        const sleeper = { at: now + Math.ceil(Math.max(0, ms)), order: order++, wake: resolve };
        sleepers.push(sleeper);
        schedule();
        signal?.addEventListener(
          'abort',
          () => {
            const index = sleepers.indexOf(sleeper);
            if (index >= 0) sleepers.splice(index, 1);
            reject(signal.reason);
          },
          { once: true },
        );
      });
    },
    jump: (ms) => {
      now += ms;
      onMove?.(now);
      if (sleepers.length > 0) schedule();
    },
    hold() {
      held += 1;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        held -= 1;
        if (held === 0 && sleepers.length > 0) schedule();
      };
    },
  };
}

/**
 * A virtual clock whose time is written to `file` (epoch milliseconds, as decimal text, replaced whole by a rename)
 * each time it moves, so that a fake marketplace in another process reads the time of this one (MKTDATA_CLOCK_FILE:
 * tests that run `mktdata` as a child process; the reader takes `start` while there is no file). It starts at the time
 * the file holds, when there is one (a process that follows another one on the same file, as after a kill, goes on
 * from where that one stopped), else at `start`. Nothing is written until it moves.
 */
export function sharedVirtualClock(file: string, start: number): VirtualClock {
  if (!existsSync(dirname(file))) throw new Error(`MKTDATA_CLOCK_FILE: the folder of ${file} does not exist`);
  const written = Number(existsSync(file) ? readFileSync(file, 'utf8') : NaN);
  return virtualClock(Number.isFinite(written) ? written : start, (now) => {
    const temp = `${file}.${process.pid}`;
    writeFileSync(temp, String(now));
    renameSync(temp, file);
  });
}

/** A clock that runs fast through the past up to real time (`catchUp` ends the fast part at once). */
export interface CatchUpClock extends Clock {
  catchUp(): void;
}

/**
 * A clock that starts `lead` ms before real time and, until it reaches real time, moves only while what reads it
 * waits (a `virtualClock`): a first load that waits hours on the documented rate limits takes only as long as its work,
 * on a busy machine as on an idle one, and what it times is never in the future. From the first wait that would take
 * it past real time, or once `catchUp` is called (the demo's first load is done), it is the machine's clock.
 */
export function catchUpClock(lead: number): CatchUpClock {
  const virtual = virtualClock(realNow() - lead);
  let caughtUp = false;
  return {
    now: () => (caughtUp ? realNow() : virtual.now()),
    sleep(ms, signal) {
      if (!caughtUp && virtual.now() + ms <= realNow()) return virtual.sleep(ms, signal);
      const wake = (caughtUp ? realNow() : virtual.now()) + Math.max(0, ms);
      caughtUp = true;
      return delay(Math.max(0, wake - realNow()), undefined, { signal });
    },
    hold: () => (caughtUp ? () => {} : virtual.hold()),
    catchUp: () => {
      caughtUp = true;
    },
  };
}
