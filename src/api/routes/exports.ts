import { createReadStream, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { findSources } from '../../catalog/catalog.ts';
import { initialLoadStages } from '../../pipelines/load-stages.ts';
import { MktdataError } from '../../errors.ts';
import {
  createExport,
  deleteExport,
  exportById,
  listExports,
  requireExport,
  type ExportRow,
} from '../../exports/export-jobs.ts';
import { requireTokens } from '../../control/tokens.ts';
import { availableTo, organizationAccounts, sourcesEnabled } from '../../exports/export-source.ts';
import { verifyDownload } from '../../exports/signed-url.ts';
import { fileExtensions } from '../../exports/write-export.ts';
import type { AppDeps, ExportServices } from '../app-deps.ts';
import { ApiNotFoundResponse, noContent, keyProtectedErrors } from '../schemas/common.ts';
import {
  ApiForbiddenResponse,
  ApiNoTokensResponse,
  ExportRawNotCompletedResponse,
  ExportRequest,
  ExportResponse,
  ExportsResponse,
  downloadQuery,
  exportParams,
  exportSourcesQuery,
  exportsListQuery,
} from '../schemas/exports.ts';
import { ExportSourcesResponse } from '../schemas/catalog.ts';
import { downloadUrl, exportFileAvailable, exportResponse, notCompleted } from './export-replies.ts';

const security = [{ serviceApiKey: [] }];
const tags = ['Exports'];
/** Seconds a client should wait before polling `/raw` again. */
const pollSeconds = 5;
const contentTypes = {
  CSV: 'text/csv; charset=utf-8',
  JSON: 'application/json; charset=utf-8',
  PARQUET: 'application/vnd.apache.parquet',
};

/** The Exports group of spec document 000: create, list, get, delete, raw download, sources. */
export async function exportRoutes(app: FastifyInstance, deps: AppDeps, services: ExportServices) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { wh } = deps;
  const now = () => new Date(services.worker.now());

  api.post(
    '/exports',
    {
      config: { auth: true },
      schema: {
        tags,
        security,
        body: ExportRequest,
        response: { 202: ExportResponse, 404: ApiNotFoundResponse, ...keyProtectedErrors },
      },
    },
    async (request, reply) => {
      const row = await createExport(wh, request.organizationId, request.body, { kind: 'API' }, now());
      if (row.status === 'PENDING') services.worker.enqueue(row.id);
      return reply.status(202).send(exportResponse(row));
    },
  );

  api.get(
    '/exports',
    {
      config: { auth: true },
      schema: {
        tags,
        security,
        querystring: exportsListQuery,
        response: { 200: ExportsResponse, ...keyProtectedErrors },
      },
    },
    async (request) => {
      const { exportIds, page, pageSize } = request.query;
      const { rows, total } = await listExports(wh.db, request.organizationId, { exportIds, page, pageSize });
      return { items: rows.map(exportResponse), page, pageSize, totalCount: total };
    },
  );

  api.get(
    '/exports/sources',
    {
      config: { auth: true },
      schema: {
        tags,
        security,
        querystring: exportSourcesQuery,
        response: { 200: ExportSourcesResponse, 404: ApiNotFoundResponse, ...keyProtectedErrors },
      },
    },
    async (request) => {
      const { sellerOrVendorIds, enabled, ...filter } = request.query;
      const ids = [...new Set(sellerOrVendorIds)];
      const accounts = await organizationAccounts(wh, request.organizationId, ids);
      const missing = ids.find((id) => !accounts.some((a) => a.id === id));
      if (missing) throw new MktdataError('ERR_CONNECTION_NOT_FOUND', { id: missing });
      const stageOf = await initialLoadStages(wh, deps.home);
      const loading = ids.find((id) => stageOf(id) === 'FIRST_STAGE');
      if (loading) throw new MktdataError('ERR_INITIAL_LOAD_IN_PROGRESS', { id: loading });
      const enabledFor = await sourcesEnabled(wh, request.organizationId);
      const sources = findSources(filter)
        .filter((source) => accounts.every((a) => availableTo(source, a.type)))
        .map((source) => ({ ...source, enabled: enabledFor(source) }))
        .filter((source) => enabled === undefined || enabled === source.enabled);
      const recommendedSources = sources
        .filter((s) => s.defaultDataset)
        .map(({ id, name, tableName }) => ({ id, name, tableName }));
      const historical = ids.filter((id) => stageOf(id) === 'SECOND_STAGE');
      const notice = historical.length
        ? {
            historicalDataStillLoadingNotice: {
              message: 'Older data is still loading for some sellers or vendors; exports cover what is loaded.',
              sellerOrVendorIds: historical,
            },
          }
        : {};
      return { sources, recommendedSources, ...notice };
    },
  );

  api.get(
    '/exports/:exportId',
    {
      config: { auth: true },
      schema: {
        tags,
        security,
        params: exportParams,
        response: { 200: ExportResponse, 402: ApiNoTokensResponse, 404: ApiNotFoundResponse, ...keyProtectedErrors },
      },
    },
    async (request) => {
      const row = await requireExport(wh, request.organizationId, request.params.exportId);
      // Spec document 000, "Errors": reading an export answers 402 while the organization has no tokens left.
      await requireTokens(wh, request.organizationId);
      return exportResponse(row);
    },
  );

  api.delete(
    '/exports/:exportId',
    {
      config: { auth: true },
      schema: {
        tags,
        security,
        params: exportParams,
        response: { 204: noContent, 404: ApiNotFoundResponse, ...keyProtectedErrors },
      },
    },
    async (request, reply) => {
      await deleteExport(wh, deps.home, request.organizationId, request.params.exportId);
      return reply.status(204).send(null);
    },
  );

  api.get(
    '/exports/:exportId/raw',
    {
      config: { auth: true },
      schema: {
        tags,
        security,
        params: exportParams,
        response: {
          202: ExportRawNotCompletedResponse,
          404: ApiNotFoundResponse,
          410: ExportRawNotCompletedResponse,
          422: ExportRawNotCompletedResponse,
          ...keyProtectedErrors,
        },
      },
    },
    async (request, reply) => {
      const row = await requireExport(wh, request.organizationId, request.params.exportId);
      if (row.status === 'PENDING' || row.status === 'IN_PROGRESS') {
        reply.header('Retry-After', String(pollSeconds));
        const message = `export ${row.id} is ${row.status}; poll again in ${pollSeconds} seconds`;
        return notCompleted(request, reply, row, 202, 'EXPORT_NOT_READY', message, { retryAfterSeconds: pollSeconds });
      }
      if (row.status !== 'COMPLETED') {
        const error = new MktdataError('ERR_EXPORT_FAILED', {
          id: row.id,
          status: row.status,
          reason: row.error ?? 'no reason recorded',
        });
        return notCompleted(request, reply, row, 422, error.code, error.message);
      }
      if (!exportFileAvailable(deps.home, row, now())) {
        const error = new MktdataError('ERR_EXPORT_FILE_GONE', { id: row.id });
        return notCompleted(request, reply, row, 410, error.code, error.message);
      }
      return reply.redirect(downloadUrl(request, services, row.id), 302);
    },
  );

  api.get(
    '/exports/:exportId/download',
    {
      schema: {
        tags,
        summary: 'The file behind a signed link from /raw (no key)',
        params: exportParams,
        querystring: downloadQuery,
        response: {
          200: z.unknown().describe('The export file (CSV, JSON or Parquet).'),
          403: ApiForbiddenResponse,
          404: ApiNotFoundResponse,
          410: ApiNotFoundResponse,
        },
      },
    },
    async (request, reply) => {
      const { exportId } = request.params;
      if (
        !verifyDownload(
          services.signingKey,
          exportId,
          request.query.expires,
          request.query.signature,
          services.worker.now(),
        )
      ) {
        throw new MktdataError('ERR_EXPORT_SIGNATURE_INVALID', { id: exportId });
      }
      const row = await exportById(wh.db, exportId);
      if (!row) throw new MktdataError('ERR_EXPORT_NOT_FOUND', { id: exportId });
      if (!exportFileAvailable(deps.home, row, now())) throw new MktdataError('ERR_EXPORT_FILE_GONE', { id: exportId });
      const path = join(deps.home.exports, row.file_name!);
      return reply
        .type(contentTypes[row.output_type])
        .header(
          'content-disposition',
          `attachment; filename="${row.table_name}-${row.id}.${fileExtensions[row.output_type]}"`,
        )
        .header('content-length', String(row.file_size_bytes))
        .send(createReadStream(path));
    },
  );
}
