import type { Warehouse } from './warehouse.ts';

/** Days between the pipeline runs whose checkpoints may vacuum. */
export const VACUUM_EVERY_DAYS = 7;

/**
 * Lets the checkpoints after a pipeline run vacuum (DuckDB merges the row groups that deletes left part empty, and
 * reclaims their space) when the last run that did so is VACUUM_EVERY_DAYS or more before `now`, the run's clock, and
 * turns it off until then. A checkpoint that vacuums rewrote some 400K rows of the four-year bench's orders on some
 * days, as the layout of its row groups made it due (a day's run 3.3 → 5.5 s); once a week, the deleted rows of the
 * days between (about 3 MB a day there) are reclaimed at once. Returns whether this run's checkpoints vacuum.
 */
export async function scheduleVacuum(wh: Warehouse, now: Date): Promise<boolean> {
  const row = await wh.db.selectFrom('control.settings').select('value').where('name', '=', 'last_vacuum_at').executeTakeFirst();
  const since = now.getTime() - Date.parse(row?.value ?? '');
  // (No time noted, a mangled one, or one after the clock: vacuum now.)
  const due = !(since >= 0 && since < VACUUM_EVERY_DAYS * 86_400_000);
  await wh.sql.run(due ? 'reset global max_vacuum_tasks' : 'set global max_vacuum_tasks = 0');
  if (due) await wh.sql.run(`insert or replace into control.settings values ('last_vacuum_at', $at)`, { at: now.toISOString() });
  return due;
}
