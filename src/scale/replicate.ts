import type { Kysely } from 'kysely';
import type { ControlPlane } from '../db/control-plane.ts';
import type { ControlStore } from '../db/control-store.ts';

type Table = keyof ControlPlane & `control.${string}`;

/**
 * What a shard copies from the shared control plane before a run, by table: the rows of its connections (the
 * organizations they belong to, by `organization_id`), and which columns the shard itself owns and keeps (a
 * connection's initial-load stage is the shard's own record of its runs).
 */
const replicated: { table: Table; by: 'connection_id' | 'id' | 'organization_id'; keep?: string[] }[] = [
  { table: 'control.organizations', by: 'organization_id' },
  { table: 'control.connections', by: 'id', keep: ['initial_load_stage'] },
  { table: 'control.connection_credentials', by: 'connection_id' },
  { table: 'control.connection_access', by: 'connection_id' },
  { table: 'control.vendor_codes', by: 'connection_id' },
  { table: 'control.sqp_asins', by: 'connection_id' },
];

/**
 * Brings a shard's copy of the shared control rows its connections need up to date (in one transaction of the
 * shard): each table's rows of those connections replaced by the shared ones, the columns the shard owns kept.
 * Nothing else of the shard changes: its landed files, runs and windows are its own.
 */
export async function replicateToShard(shared: ControlStore, shard: ControlStore, connectionIds: string[]): Promise<number> {
  if (connectionIds.length === 0) return 0;
  // Tables named by the list above: kysely's untyped view of the same databases.
  const db = shared.db as unknown as Kysely<any>;
  const organizations = (await shared.db.selectFrom('control.connections').select('organization_id').where('id', 'in', connectionIds).execute()).map((r) => r.organization_id);
  const fetched = await Promise.all(replicated.map(async (spec) => {
    const keys = spec.by === 'organization_id' ? organizations : connectionIds;
    const column = spec.by === 'organization_id' ? 'id' : spec.by;
    const rows = keys.length === 0 ? [] : ((await db.selectFrom(spec.table).selectAll().where(column, 'in', keys).execute()) as Record<string, unknown>[]);
    return { spec, column, keys, rows };
  }));
  let copied = 0;
  await shard.db.transaction().execute(async (trx) => {
    const t = trx as unknown as Kysely<any>;
    for (const { spec, column, keys, rows } of fetched) {
      const kept = new Map<unknown, Record<string, unknown>>();
      if (spec.keep && keys.length > 0) {
        for (const row of (await t.selectFrom(spec.table).select([column, ...spec.keep]).where(column, 'in', keys).execute()) as Record<string, unknown>[]) kept.set(row[column], row);
      }
      if (keys.length > 0) await t.deleteFrom(spec.table).where(column, 'in', keys).execute();
      // A row new to the shard starts with the shard's own columns empty: a shard rebuilt from documents loads anew.
      const merged = rows.map((row) => ({ ...row, ...Object.fromEntries((spec.keep ?? []).map((c) => [c, kept.get(row[column])?.[c] ?? null])) }));
      if (merged.length > 0) await t.insertInto(spec.table).values(merged).execute();
      copied += merged.length;
    }
  });
  return copied;
}
