import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ExportRow } from '../../exports/export-jobs.ts';
import type { Home } from '../../home.ts';
import { signDownload } from '../../exports/signed-url.ts';
import { apiPrefix, type ExportServices } from '../app-deps.ts';

// What the export routes answer: an export as the API shows it, its signed download link, and the replies of `/raw`
// while it is not completed.

const iso = (value: string | null) => (value === null ? null : new Date(value).toISOString());
const num = (value: number | string | null) => (value === null ? null : Number(value));

/** The ExportResponse of docs/design/API.md. */
export const exportResponse = (row: ExportRow) => ({
  id: row.id,
  exportId: row.id,
  organizationId: row.organization_id,
  sourceId: row.source_id,
  sourceName: row.source_name,
  tableName: row.table_name,
  sellerOrVendorIds: JSON.parse(row.seller_or_vendor_ids) as string[],
  status: row.status,
  outputType: row.output_type,
  rowCount: num(row.row_count),
  fileSizeBytes: num(row.file_size_bytes),
  createdAt: iso(row.created_at)!,
  completedAt: iso(row.completed_at),
  expiresAt: iso(row.expires_at),
  error: row.error,
  historicalDataStillLoadingNotice: null,
});

/** Whether a completed export's file can still be downloaded: within its retention, and still on disk. */
export function exportFileAvailable(home: Home, row: ExportRow, at: Date): boolean {
  return Boolean(
    row.file_name && row.expires_at && new Date(row.expires_at) > at && existsSync(join(home.exports, row.file_name)),
  );
}

/** Where the client reached this server: the origin of the links it is given. */
export type Origin = Pick<FastifyRequest, 'protocol' | 'host'>;

/** An absolute, key-less link to an export's file, signed and valid for the configured minutes. */
export function downloadUrl(request: Origin, services: ExportServices, exportId: string): string {
  const expires = Math.floor((services.worker.now() + services.signedUrlTtlMs) / 1000);
  return `${request.protocol}://${request.host}${apiPrefix}/exports/${exportId}/download?${signDownload(services.signingKey, exportId, expires)}`;
}

export function notCompleted(
  request: FastifyRequest,
  reply: FastifyReply,
  row: ExportRow,
  status: 202 | 410 | 422,
  code: string,
  message: string,
  extra = {},
) {
  const error = { 202: 'Accepted', 410: 'Gone', 422: 'Unprocessable Entity' }[status];
  return reply.status(status).send({
    statusCode: status,
    error,
    code,
    message,
    requestId: request.id,
    exportId: row.id,
    status: row.status,
    ...extra,
  });
}
