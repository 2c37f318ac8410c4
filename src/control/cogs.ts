import { createHash, randomUUID } from 'node:crypto';
import type { ExpressionBuilder, Kysely, OnConflictBuilder, Selectable } from 'kysely';
import type { ControlPlane } from '../db/control-plane.ts';
import type { Warehouse } from '../db/warehouse.ts';
import { requireOwnConnection } from './connections/connections.ts';
import { cogsFilesLandedSince, recordLandedFile } from './landed-files.ts';
import { charged } from './tokens.ts';

// control.cogs, the unit costs of seller connections: every query on it is in this file
// (test/db/control-table-modules.test.ts).

/** The table the `cogs` source lands in. */
export const cogsTable = 'control.cogs';
type CogsTableRow = Selectable<ControlPlane['control.cogs']>;

/** One unit-cost row as CogsUpsertRequest carries it (docs/design/API.md); amounts as decimal text. */
export interface CogsRow {
  asin: string;
  sku: string;
  costCurrency: string;
  fromDate: string;
  costItemValue: string;
  costItemShippingValue: string;
  itemSupplierName?: string | null;
}

/**
 * Records a change made through the API as a landed document of the `cogs` source, so that the pipelines take it in
 * like an imported file and rebuild from its earliest fromDate (control.cogs_changes keeps that date).
 */
async function recordChange(
  trx: Kysely<ControlPlane>,
  connectionId: string,
  request: string,
  rows: number,
  fromDate: string,
  at: Date,
): Promise<string> {
  const id = randomUUID();
  await recordLandedFile(trx, {
    id,
    connection_id: connectionId,
    source: 'cogs',
    sha256: createHash('sha256').update(`${id}\n${request}`).digest('hex'),
    file_name: `api-${at.toISOString()}.json`,
    size_bytes: Buffer.byteLength(request),
    row_count: rows,
    landed_at: at.toISOString(),
  });
  await trx
    .insertInto('control.cogs_changes')
    .values({ file_id: id, connection_id: connectionId, from_date: fromDate })
    .execute();
  return id;
}

/** A unit cost written again for its key (connection, asin, sku, currency, fromDate) replaces the one there. */
const upsertCogsRows = (oc: OnConflictBuilder<ControlPlane, 'control.cogs'>) =>
  oc.columns(['connection_id', 'asin', 'sku', 'cost_currency', 'from_date']).doUpdateSet((eb) => ({
    cost_item_value: eb.ref('excluded.cost_item_value'),
    cost_item_shipping_value: eb.ref('excluded.cost_item_shipping_value'),
    item_supplier_name: eb.ref('excluded.item_supplier_name'),
    file_id: eb.ref('excluded.file_id'),
    line_number: eb.ref('excluded.line_number'),
    updated_at: eb.ref('excluded.updated_at'),
  }));

const keyOf = (r: CogsRow) => JSON.stringify([r.asin, r.sku, r.costCurrency, r.fromDate]);

/**
 * Upserts unit costs of a seller connection on (asin, sku, costCurrency, fromDate), the last of a key in one request
 * winning; charges its token and records the change in the same transaction.
 */
export async function upsertCogs(
  wh: Warehouse,
  organizationId: string,
  connectionId: string,
  rows: CogsRow[],
  at: Date,
): Promise<{ changeId: string; upserted: number; from: string }> {
  await requireOwnConnection(wh, organizationId, connectionId, 'SELLER_CENTRAL', 'unit costs');
  const unique = [...new Map(rows.map((r) => [keyOf(r), r])).values()];
  const from = unique.map((r) => r.fromDate).sort()[0]!;
  const changeId = randomUUID();
  await charged(
    wh,
    organizationId,
    { usageType: 'COGS', specificUsageType: 'COGS_API_STANDARD', tokens: 1, resourceId: changeId },
    at,
    async (trx) => {
      const fileId = await recordChange(
        trx,
        connectionId,
        JSON.stringify({ changeId, rows: unique }),
        unique.length,
        from,
        at,
      );
      await trx
        .insertInto('control.cogs')
        .values(
          unique.map((r, i) => ({
            connection_id: connectionId,
            asin: r.asin,
            sku: r.sku,
            cost_currency: r.costCurrency,
            from_date: r.fromDate,
            cost_item_value: r.costItemValue,
            cost_item_shipping_value: r.costItemShippingValue,
            item_supplier_name: r.itemSupplierName ?? null,
            file_id: fileId,
            line_number: i + 1,
            updated_at: at.toISOString(),
          })),
        )
        .onConflict(upsertCogsRows)
        .execute();
    },
  );
  return { changeId, upserted: unique.length, from };
}

