import { DuckDBInstance } from '@duckdb/node-api';
import { Kysely, Migrator } from 'kysely';
import type { ControlPlane } from '../db/control-plane.ts';
import { DuckDbDialect } from '../db/kysely-duckdb.ts';
import { migrations } from '../db/migrations/index.ts';
import { duckDbOptions, type Warehouse } from '../db/warehouse.ts';
import type { Home } from '../home.ts';

/**
 * A home's warehouse opened read-only, for looking only: no `writer.json`, no migration, nothing written, so that a
 * read-only home can be examined and nothing changes under a diagnosis. It has the control plane, not the models.
 */
export async function openReadOnly(home: Home): Promise<Warehouse> {
  const instance = await DuckDBInstance.create(home.warehouse, { ...duckDbOptions, access_mode: 'READ_ONLY' });
  const sql = await instance.connect();
  const control = await instance.connect();
  const db = new Kysely<ControlPlane>({ dialect: new DuckDbDialect(control) });
  return {
    home,
    sql,
    db,
    close: async () => {
      await db.destroy();
      sql.closeSync();
      control.closeSync();
      instance.closeSync();
    },
  };
}

/** The control-plane migrations this version knows that `db` has not run yet (it only reads: nothing is migrated). */
export async function pendingMigrations(db: Kysely<ControlPlane>): Promise<string[]> {
  const migrator = new Migrator({
    db: db as unknown as Kysely<unknown>,
    provider: { getMigrations: async () => migrations },
  });
  return (await migrator.getMigrations()).filter((m) => !m.executedAt).map((m) => m.name);
}
