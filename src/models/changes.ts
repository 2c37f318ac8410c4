import type { DuckDBConnection } from '@duckdb/node-api';
import type { Model } from './load-models.ts';
import type { DateRange } from './date-ranges.ts';

// control.unpublished_changes, what the models changed since the snapshots kept: every query on it is in this file
// (test/db/control-table-modules.test.ts). They run on the warehouse's own connection, in its holder's transaction.

/** What a model replaced in a catalog table: every row, or some date ranges of some connections. */
export type TableChange = 'whole' | { connectionId: string; ranges: DateRange[] }[];

/** Whether a model's table is published: marts with a catalog entry. */
export const isPublished = (model: Model) => model.schema === 'marts' && model.config.catalog !== undefined;

/**
 * Notes what a model changed, for the next publish. Call it in the transaction that makes the change, so that the
 * note and the rows are kept or lost together.
 */
export async function recordChange(sql: DuckDBConnection, model: Model, change: TableChange): Promise<void> {
  if (!isPublished(model)) return;
  if (change === 'whole') {
    await sql.run(`insert into control.unpublished_changes (table_name) values ($table)`, { table: model.name });
    return;
  }
  const rows = change.flatMap(({ connectionId, ranges }) =>
    ranges.map((r) => ({ connection_id: connectionId, date_from: r.from, date_to: r.to })),
  );
  if (rows.length === 0) return;
  // One statement for every connection's ranges: a run of hundreds of connections changes thousands.
  await sql.run(
    `
    insert into control.unpublished_changes (table_name, connection_id, date_from, date_to)
    select $table, connection_id, date_from, date_to
    from (select unnest(from_json($rows, '[{"connection_id":"VARCHAR","date_from":"DATE","date_to":"DATE"}]'), recursive := true))`,
    { table: model.name, rows: JSON.stringify(rows) },
  );
}

/**
 * The changes noted after change `after` (the last one a snapshot holds), by table, and the last change noted (0
 * when none is kept). Publish keeps the changes since the snapshot before the published one (see publish).
 */
export async function changesAfter(sql: DuckDBConnection, after: number) {
  const reader = await sql.runAndReadAll(`
    select seq, table_name, connection_id, date_from::varchar as date_from, date_to::varchar as date_to
    from control.unpublished_changes order by seq`);
  const byTable = new Map<string, TableChange>();
  let upTo = after;
  for (const row of reader.getRowObjectsJson()) {
    upTo = Math.max(upTo, Number(row.seq));
    if (Number(row.seq) <= after) continue;
    const table = String(row.table_name);
    const known = byTable.get(table);
    if (known === 'whole') continue;
    if (row.connection_id === null) {
      byTable.set(table, 'whole');
      continue;
    }
    const list = known ?? [];
    const range = { from: String(row.date_from), to: String(row.date_to) };
    const entry = list.find((c) => c.connectionId === row.connection_id);
    if (entry) entry.ranges.push(range);
    else list.push({ connectionId: String(row.connection_id), ranges: [range] });
    byTable.set(table, list);
  }
  return { byTable, upTo };
}

/** Whether a change was noted after change `after`. */
export async function anyChangeAfter(sql: DuckDBConnection, after: number): Promise<boolean> {
  const pending = await sql.runAndReadAll('select 1 from control.unpublished_changes where seq > $seq limit 1', {
    seq: after,
  });
  return pending.currentRowCount > 0;
}

/** Forgets the changes up to change `upTo`, which every snapshot kept holds; in the transaction that ends a publish. */
export async function forgetChangesUpTo(sql: DuckDBConnection, upTo: number): Promise<void> {
  await sql.run(`delete from control.unpublished_changes where seq <= $seq`, { seq: upTo });
}