/** DELETE /cogs: removes a seller connection's rows matching the filters (fromDate within from..to, sku, asin). */
export async function deleteCogs(
  wh: Warehouse,
  organizationId: string,
  filters: { sellerOrVendorId: string; from?: string; to?: string; sku?: string; asin?: string },
  at: Date,
): Promise<{ deleted: number; from: string | null }> {
  const connectionId = filters.sellerOrVendorId;
  await requireOwnConnection(wh, organizationId, connectionId, 'SELLER_CENTRAL', 'unit costs');
  return wh.db.transaction().execute(async (trx) => {
    const matching = (eb: ExpressionBuilder<ControlPlane, 'control.cogs'>) =>
      eb.and([
        eb('connection_id', '=', connectionId),
        ...(filters.from ? [eb('from_date', '>=', filters.from)] : []),
        ...(filters.to ? [eb('from_date', '<=', filters.to)] : []),
        ...(filters.sku !== undefined ? [eb('sku', '=', filters.sku)] : []),
        ...(filters.asin !== undefined ? [eb('asin', '=', filters.asin)] : []),
      ]);
    const found = await trx
      .selectFrom('control.cogs')
      .where(matching)
      .select([(eb) => eb.fn.countAll<string>().as('n'), (eb) => eb.fn.min('from_date').as('from')])
      .executeTakeFirstOrThrow();
    const deleted = Number(found.n);
    if (deleted === 0) return { deleted, from: null };
    const from = String(found.from).slice(0, 10);
    await recordChange(trx, connectionId, JSON.stringify({ delete: filters }), deleted, from, at);
    await trx.deleteFrom('control.cogs').where(matching).execute();
    return { deleted, from };
  });
}

/** The earliest fromDate of the unit costs a landed file brought (`YYYY-MM-DD`), or null. */
export async function earliestCogsDateOf(db: Kysely<ControlPlane>, fileId: string): Promise<string | null> {
  const first = await db
    .selectFrom('control.cogs')
    .select((eb) => eb.fn.min('from_date').as('from'))
    .where('file_id', '=', fileId)
    .executeTakeFirst();
  return first?.from ? String(first.from).slice(0, 10) : null;
}

/** The unit costs of these connections that came from files landed since `since`. */
export function cogsLandedSince(db: Kysely<ControlPlane>, connectionIds: string[], since: Date) {
  return db
    .selectFrom('control.cogs')
    .selectAll()
    .where('connection_id', 'in', connectionIds)
    .where('file_id', 'in', cogsFilesLandedSince(db, since))
    .execute();
}

/** Writes unit-cost rows as they are, each replacing the one of its key. */
export async function upsertCogsTableRows(db: Kysely<ControlPlane>, rows: CogsTableRow[]): Promise<void> {
  await db.insertInto('control.cogs').values(rows).onConflict(upsertCogsRows).execute();
}

/**
 * The statement that lands a `cogs` file on the warehouse's connection: `select` gives the rows in the table's column
 * order, and a row of a key there replaces it.
 */
export const landCogsSql = (select: string) => `insert into control.cogs
       ${select}
       on conflict do update set cost_item_value = excluded.cost_item_value,
         cost_item_shipping_value = excluded.cost_item_shipping_value, item_supplier_name = excluded.item_supplier_name,
         file_id = excluded.file_id, line_number = excluded.line_number, updated_at = excluded.updated_at`;
