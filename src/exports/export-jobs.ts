import { randomUUID } from 'node:crypto';
import { charge } from '../control/tokens.ts';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { ExportStatus, ExportTables } from '../db/control-plane.ts';
import type { ControlStore } from '../db/control-store.ts';
import { MktdataError } from '../errors.ts';
import type { Home } from '../home.ts';
import { organizationAccounts, resolveExport, sourceEnabled } from './export-source.ts';
import type { ExportRequest } from './export-request.ts';

export type ExportRow = ExportTables['control.exports'];

/** Tokens an export costs (docs/design/API.md "Tokens and usage"). */
export const exportCost = (isPremium: boolean) => (isPremium ? 5 : 2);

/** Who asked for an export; decides its usage record's specific type. */
export type ExportCreator = { kind: 'API' } | { kind: 'SCHEDULE'; scheduleId: string };

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
    const specificUsageType = creator.kind === 'SCHEDULE' ? 'EXPORTS_RECURRING_STANDARD' : 'EXPORTS_API_STANDARD';
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
