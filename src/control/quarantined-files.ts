import type { Insertable, Kysely } from 'kysely';
import type { ControlPlane } from '../db/control-plane.ts';

// control.quarantined_files, the refused files kept aside with their line and reason: every query on it is in this
// file (test/db/control-table-modules.test.ts).

type Db = Kysely<ControlPlane>;

/** Records a refused file and where its copy is kept. */
export async function recordQuarantinedFile(
  db: Db,
  row: Insertable<ControlPlane['control.quarantined_files']>,
): Promise<void> {
  await db.insertInto('control.quarantined_files').values(row).execute();
}

/** The refused files of these connections, newest first. */
export function quarantinedFilesOf(db: Db, connectionIds: string[]) {
  return db
    .selectFrom('control.quarantined_files')
    .select(['id', 'connection_id', 'source', 'file_name', 'kept_at', 'line', 'reason', 'refused_at'])
    .where('connection_id', 'in', connectionIds)
    .orderBy('refused_at', 'desc')
    .execute();
}

/** Drops a refused file's record: it was queued to land again. */
export async function forgetQuarantinedFile(db: Db, id: string): Promise<void> {
  await db.deleteFrom('control.quarantined_files').where('id', '=', id).execute();
}
