import { createReadStream } from 'node:fs';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MktdataError } from '../../errors.ts';
import { signLink, verifyLink, type LinkPurpose } from '../../exports/signed-url.ts';
import {
  createDataFile,
  deleteDataFile,
  requireDownloadable,
  fileFormats,
  findDataFile,
  listDataFiles,
  maxFileBytes,
  requireDataFile,
  statusAt,
  uploadDataFile,
  type DataFileRow,
} from '../../files/data-files.ts';
import { apiPrefix, type AppDeps, type ExportServices } from '../app-deps.ts';
import type { Origin } from './export-replies.ts';
import { ApiBadRequestResponse, ApiNotFoundResponse, keyProtectedErrors, noContent } from '../schemas/common.ts';
import { ApiForbiddenResponse, downloadQuery } from '../schemas/exports.ts';
import {
  ApiConflictResponse,
  ApiContentTooLargeResponse,
  CreateDataFileRequest,
  DataFileCreateResponse,
  DataFileResponse,
  DataFilesResponse,
  dataFilesQuery,
  fileParams,
} from '../schemas/files.ts';

const security = [{ serviceApiKey: [] }];
const tags = ['Data files'];
/** Room for the base64 text of the largest file plus the other fields of a CreateDataFileRequest. */
const createBodyLimit = Math.ceil(maxFileBytes / 3) * 4 + 64 * 1024;

const iso = (value: string | null) => (value === null ? null : new Date(value).toISOString());

/** The DataFileResponse of docs/api.md "Data files", with the status the file has at `now`. */
export const dataFileResponse = (row: DataFileRow, now: Date) => ({
  id: row.id,
  fileId: row.id,
  organizationId: row.organization_id,
  sellerOrVendorId: row.connection_id,
  sellerOrVendorIds: [row.connection_id],
  name: row.name,
  group: row.file_group,
  type: row.type,
  status: statusAt(row, now),
  source: row.source,
  sizeBytes: row.size_bytes === null ? null : Number(row.size_bytes),
  sha256: row.sha256,
  ttlHours: row.ttl_hours,
  createdAt: iso(row.created_at)!,
  uploadedAt: iso(row.uploaded_at),
  expiresAt: iso(row.expires_at)!,
  deletedAt: iso(row.deleted_at),
});

/**
 * The Data files group of spec document 000: create, list, get, delete, download, and the signed upload and download
 * links.
 */
