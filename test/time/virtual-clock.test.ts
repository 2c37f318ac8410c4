// The virtual clock the in-process end-to-end tests share: time moves only to the earliest sleeper, only when the
// event loop comes round to it, and never while a request holds it.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileClock } from '@mktdata/fake-marketplace';
import { connectorClock } from '../../src/pipelines/fetch/live.ts';
import { catchUpClock, sharedVirtualClock, virtualClock } from '../../src/time/clock.ts';

const T0 = Date.parse('2026-11-20T18:30:00Z');

describe('the virtual clock', () => {
  it('wakes sleepers in the order of their times, each at its own time, and stands still between', async () => {
    const clock = virtualClock(T0);
    const woke: [string, number][] = [];
    const sleep = async (name: string, ms: number) => {
      await clock.sleep(ms);
      woke.push([name, clock.now() - T0]);
    };
    // Asked in this order: 60 s, 1 s, then 1 s again (the same instant: the one asked first wakes first).
    await Promise.all([sleep('a', 60_000), sleep('b', 1_000), sleep('c', 1_000)]);
    expect(woke).toEqual([
      ['b', 1_000],
      ['c', 1_000],
      ['a', 60_000],
    ]);
    expect(clock.now()).toBe(T0 + 60_000);
  });

  it('passes an hour at once when the only thing waiting is a sleeper an hour away', async () => {
    const clock = virtualClock(T0);
    let done = false;
    const sleeper = clock.sleep(3_600_000).then(() => (done = true));
    await sleeper;
    expect(done).toBe(true);
    expect(clock.now()).toBe(T0 + 3_600_000);
  });

  it('keeps its time while held, and moves on once released', async () => {
    const clock = virtualClock(T0);
    const release = clock.hold!();
    const woke = clock.sleep(5_000).then(() => clock.now());
    // Ten turns of the event loop with the sleeper due and the clock held: time stays.
    for (let i = 0; i < 10; i++) await new Promise((resolve) => setTimeout(resolve, 0));
    expect(clock.now()).toBe(T0);
    release();
    release(); // a second release changes nothing
    expect(await woke).toBe(T0 + 5_000);
  });

  it('rounds a sliver of a millisecond up, so a token bucket waiting for its last fraction gets there', async () => {
    const clock = virtualClock(T0);
    await clock.sleep(0.0001);
    expect(clock.now()).toBe(T0 + 1);
  });

  it('jumps ahead by whole days, waking whoever was due by then', async () => {
    const clock = virtualClock(T0);
    const woke = clock.sleep(30_000).then(() => clock.now());
    clock.jump(86_400_000);
    expect(await woke).toBe(T0 + 86_400_000);
  });

  it('lets an aborted sleeper go without waking it', async () => {
    const clock = virtualClock(T0);
    const abort = new AbortController();
    const aborted = clock.sleep(10_000, abort.signal);
    abort.abort(new Error('stopped'));
    await expect(aborted).rejects.toThrow('stopped');
    await clock.sleep(1_000);
    expect(clock.now()).toBe(T0 + 1_000);
  });
});

// MKTDATA_CLOCK_FILE: the same clock for a `mktdata` child process and a fake marketplace in the test's process.
describe('the virtual clock shared through a file', () => {
  it('writes its time each time it moves, and a later process on the same file goes on from there', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'mktdata-clock-')), 'clock');
    const reader = fileClock(file, T0);
    const clock = connectorClock({ MKTDATA_CLOCK_FILE: file, MKTDATA_CLOCK_START: new Date(T0).toISOString() });
    // Nothing written until it moves (\`mktdata doctor\` makes one to check the variables): the fake reads the start.
    expect(existsSync(file)).toBe(false);
    expect(clock.now()).toBe(T0);
    await clock.sleep(15_000);
    expect(readFileSync(file, 'utf8')).toBe(String(T0 + 15_000));
    expect(reader.now()).toBe(T0 + 15_000);
    // A killed run's successor: it starts where the file says, not at MKTDATA_CLOCK_START.
    const next = connectorClock({ MKTDATA_CLOCK_FILE: file, MKTDATA_CLOCK_START: new Date(T0).toISOString() });
    expect(next.now()).toBe(T0 + 15_000);
    await next.sleep(60_000);
    expect(reader.now()).toBe(T0 + 75_000);
    // Held by a request on its way: the time the fake answers at stays the time it was sent at.
    const release = next.hold!();
    const woke = next.sleep(1_000);
    for (let i = 0; i < 10; i++) await new Promise((resolve) => setTimeout(resolve, 0));
    expect(reader.now()).toBe(T0 + 75_000);
    release();
    await woke;
    expect(reader.now()).toBe(T0 + 76_000);
    expect(() => connectorClock({ MKTDATA_CLOCK_FILE: file, MKTDATA_CLOCK_START: 'soon' })).toThrow(
      'MKTDATA_CLOCK_START must be a date and time, not soon',
    );
    expect(() => connectorClock({ MKTDATA_CLOCK_FILE: join(file, 'no-such-folder', 'clock') })).toThrow(
      `MKTDATA_CLOCK_FILE: the folder of ${join(file, 'no-such-folder', 'clock')} does not exist`,
    );
  });

  it("reads the start until the client writes a time, and a sleep on it ends once the client's clock has passed", async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'mktdata-clock-')), 'clock');
    const reader = fileClock(file, T0);
    expect(reader.now()).toBe(T0);
    const clock = sharedVirtualClock(file, T0);
    const fakeWaits = reader.sleep(30_000).then(() => reader.now());
    await clock.sleep(45_000);
    expect(await fakeWaits).toBe(T0 + 45_000);
  });
});

// The demo's clock: a day behind real time, moving while the connectors wait, so that its first load (hours of rate
// limits on the clock) takes only as long as its work, however busy the machine, and records no time in the future.
describe('the catch-up clock', () => {
  const HOUR = 3_600_000;
  /** Whether the clock reads the machine's time (between two readings of it taken around its own). */
  const readsRealTime = (clock: { now(): number }) => {
    const before = Date.now();
    const now = clock.now();
    return before <= now && now <= Date.now();
  };

  it('passes the hours a first load waits at once, behind real time', async () => {
    const before = Date.now();
    const clock = catchUpClock(24 * HOUR);
    const start = clock.now();
    expect(start).toBeGreaterThanOrEqual(before - 24 * HOUR);
    expect(start).toBeLessThanOrEqual(Date.now() - 24 * HOUR);
    // Nine hours of waiting, as the demo's first load does on the documented rate limits: no real wait (this test's
    // time limit is seconds), and the clock moved by exactly that.
    for (let i = 0; i < 9; i++) await clock.sleep(HOUR);
    expect(clock.now()).toBe(start + 9 * HOUR);
    expect(clock.now()).toBeLessThan(Date.now());
  });

  it('is real time from the first wait that would pass real time, and after catchUp', async () => {
    const clock = catchUpClock(20);
    // 30 ms of the clock from 20 ms behind: it wakes about 10 ms later on the machine's clock, then reads real time.
    await clock.sleep(30);
    expect(readsRealTime(clock)).toBe(true);

    const other = catchUpClock(24 * HOUR);
    other.catchUp();
    expect(readsRealTime(other)).toBe(true);
  });
});
