import { randomUUID } from 'node:crypto';
import { charge } from '../control/tokens.ts';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import type { ControlPlane, ExportStatus, ExportTables } from '../db/control-plane.ts';
import type { ControlStore } from '../db/control-store.ts';
import { MktdataError } from '../errors.ts';
import type { Home } from '../home.ts';
import { organizationAccounts, resolveExport, sourceEnabled } from './export-source.ts';
import type { ExportRequest } from './export-request.ts';

// control.exports, every export asked for and the export workers' queue: every query on it is in this file
// (test/db/control-table-modules.test.ts).

type Db = Kysely<ControlPlane>;
export type ExportRow = ExportTables['control.exports'];

/** Tokens an export costs (docs/design/API.md "Tokens and usage"). */
export const exportCost = (isPremium: boolean) => (isPremium ? 5 : 2);

/** Who asked for an export; decides its usage record's specific type. */
export type ExportCreator = { kind: 'API' } | { kind: 'MCP' } | { kind: 'SCHEDULE'; scheduleId: string };

/** The usage record's specific type of an export, by who asked for it (docs/mcp.md "Metering"). */
const exportUsage = {
  API: 'EXPORTS_API_STANDARD',
  MCP: 'EXPORTS_MCP_STANDARD',
  SCHEDULE: 'EXPORTS_RECURRING_STANDARD',
} as const;

/**
 * Accepts an export: checks the request, charges its tokens and writes its usage record and its PENDING job in
 * one transaction. Without enough tokens the export is kept as BLOCKED_NO_TOKENS and nothing is charged.
 */
export async function createExport(
  wh: ControlStore,
  organizationId: string,
  request: ExportRequest,
  creator: ExportCreator,
  now: Date,
): Promise<ExportRow> {
  const accounts = await organizationAccounts(wh, organizationId, request.sellerOrVendorIds);
  const { source, connections } = resolveExport(request, accounts);
  if (!(await sourceEnabled(wh, organizationId, source))) {
    throw new MktdataError('ERR_SOURCE_DISABLED', { table: source.tableName, org: organizationId });
  }
  const id = randomUUID();
  const cost = exportCost(source.isPremium);
  return wh.db.transaction().execute(async (trx) => {
    const specificUsageType = exportUsage[creator.kind];
    const paid = await charge(
      trx,
      organizationId,
      { usageType: 'EXPORTS', specificUsageType, tokens: cost, resourceId: id },
      now,
    );
    const row: ExportRow = {
      id,
      organization_id: organizationId,
      source_id: source.id,
      source_name: source.name,
      table_name: source.tableName,
      seller_or_vendor_ids: JSON.stringify(connections.map((c) => c.id)),
      request: JSON.stringify(request),
      output_type: request.outputType,
      status: paid ? 'PENDING' : 'BLOCKED_NO_TOKENS',
      creator: creator.kind,
      schedule_id: creator.kind === 'SCHEDULE' ? creator.scheduleId : null,
      tokens: paid ? cost : 0,
      row_count: null,
      file_size_bytes: null,
      file_name: null,
      error: paid
        ? null
        : `organization ${organizationId} had fewer than the ${cost} tokens this export costs; the operator adds some with \`mktdata org tokens --org ${organizationId} --add N\``,
      created_at: now.toISOString(),
      started_at: null,
      completed_at: null,
      expires_at: null,
    };
    await trx.insertInto('control.exports').values(row).execute();
    return row;
  });
}

/** The organization's export of that id, or ERR_EXPORT_NOT_FOUND (another organization's reads as not found). */
export async function requireExport(wh: ControlStore, organizationId: string, id: string): Promise<ExportRow> {
  const row = await wh.db
    .selectFrom('control.exports')
    .selectAll()
    .where('id', '=', id)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  if (!row) throw new MktdataError('ERR_EXPORT_NOT_FOUND', { id });
  return row;
}

/** Deletes an export and its file; a worker still writing it drops its result when it finds the row gone. */
export async function deleteExport(wh: ControlStore, home: Home, organizationId: string, id: string): Promise<void> {
  const row = await requireExport(wh, organizationId, id);
  await wh.db.deleteFrom('control.exports').where('id', '=', id).execute();
  if (row.file_name) rmSync(join(home.exports, row.file_name), { force: true });
}

export const finished = (status: ExportStatus) =>
  status === 'COMPLETED' || status === 'ERROR' || status === 'BLOCKED_NO_TOKENS';

/** A page of the organization's exports (of these ids only, when given), newest first, and how many there are. */
export async function listExports(
  db: Db,
  organizationId: string,
  page: { exportIds?: string[]; page: number; pageSize: number },
): Promise<{ rows: ExportRow[]; total: number }> {
  let base = db.selectFrom('control.exports').where('organization_id', '=', organizationId);
  if (page.exportIds) base = base.where('id', 'in', page.exportIds.length ? page.exportIds : ['']);
  const total = await base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  const rows = await base
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(page.pageSize)
    .offset((page.page - 1) * page.pageSize)
    .execute();
  return { rows, total: Number(total.n) };
}