export async function fileRoutes(app: FastifyInstance, deps: AppDeps, services: ExportServices) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { wh, home } = deps;
  const now = () => new Date(services.worker.now());

  api.post(
    '/files',
    {
      bodyLimit: createBodyLimit,
      config: { auth: true },
      schema: {
        tags,
        security,
        body: CreateDataFileRequest,
        response: { 201: DataFileCreateResponse, 404: ApiNotFoundResponse, ...keyProtectedErrors },
      },
    },
    async (request, reply) => {
      const at = now();
      const row = await createDataFile(wh, home, request.organizationId, request.body, at);
      const upload = fileLink(request, services, 'file-upload', row.id);
      return reply
        .status(201)
        .send({ ...dataFileResponse(row, at), uploadUrl: upload.url, uploadUrlExpiresAt: upload.expiresAt });
    },
  );

  api.get(
    '/files',
    {
      config: { auth: true },
      schema: {
        tags,
        security,
        querystring: dataFilesQuery,
        response: { 200: DataFilesResponse, ...keyProtectedErrors },
      },
    },
    async (request) => {
      const at = now();
      const { rows, totalCount } = await listDataFiles(wh, request.organizationId, request.query, at);
      return {
        items: rows.map((row) => dataFileResponse(row, at)),
        page: request.query.page,
        pageSize: request.query.pageSize,
        totalCount,
      };
    },
  );

  api.get(
    '/files/:fileId',
    {
      config: { auth: true },
      schema: {
        tags,
        security,
        params: fileParams,
        response: { 200: DataFileResponse, 404: ApiNotFoundResponse, ...keyProtectedErrors },
      },
    },
    async (request) =>
      dataFileResponse(await requireDataFile(wh, request.organizationId, request.params.fileId), now()),
  );

  api.delete(
    '/files/:fileId',
    {
      config: { auth: true },
      schema: {
        tags,
        security,
        params: fileParams,
        response: { 204: noContent, 404: ApiNotFoundResponse, ...keyProtectedErrors },
      },
    },
    async (request, reply) => {
      await deleteDataFile(wh, home, request.organizationId, request.params.fileId, now());
      return reply.status(204).send(null);
    },
  );

  api.get(
    '/files/:fileId/download',
    {
      config: { auth: true },
      schema: { tags, security, params: fileParams, response: { 404: ApiNotFoundResponse, ...keyProtectedErrors } },
    },
    async (request, reply) => {
      const row = await requireDataFile(wh, request.organizationId, request.params.fileId);
      requireDownloadable(home, row, now());
      return reply.redirect(fileLink(request, services, 'file-download', row.id).url, 302);
    },
  );

  api.get(
    '/files/:fileId/content',
    {
      schema: {
        tags,
        summary: 'The bytes behind a signed link from /download (no key)',
        params: fileParams,
        querystring: downloadQuery,
        response: {
          200: z.unknown().describe('The file (image/png, image/jpeg or image/tiff).'),
          403: ApiForbiddenResponse,
          404: ApiNotFoundResponse,
        },
      },
    },
    async (request, reply) => {
      const { fileId } = request.params;
      requireLink(services, 'file-download', fileId, request.query);
      const row = await findDataFile(wh, fileId);
      const path = requireDownloadable(home, row, now());
      const { contentType, extension } = fileFormats[row.type];
      return reply
        .type(contentType)
        .header(
          'content-disposition',
          `attachment; filename="${row.id}.${extension}"; filename*=UTF-8''${encodeFilename(row.name)}`,
        )
        .header('content-length', String(row.size_bytes))
        .send(createReadStream(path));
    },
  );

  // The upload takes raw bytes of any content-type: its own parsers, in a plugin of its own.
  await api.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: maxFileBytes }, (_request, body, done) =>
      done(null, body),
    );
    scope.withTypeProvider<ZodTypeProvider>().put(
      '/files/:fileId/content',
      {
        bodyLimit: maxFileBytes,
        // The signature is checked before the body is read: a forged link does not get to send 20 MiB.
        onRequest: async (request) =>
          requireLink(
            services,
            'file-upload',
            (request.params as { fileId: string }).fileId,
            request.query as Record<string, unknown>,
          ),
        schema: {
          tags,
          summary: "The one upload of a file's raw bytes, through the signed uploadUrl (no key)",
          params: fileParams,
          querystring: downloadQuery,
          response: {
            200: DataFileResponse,
            400: ApiBadRequestResponse,
            403: ApiForbiddenResponse,
            404: ApiNotFoundResponse,
            409: ApiConflictResponse,
            413: ApiContentTooLargeResponse,
          },
        },
      },
      async (request) => {
        const at = now();
        const bytes = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        return dataFileResponse(await uploadDataFile(wh, home, request.params.fileId, bytes, at), at);
      },
    );
  });
}

/** An absolute, key-less link to a file's bytes for one purpose, signed and valid for the configured minutes. */
export function fileLink(
  request: Origin,
  services: ExportServices,
  purpose: LinkPurpose,
  id: string,
): { url: string; expiresAt: string } {
  const expires = Math.floor((services.worker.now() + services.signedUrlTtlMs) / 1000);
  const url = `${request.protocol}://${request.host}${apiPrefix}/files/${id}/content?${signLink(services.signingKey, purpose, id, expires)}`;
  return { url, expiresAt: new Date(expires * 1000).toISOString() };
}

/** Refuses a link whose signature is not this server's for that purpose and file, or has expired (403). */
function requireLink(services: ExportServices, purpose: LinkPurpose, id: string, query: Record<string, unknown>): void {
  const { expires, signature } = query;
  const valid =
    typeof expires === 'string' &&
    typeof signature === 'string' &&
    verifyLink(services.signingKey, purpose, id, expires, signature, services.worker.now());
  if (!valid) throw new MktdataError('ERR_FILE_SIGNATURE_INVALID', { id });
}

/** A name as an RFC 8187 `filename*` value: UTF-8, percent-encoded beyond the few characters it allows. */
const encodeFilename = (name: string) =>
  encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
