import type { Kysely } from 'kysely';
import type { ControlPlane } from '../db/control-plane.ts';
import type { ControlStore } from '../db/control-store.ts';
import { cogsLandedSince, upsertCogsTableRows } from '../control/cogs.ts';
import { organizationsOfConnections } from '../control/connections/connections.ts';

type Table = keyof ControlPlane & `control.${string}`;

/**
 * What a shard copies from the shared control plane before a run, by table: the rows of its connections (the
 * organizations they belong to, by `organization_id`), and which columns the shard itself owns and keeps (a
 * connection's initial-load stage is the shard's own record of its runs). Most tables are replaced; a ledger
 * (`added`, by its key) only gains the rows the shard lacks: unit-cost changes made through the API are landed
 * files of the `cogs` source there, which the shard's next run takes in as new files.
 */
const replicated: {
  table: Table;
  by: 'connection_id' | 'id' | 'organization_id';
  of?: 'organizations';
  keep?: string[];
  added?: string;
}[] = [
  { table: 'control.organizations', by: 'id', of: 'organizations' },
  // Which events a run derives (webhooks/outbox.ts); the shard never delivers them (scale/relay-events.ts).
  { table: 'control.webhook_subscriptions', by: 'organization_id', of: 'organizations' },
  { table: 'control.connections', by: 'id', keep: ['initial_load_stage'] },
  { table: 'control.connection_credentials', by: 'connection_id' },
  { table: 'control.connection_access', by: 'connection_id' },
  { table: 'control.vendor_codes', by: 'connection_id' },
  { table: 'control.sqp_asins', by: 'connection_id' },
  { table: 'control.cogs', by: 'connection_id' },
  { table: 'control.landed_files', by: 'connection_id', added: 'id' },
  { table: 'control.cogs_changes', by: 'connection_id', added: 'file_id' },
];

/**
 * Brings a shard's copy of the shared control rows its connections need up to date (in one transaction of the
 * shard): each table's rows of those connections replaced by the shared ones, the columns the shard owns kept.
 * Nothing else of the shard changes: its landed files, runs and windows are its own.
 */
export async function replicateToShard(
  shared: ControlStore,
  shard: ControlStore,
  connectionIds: string[],
): Promise<number> {
  if (connectionIds.length === 0) return 0;
  // Tables named by the list above: kysely's untyped view of the same databases.
  const db = shared.db as unknown as Kysely<any>;
  const organizations = await organizationsOfConnections(shared.db, connectionIds);
  const fetched = await Promise.all(
    replicated.map(async (spec) => {
      const keys = spec.of === 'organizations' ? organizations : connectionIds;
      const column = spec.by;
      const rows =
        keys.length === 0
          ? []
          : ((await db.selectFrom(spec.table).selectAll().where(column, 'in', keys).execute()) as Record<
              string,
              unknown
            >[]);
      return { spec, column, keys, rows };
    }),
  );
  let copied = 0;
  await shard.db.transaction().execute(async (trx) => {
    const t = trx as unknown as Kysely<any>;
    for (const { spec, column, keys, rows } of fetched) {
      const kept = new Map<unknown, Record<string, unknown>>();
      if (spec.keep && keys.length > 0) {
        for (const row of (await t
          .selectFrom(spec.table)
          .select([column, ...spec.keep])
          .where(column, 'in', keys)
          .execute()) as Record<string, unknown>[])
          kept.set(row[column], row);
      }
      if (spec.added) {
        const present = new Set(
          rows.length === 0
            ? []
            : (
                await t
                  .selectFrom(spec.table)
                  .select(spec.added)
                  .where(
                    spec.added,
                    'in',
                    rows.map((r) => r[spec.added!]),
                  )
                  .execute()
              ).map((r: Record<string, unknown>) => r[spec.added!]),
        );
        const missing = rows.filter((r) => !present.has(r[spec.added!]));
        if (missing.length > 0) await t.insertInto(spec.table).values(missing).execute();
        copied += missing.length;
        continue;
      }
      if (keys.length > 0) await t.deleteFrom(spec.table).where(column, 'in', keys).execute();
      // A row new to the shard starts with the shard's own columns empty: a shard rebuilt from documents loads anew.
      const merged = rows.map((row) => ({
        ...row,
        ...Object.fromEntries((spec.keep ?? []).map((c) => [c, kept.get(row[column])?.[c] ?? null])),
      }));
      if (merged.length > 0) await t.insertInto(spec.table).values(merged).execute();
      copied += merged.length;
    }
  });
  return copied;
}

/**
 * Writes to the shared control plane the unit costs a shard's run landed from `cogs` documents (files landed at or
 * after `since`), so that the API answers them and the next replication keeps them; returns how many rows.
 */
export async function shareLandedCogs(
  shard: ControlStore,
  shared: ControlStore,
  connectionIds: string[],
  since: Date,
): Promise<number> {
  if (connectionIds.length === 0) return 0;
  const rows = await cogsLandedSince(shard.db, connectionIds, since);
  if (rows.length === 0) return 0;
  await upsertCogsTableRows(shared.db, rows);
  return rows.length;
}
