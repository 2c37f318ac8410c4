import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { deleteConnection, requireConnection } from '../control/connections/connections.ts';
import { unlinkInvitationsOf } from '../control/invitations.ts';
import type { Warehouse } from '../db/warehouse.ts';
import { loadModels } from '../models/load-models.ts';
import { recordChange } from '../models/changes.ts';
import { publish } from '../publish/publish.ts';
import { inTransaction } from '../db/sql.ts';

/** Control tables whose rows belong to one connection (`connection_id`): its settings, documents' records, history. */
const connectionRows = [
  'control.connection_credentials',
  'control.connection_access',
  'control.connection_shards',
  'control.vendor_codes',
  'control.sqp_asins',
  'control.sqp_locks',
  'control.cogs',
  'control.cogs_changes',
  'control.landed_files',
  'control.quarantined_files',
  'control.fetch_requests',
  'control.run_windows',
  'control.oauth_states',
];

/** What `removeConnection` did. */
export interface RemovedConnection {
  name: string;
  /** Rows deleted from the warehouse's tables (raw, staging, intermediate, marts). */
  rows: number;
  /** Whether its landed documents (`landed/<id>/`) were deleted too. */
  purged: boolean;
  published: boolean;
}

/** The warehouse's tables with a connection column, and that column. */
async function tablesWithConnection(wh: Warehouse): Promise<{ table: string; column: string }[]> {
  const reader = await wh.sql.runAndReadAll(`
    select c.table_schema || '.' || c.table_name as "table", min(c.column_name) as "column"
    from information_schema.columns as c
    join information_schema.tables as t using (table_catalog, table_schema, table_name)
    where t.table_type = 'BASE TABLE' and c.table_schema in ('raw', 'staging', 'intermediate', 'marts')
        and c.column_name in ('_connection_id', 'connection_id', 'seller_or_vendor_id')
    group by all order by 1`);
  return reader.getRowObjectsJson().map((r) => ({ table: String(r.table), column: String(r.column) }));
}

/**
 * Removes a connection: its rows from every table of the warehouse and its control rows (credentials, unit costs,
 * vendor codes, SQP list, landing records, fetches and run windows), in one transaction; the published snapshot then
 * loses its rows at once. Its landed documents stay in `landed/<id>/` (drop them in `landing/` of a connection added
 * again to land them anew) unless `purge`, which deletes them and whatever waits in `landing/<id>/`. Exports,
 * actions and webhook events already made keep naming it.
 */
export async function removeConnection(
  wh: Warehouse,
  id: string,
  options: { purge: boolean },
): Promise<RemovedConnection> {
  const connection = await requireConnection(wh, id);
  const tables = await tablesWithConnection(wh);
  const published = loadModels().filter((m) => m.schema === 'marts');
  let rows = 0;
  await inTransaction(wh.sql, async () => {
    for (const { table, column } of tables)
      rows += Number((await wh.sql.run(`delete from ${table} where ${column} = $id`, { id })).rowsChanged);
    for (const table of connectionRows) await wh.sql.run(`delete from ${table} where connection_id = $id`, { id });
    await unlinkInvitationsOf(wh.sql, id);
    await deleteConnection(wh.sql, id);
    // Rows deleted outside a model's run: the next publish copies the tables whole.
    for (const model of published) await recordChange(wh.sql, model, 'whole');
  });
  if (options.purge) {
    for (const folder of [join(wh.home.landed, id), join(wh.home.landing, id)])
      rmSync(folder, { recursive: true, force: true });
  }
  const snapshot = existsSync(wh.home.published);
  if (snapshot) await publish(wh);
  return { name: connection.name, rows, purged: options.purge, published: snapshot };
}
