import { existsSync } from 'node:fs';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { moveQuarantinedUnder, quarantinedOutside } from '../control/quarantined-files.ts';
import { duckDbOptions } from '../db/warehouse.ts';

/**
 * The process holding a DuckDB file's lock (a writer that left no `writer.json`: another tool, a killed command's
 * child), described; null when the file is free or absent. Opening it read-only writes nothing.
 */
export async function heldBy(file: string): Promise<string | null> {
  if (!existsSync(file)) return null;
  try {
    (await DuckDBInstance.create(file, { ...duckDbOptions, access_mode: 'READ_ONLY' })).closeSync();
    return null;
  } catch (error) {
    const text = String(error);
    if (!/could not set lock|conflicting lock/i.test(text)) return null; // not a lock: the restore replaces it anyway
    return `another process (${/PID (\d+)/.exec(text)?.[0] ?? 'unknown pid'})`;
  }
}

/** Runs `work` on a connection to a DuckDB file, read-only unless `write`, and closes it. */
async function withFile<T>(file: string, write: boolean, work: (sql: DuckDBConnection) => Promise<T>): Promise<T> {
  const instance = await DuckDBInstance.create(file, {
    ...duckDbOptions,
    access_mode: write ? 'READ_WRITE' : 'READ_ONLY',
  });
  try {
    const sql = await instance.connect();
    try {
      return await work(sql);
    } finally {
      sql.closeSync();
    }
  } finally {
    instance.closeSync();
  }
}

/**
 * Points the quarantine records of a restored warehouse at its new home: `control.quarantined_files.kept_at` is the
 * absolute path of a refused file's kept copy (`<home>/quarantine/<hash>/<name>`), the one path the control plane
 * stores. The file is opened for writing (and changed) only when a record points elsewhere.
 */
export async function moveQuarantinePaths(file: string, quarantine: string): Promise<number> {
  const prefix = `${quarantine}/`;
  const elsewhere = await withFile(file, false, (sql) => quarantinedOutside(sql, prefix));
  if (elsewhere === 0) return 0;
  await withFile(file, true, async (sql) => {
    await moveQuarantinedUnder(sql, prefix);
    await sql.run('checkpoint');
  });
  return elsewhere;
}
