import type { DuckDBConnection } from '@duckdb/node-api';
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

/**
 * How many kept copies of a warehouse file (opened on its own, as a restore does) lie outside `prefix`, the new
 * home's `quarantine/`; 0 when the file has no such table yet.
 */
export async function quarantinedOutside(sql: DuckDBConnection, prefix: string): Promise<number> {
  const table = await sql.runAndReadAll(
    "select count(*) from duckdb_tables() where schema_name = 'control' and table_name = 'quarantined_files'",
  );
  if (Number(table.getRows()[0]![0]) === 0) return 0;
  const rows = await sql.runAndReadAll(
    'select count(*) from control.quarantined_files where not starts_with(kept_at, $prefix)',
    { prefix },
  );
  return Number(rows.getRows()[0]![0]);
}

/** Points every kept copy outside `prefix` at the same `<hash>/<name>` under it (a home restored elsewhere). */
export async function moveQuarantinedUnder(sql: DuckDBConnection, prefix: string): Promise<void> {
  await sql.run(
    `update control.quarantined_files
        set kept_at = $prefix || regexp_extract(kept_at, '([^/]+/[^/]+)$', 1)
      where not starts_with(kept_at, $prefix)`,
    { prefix },
  );
}
