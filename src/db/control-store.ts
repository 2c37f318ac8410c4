import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { ControlPlane } from './control-plane.ts';
import { migrateHome } from './home-version.ts';
import { MktdataError } from '../errors.ts';

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
    oid === pg.types.builtins.TIMESTAMPTZ ||
    oid === pg.types.builtins.TIMESTAMP ||
    oid === pg.types.builtins.DATE ||
    oid === pg.types.builtins.NUMERIC ||
    oid === pg.types.builtins.INT8
      ? (value: string) => value
      : pg.types.getTypeParser(oid, format ?? 'text'),
};

/** Which server and database, never the URL itself: it may carry a password. */
function where(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || 5432}${u.pathname}`;
  } catch {
    return 'the URL given';
  }
}

/**
 * The control plane in PostgreSQL (`MKTDATA_DATABASE_URL`), migrated to the latest version; close it when done. With
 * `migrate: false` (`mktdata doctor`, which only looks) it is asked `select 1` instead, and left as it is.
 */
export async function openPostgresControl(
  url: string,
  options: {
    /** Run the pending migrations. @default true */
    migrate?: boolean;
  } = {},
): Promise<ControlStore & { close(): Promise<void> }> {
  const pool = new pg.Pool({ connectionString: url, max: 8, types });
  // A connection the server closed (PostgreSQL restarted or stopped) emits 'error': without a listener it would end the
  // process. The pool listens only while a connection is idle, so each connection also gets its own listener for the
  // time it is checked out (a transaction between two statements). The query in flight fails by itself, the pool drops
  // the connection, and the next query connects again or fails (`/ready` then names the control plane).
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = new Kysely<ControlPlane>({ dialect: new PostgresDialect({ pool }) });
  try {
    if (options.migrate === false) await sql`select 1`.execute(db);
    else await migrateHome(db, `PostgreSQL control plane at ${where(url)}`);
  } catch (error) {
    await db.destroy();
    // Which server did not answer, never the URL itself: it may carry a password.
    // A system error (ECONNREFUSED, ENOTFOUND …) or PostgreSQL's connection, authentication or database classes.
    const code = String((error as NodeJS.ErrnoException).code ?? '');
    if (/^E[A-Z]+$|^08|^28|^3D/.test(code)) {
      throw new MktdataError(
        'ERR_INPUT_INVALID',
        {
          where: 'MKTDATA_DATABASE_URL',
          reason: `PostgreSQL at ${where(url)} could not be used (${String((error as Error).message).split('\n')[0]})`,
        },
        { cause: error },
      );
    }
    throw error;
  }
  return { db, close: () => db.destroy() };
}
