import type { Insertable, Kysely } from 'kysely';
import type { ControlPlane } from '../db/control-plane.ts';

// control.shard_runs, one row per run of a pipeline on a shard, in the shared control plane: every query on it is in
// this file (test/db/control-table-modules.test.ts).

type Db = Kysely<ControlPlane>;
type ShardRunTable = ControlPlane['control.shard_runs'];

/** Records a shard's run that starts. */
export async function recordShardRunStarted(db: Db, row: Insertable<ShardRunTable>): Promise<void> {
  await db.insertInto('control.shard_runs').values(row).execute();
}

/** Records how a shard's run ended. */
export async function recordShardRunFinished(
  db: Db,
  id: string,
  outcome: { status: ShardRunTable['status']; run_id: string | null; windows: number; error: string | null },
): Promise<void> {
  await db
    .updateTable('control.shard_runs')
    .set({ ...outcome, finished_at: new Date().toISOString() })
    .where('id', '=', id)
    .execute();
}

/** Marks the runs older holders of the shard left running (a smaller fencing token) abandoned, saying why. */
export async function abandonShardRuns(db: Db, shard: string, token: number, error: string): Promise<void> {
  await db
    .updateTable('control.shard_runs')
    .set({ status: 'abandoned', error, finished_at: new Date().toISOString() })
    .where('shard', '=', shard)
    .where('status', '=', 'running')
    .where('token', '<', token)
    .execute();
}

/** The shards' runs of these pipelines started since `since` that ended, oldest first. */
export function shardRunsEndedSince(db: Db, pipelines: string[], since: Date) {
  return db
    .selectFrom('control.shard_runs')
    .selectAll()
    .where('started_at', '>=', since.toISOString())
    .where('pipeline', 'in', pipelines)
    .where('status', 'in', ['success', 'failed'])
    .orderBy('started_at')
    .execute();
}

/** The latest shard runs, of one pipeline or of all, newest first (`mktdata worker runs`). */
export function latestShardRuns(db: Db, options: { pipeline?: string; limit: number }) {
  let query = db.selectFrom('control.shard_runs').selectAll().orderBy('started_at', 'desc').limit(options.limit);
  if (options.pipeline) query = query.where('pipeline', '=', options.pipeline);
  return query.execute();
}
