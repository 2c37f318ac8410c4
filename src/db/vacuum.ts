import type { Warehouse } from './warehouse.ts';
import { noteSetting, setting } from './settings.ts';

/** Days between the pipeline runs whose checkpoints may vacuum. */
export const VACUUM_EVERY_DAYS = 7;

const DAY = 86_400_000;

/**
 * Lets the checkpoints after a pipeline run vacuum (DuckDB merges the row groups that deletes left part empty, and
 * reclaims their space, when a checkpoint writes their table) on a vacuum day, and turns it off on the others. A run
 * VACUUM_EVERY_DAYS or more after the noted vacuum day (`now`, the run's clock) starts a new one; the runs of the day
 * after it vacuum too, so that the other pipelines of a batch, the publish after them and the checkpoint at closing
 * do (a run turns it off for all that follows it). Left to itself vacuum fell due whenever the row groups' layout made
 * it, and rewrote hundreds of thousands of order rows on such a day, making that day's run much slower; once a week,
 * the deleted rows of the days between are reclaimed at once. Returns whether it vacuums.
 */
export async function scheduleVacuum(wh: Warehouse, now: Date): Promise<boolean> {
  const since = now.getTime() - Date.parse((await setting(wh.db, 'last_vacuum_at')) ?? '');
  // (No day noted, a mangled one, or one after the clock: a new vacuum day.)
  const starts = !(since >= 0 && since < VACUUM_EVERY_DAYS * DAY);
  const vacuums = starts || since < DAY;
  await wh.sql.run(vacuums ? 'reset global max_vacuum_tasks' : 'set global max_vacuum_tasks = 0');
  if (starts) await noteSetting(wh.sql, 'last_vacuum_at', now.toISOString());
  return vacuums;
}