/** The export of that id, whatever its organization (a signed link names it), or undefined. */
export function exportById(db: Db, id: string): Promise<ExportRow | undefined> {
  return db.selectFrom('control.exports').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The id of the schedule's newest export, or undefined. */
export async function newestExportOf(db: Db, scheduleId: string): Promise<string | undefined> {
  const last = await db
    .selectFrom('control.exports')
    .select('id')
    .where('schedule_id', '=', scheduleId)
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  return last?.id;
}

/** The id of the schedule's newest completed export whose file can still be downloaded at `now`, or undefined. */
export async function newestDownloadableExportOf(db: Db, scheduleId: string, now: Date): Promise<string | undefined> {
  const latest = await db
    .selectFrom('control.exports')
    .select('id')
    .where('schedule_id', '=', scheduleId)
    .where('status', '=', 'COMPLETED')
    .where('file_name', 'is not', null)
    .where('expires_at', '>', now.toISOString())
    .orderBy('completed_at', 'desc')
    .executeTakeFirst();
  return latest?.id;
}

/** The latest exports, of one organization or of all, newest first (the console). */
export function latestExports(db: Db, organizationId: string | undefined, limit: number) {
  let query = db
    .selectFrom('control.exports')
    .select([
      'id',
      'organization_id',
      'table_name',
      'output_type',
      'status',
      'creator',
      'schedule_id',
      'row_count',
      'file_size_bytes',
      'error',
      'created_at',
      'completed_at',
      'expires_at',
    ]);
  if (organizationId) query = query.where('organization_id', '=', organizationId);
  return query.orderBy('created_at', 'desc').limit(limit).execute();
}

// The export workers' queue is this table: the queries below take, hold and settle its rows.

/** Turns exports whose writer's lease ran out by `now` back to PENDING; returns them. */
export function requeueLapsedExports(db: Db, now: string) {
  return db
    .updateTable('control.exports')
    .set({ status: 'PENDING', started_at: null, lease_until: null })
    .where('status', '=', 'IN_PROGRESS')
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
    .returning(['id', 'output_type'])
    .execute();
}

/** The ids of the PENDING exports, oldest first. */
export async function pendingExportIds(db: Db): Promise<string[]> {
  const rows = await db
    .selectFrom('control.exports')
    .select('id')
    .where('status', '=', 'PENDING')
    .orderBy('created_at')
    .execute();
  return rows.map((r) => r.id);
}

/** How many exports wait for a writer (PENDING): the export queue's depth, for the metrics. */
export async function pendingExportCount(db: Db): Promise<number> {
  const row = await db
    .selectFrom('control.exports')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('status', '=', 'PENDING')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Takes a PENDING export for a writer, leased until `leaseUntil`; false when it is gone or taken. */
export async function claimExport(db: Db, id: string, startedAt: string, leaseUntil: string): Promise<boolean> {
  const claimed = await db
    .updateTable('control.exports')
    .set({ status: 'IN_PROGRESS', started_at: startedAt, lease_until: leaseUntil })
    .where('id', '=', id)
    .where('status', '=', 'PENDING')
    .executeTakeFirst();
  return claimed.numUpdatedRows > 0n;
}

/** Renews the lease of an export still being written. */
export async function renewExportLease(db: Db, id: string, leaseUntil: string): Promise<void> {
  await db
    .updateTable('control.exports')
    .set({ lease_until: leaseUntil })
    .where('id', '=', id)
    .where('status', '=', 'IN_PROGRESS')
    .execute();
}

/** Records how an export being written ended; false when it was deleted meanwhile. */
export async function settleExport(db: Db, id: string, update: Partial<ExportRow>): Promise<boolean> {
  const saved = await db
    .updateTable('control.exports')
    .set({ ...update, lease_until: null })
    .where('id', '=', id)
    .where('status', '=', 'IN_PROGRESS')
    .executeTakeFirst();
  return saved.numUpdatedRows > 0n;
}

/** Completed exports whose file expired by `now`. */
export function expiredExportFiles(db: Db, now: string) {
  return db
    .selectFrom('control.exports')
    .select(['id', 'file_name'])
    .where('status', '=', 'COMPLETED')
    .where('file_name', 'is not', null)
    .where('expires_at', '<=', now)
    .execute();
}

/** Records that these exports' files were deleted. */
export async function forgetExportFiles(db: Db, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.updateTable('control.exports').set({ file_name: null }).where('id', 'in', ids).execute();
}
