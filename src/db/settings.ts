import type { DuckDBConnection } from '@duckdb/node-api';
import type { Kysely } from 'kysely';
import type { ControlPlane } from './control-plane.ts';

// control.settings, the home's named values (the URL signing key, what was published, the last vacuum day, the
// shard count of a scaled-out install): every query on it is in this file (test/db/control-table-modules.test.ts).
// It is in db/ because the warehouse's own vacuum, which imports no feature folder, notes a value too.

type Db = Kysely<ControlPlane>;

/** A setting's value, or undefined. */
export async function setting(db: Db, name: string): Promise<string | undefined> {
  const row = await db.selectFrom('control.settings').select('value').where('name', '=', name).executeTakeFirst();
  return row?.value;
}

/** A setting's value; a missing one (a migration writes it) is an error. */
export async function requiredSetting(db: Db, name: string): Promise<string> {
  const row = await db
    .selectFrom('control.settings')
    .select('value')
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return row.value;
}

/** These settings, those there are. */
export function settingsNamed(db: Db, names: string[]) {
  return db.selectFrom('control.settings').select(['name', 'value']).where('name', 'in', names).execute();
}

/** Writes a setting unless it is there already; returns the value it has then (the first writer's). */
export async function settleSetting(db: Db, name: string, value: string): Promise<string> {
  await db
    .insertInto('control.settings')
    .values({ name, value })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  return requiredSetting(db, name);
}

// The queries below run on the warehouse's own DuckDB connection, inside the transaction of whoever holds it.

/** Writes a setting, replacing its value. */
export async function noteSetting(duck: DuckDBConnection, name: string, value: string): Promise<void> {
  await duck.run(`insert or replace into control.settings values ($name, $value)`, { name, value });
}

/** Removes a setting. */
export async function forgetSetting(duck: DuckDBConnection, name: string): Promise<void> {
  await duck.run(`delete from control.settings where name = $name`, { name });
}

/** Writes a setting, replacing its value (through kysely: the warehouse's DuckDB or PostgreSQL alike). */
export async function putSetting(db: Db, name: string, value: string): Promise<void> {
  await db
    .insertInto('control.settings')
    .values({ name, value })
    .onConflict((oc) => oc.column('name').doUpdateSet({ value }))
    .execute();
}
