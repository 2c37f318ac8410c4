import { sql, type Kysely } from 'kysely';
import { MktdataError } from '../errors.ts';
import { compareVersions, mktdataVersion } from '../lib/version.ts';
import type { ControlPlane } from './control-plane.ts';
import { migrateControlPlane, migrations } from './migrations/index.ts';
import { putSetting, setting } from './settings.ts';

// The version of mktdata that last migrated a home (its warehouse, or the PostgreSQL control plane scaled out) is
// kept in control.settings, written after the migrations (not by one: a migration cannot know the versions after
// it), and raised whenever a newer version opens the home; homes of the 0.1.0 release have none. The migrations table
// says the rest: a migration this code does not know was run by a newer version. Both are read before anything is
// written, so that an older mktdata never migrates, builds or publishes over a newer home.

/** The setting that holds the version of mktdata that last opened the home. */
export const versionSetting = 'mktdata_version';

/** The home's recorded version (undefined before one was recorded) and the migrations it ran that this code lacks. */
export async function homeVersion(db: Kysely<ControlPlane>): Promise<{ recorded?: string; unknown: string[] }> {
  const { rows } = await sql<{ name: string }>`select table_name as name from information_schema.tables
    where table_name = 'kysely_migration' or (table_schema = 'control' and table_name = 'settings')`.execute(db);
  const tables = new Set(rows.map((r) => r.name));
  const recorded = tables.has('settings') ? await setting(db, versionSetting) : undefined;
  const ran = tables.has('kysely_migration')
    ? (await sql<{ name: string }>`select name from kysely_migration`.execute(db)).rows.map((r) => r.name)
    : [];
  return { recorded, unknown: ran.filter((name) => !(name in migrations)).sort() };
}

/**
 * Refuses a home last opened by a newer mktdata (ERR_HOME_NEWER, naming both versions), then runs the pending
 * migrations and records this version when it is newer than the one recorded. `where` names the home in the message.
 */
export async function migrateHome(db: Kysely<ControlPlane>, where: string, ours = mktdataVersion): Promise<void> {
  const { recorded, unknown } = await homeVersion(db);
  const newer = recorded !== undefined && compareVersions(recorded, ours) > 0;
  if (newer || unknown.length > 0) {
    const why = newer
      ? `its recorded version ${recorded} is newer`
      : `it holds migration ${unknown.join(', ')}, which this version does not know`;
    throw new MktdataError('ERR_HOME_NEWER', { where, theirs: newer ? recorded : 'a newer version', ours, why });
  }
  await migrateControlPlane(db);
  if (recorded === undefined || compareVersions(recorded, ours) < 0) await putSetting(db, versionSetting, ours);
}
