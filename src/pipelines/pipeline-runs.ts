import { sql, type Insertable, type Kysely, type Updateable } from 'kysely';
import type { ControlPlane } from '../db/control-plane.ts';

// control.pipeline_runs, one row per run of a pipeline: every query on it is in this file
// (test/db/control-table-modules.test.ts).

type Db = Kysely<ControlPlane>;
type RunRow = ControlPlane['control.pipeline_runs'];

/** Records a run that starts. */
export async function recordRunStarted(db: Db, run: Insertable<RunRow>): Promise<void> {
  await db.insertInto('control.pipeline_runs').values(run).execute();
}

/** Records how a run ended. */
export async function recordRunFinished(
  db: Db,
  runId: string,
  outcome: Pick<Updateable<RunRow>, 'status' | 'errors' | 'finished_at' | 'landed_files' | 'published' | 'error'>,
): Promise<void> {
  await db.updateTable('control.pipeline_runs').set(outcome).where('id', '=', runId).execute();
}

/** Records that these runs' builds were published. */
export async function recordRunsPublished(db: Db, runIds: string[]): Promise<void> {
  if (runIds.length === 0) return;
  await db.updateTable('control.pipeline_runs').set({ published: true }).where('id', 'in', runIds).execute();
}

/** Fails every run still marked running: one that was interrupted (one writer at a time). */
export async function failInterruptedRuns(db: Db): Promise<void> {
  await db
    .updateTable('control.pipeline_runs')
    .set({ status: 'failed', error: 'interrupted' })
    .where('status', '=', 'running')
    .execute();
}

/** The latest runs, of one pipeline or of all, newest first. */
export function latestRuns(db: Db, options: { pipeline?: string; limit: number }) {
  let query = db.selectFrom('control.pipeline_runs').selectAll().orderBy('started_at', 'desc').limit(options.limit);
  if (options.pipeline) query = query.where('pipeline', '=', options.pipeline);
  return query.execute();
}

/** A run, or undefined. */
export function runById(db: Db, runId: string) {
  return db.selectFrom('control.pipeline_runs').selectAll().where('id', '=', runId).executeTakeFirst();
}

/**
 * The latest runs, newest first, with how many windows of these connections each built and how many of those
 * failed; with `onlyTheirs`, only the runs that built a window of them.
 */
export function latestRunsFor(db: Db, connectionIds: string[], options: { onlyTheirs: boolean; limit: number }) {
  const ids = sql.join(connectionIds);
  let query = db
    .selectFrom('control.pipeline_runs as r')
    .select([
      'r.id',
      'r.pipeline',
      'r.trigger',
      'r.started_at',
      'r.finished_at',
      'r.status',
      'r.landed_files',
      'r.error',
      'r.errors as run_errors',
      sql<number>`(select count(*) from control.run_windows as w where w.run_id = r.id and w.connection_id in (${ids}))`.as(
        'windows',
      ),
      sql<number>`(select count(*) from control.run_windows as w where w.run_id = r.id and w.status = 'error' and w.connection_id in (${ids}))`.as(
        'errors',
      ),
    ]);
  if (options.onlyTheirs)
    query = query.where(
      sql<boolean>`exists (select 1 from control.run_windows as w where w.run_id = r.id and w.connection_id in (${ids}))`,
    );
  return query.orderBy('r.started_at', 'desc').limit(options.limit).execute();
}
