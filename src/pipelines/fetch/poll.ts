import type { Clock } from '../../time/clock.ts';

/** How often to ask whether an upstream report is ready: a first wait, growing by `factor` up to `max` (clock ms). */
export interface PollSchedule {
  first: number;
  factor: number;
  max: number;
}

/** SP-API reports: most finish within minutes; getReport allows 2 requests a second per seller. */
export const spReportPolls: PollSchedule = { first: 15_000, factor: 1.5, max: 120_000 };
/** Ads API reports take from 30 s to hours, and polling too often gives 429 (docs/design/live-apis.md §4, §7). */
export const adsReportPolls: PollSchedule = { first: 30_000, factor: 1.5, max: 300_000 };

/**
 * Reads until `done` says so, waiting on the clock between reads; null when `deadline` (clock ms) passes first, so
 * that the request stays in flight and a later run resumes it.
 */
export async function pollUntil<T>(
  clock: Clock,
  read: () => Promise<T>,
  done: (value: T) => boolean,
  schedule: PollSchedule,
  deadline: number,
): Promise<T | null> {
  let wait = schedule.first;
  for (;;) {
    if (clock.now() + wait > deadline) return null;
    await clock.sleep(wait);
    const value = await read();
    if (done(value)) return value;
    wait = Math.min(schedule.max, wait * schedule.factor);
  }
}
