import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { ControlPlane } from './control-plane.ts';
import { migrateControlPlane } from './migrations/index.ts';

/**
 * The control plane as the code that only reads and writes it sees it (organizations, keys, connections, tokens and
 * usage, settings, actions, exports): one kysely database, the warehouse's DuckDB in a single home (`Warehouse` is
 * one) or PostgreSQL for a scaled-out install (`openPostgresControl`), both migrated by the same migrations.
 */
export interface ControlStore {
  db: Kysely<ControlPlane>;
}

/** PostgreSQL's `timestamptz`, `date` and `numeric` come back as strings, as DuckDB's do through its dialect. */
const types = {
  getTypeParser: (oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.TIMESTAMPTZ || oid === pg.types.builtins.TIMESTAMP || oid === pg.types.builtins.DATE || oid === pg.types.builtins.NUMERIC || oid === pg.types.builtins.INT8
      ? (value: string) => value
      : pg.types.getTypeParser(oid, format ?? 'text'),
};

/** The control plane in PostgreSQL (`MKTDATA_DATABASE_URL`), migrated to the latest version; close it when done. */
export async function openPostgresControl(url: string): Promise<ControlStore & { close(): Promise<void> }> {
  const db = new Kysely<ControlPlane>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 8, types }) }) });
  try {
    await migrateControlPlane(db);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return { db, close: () => db.destroy() };
}
