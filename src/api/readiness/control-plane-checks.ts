import { statSync } from 'node:fs';
import { sql, type Kysely } from 'kysely';
import type { ControlPlane } from '../../db/control-plane.ts';
import { migrations } from '../../db/migrations/index.ts';
import type { Warehouse } from '../../db/warehouse.ts';
import { failing, passing, reasonOf, type ReadyCheck } from './ready-report.ts';

/**
 * The control plane answers (`select 1`) and every migration of this version has run on it, and none it does not
 * know (a newer mktdata migrated it). `what` names it in a failure: "the warehouse" or "PostgreSQL".
 */
export function controlPlaneCheck(db: Kysely<ControlPlane>, what: string): ReadyCheck {
  const known = Object.keys(migrations);
  return async () => {
    try {
      await sql`select 1`.execute(db);
    } catch (error) {
      return failing(`${what} does not answer: ${reasonOf(error)}`);
    }
    // kysely's own record of the migrations that ran (the table its Migrator keeps).
    const done = new Set(
      (await sql<{ name: string }>`select name from kysely_migration`.execute(db)).rows.map((r) => r.name),
    );
    const missing = known.filter((name) => !done.has(name));
    if (missing.length > 0)
      return failing(`the control plane lacks ${missing.length} migration(s) of this version, from ${missing[0]}`);
    const unknown = [...done].filter((name) => !known.includes(name)).sort();
    if (unknown.length > 0)
      return failing(`the control plane was migrated by a newer mktdata (migration ${unknown.at(-1)} is unknown here)`);
    return passing();
  };
}

/**
 * A single home's warehouse: the file this process opened is still at its path in the home (not removed, moved or
 * replaced), and its control plane answers and is migrated. The open connection outlives a removed file, so
 * without this a server would look fine until its next restart found no warehouse.
 */
export function warehouseCheck(wh: Warehouse): ReadyCheck {
  const opened = statSync(wh.home.warehouse, { throwIfNoEntry: false })?.ino;
  const controlPlane = controlPlaneCheck(wh.db, 'the warehouse');
  return async () => {
    const now = statSync(wh.home.warehouse, { throwIfNoEntry: false });
    if (!now)
      return failing('warehouse.duckdb is missing from the home (moved or removed while this process has it open)');
    if (opened !== undefined && now.ino !== opened)
      return failing('warehouse.duckdb in the home is another file than the one this process opened: restart it');
    return controlPlane();
  };
}
