import { z } from 'zod';
import { fileGroups, fileSources, fileStatuses, fileTypes, maxFileBytes } from '../../files/data-files.ts';
import { apiError, named, pageParam } from './common.ts';
import { arrayQuery } from './exports.ts';

/** Bytes a valid base64 text decodes to (its length is a multiple of 4, with at most two `=` of padding). */
const decodedLength = (text: string) => (text.length / 4) * 3 - (text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0);

export const CreateDataFileRequest = named(
  'CreateDataFileRequest',
  z
    .object({
      name: z
        .string()
        .trim()
        .min(1)
        .max(256)
        .describe('Shown in lists and offered as the download name; never used as a path.'),
      group: z.enum(fileGroups),
      type: z.enum(fileTypes).describe('The content must start with the magic bytes of this type.'),
      sellerOrVendorId: z.string().min(1).max(64).describe("One of the organization's connections."),
      ttlHours: z.number().int().min(1).max(720).describe('The file expires this many hours after its creation.'),
      contentBase64: z
        .base64()
        .min(1)
        .refine((text) => decodedLength(text) <= maxFileBytes, `at most ${maxFileBytes} bytes (20 MiB) once decoded`)
        .optional()
        .describe(
          'The content at once (standard base64): the file is UPLOADED on creation and its uploadUrl answers 409.',
        ),
    })
    .strict(),
);

export const DataFileResponse = named(
  'DataFileResponse',
  z.object({
    id: z.string(),
    fileId: z.string(),
    organizationId: z.string(),
    sellerOrVendorId: z.string(),
    sellerOrVendorIds: z
      .array(z.string())
      .describe('The one sellerOrVendorId, as the list filter of the same name sees it.'),
    name: z.string(),
    group: z.enum(fileGroups),
    type: z.enum(fileTypes),
    status: z
      .enum(fileStatuses)
      .describe('WAITING_FOR_UPLOAD, then UPLOADED; EXPIRED once expiresAt has passed; DELETED.'),
    source: z.enum(fileSources),
    sizeBytes: z.number().int().nullable().describe('null until uploaded.'),
    sha256: z.string().nullable().describe('Hex SHA-256 of the content; null until uploaded.'),
    ttlHours: z.number().int(),
    createdAt: z.string(),
    uploadedAt: z.string().nullable(),
    expiresAt: z.string().describe('createdAt + ttlHours: the file then reads as EXPIRED and its bytes are deleted.'),
    deletedAt: z.string().nullable(),
  }),
);

export const DataFileCreateResponse = named(
  'DataFileCreateResponse',
  DataFileResponse.extend({
    uploadUrl: z
      .string()
      .describe('Key-less signed link: one PUT of the raw bytes (any content-type), at most 20 MiB.'),
    uploadUrlExpiresAt: z.string().describe('The upload link stops working after this time.'),
  }),
);

export const DataFilesResponse = named(
  'DataFilesResponse',
  z.object({
    items: z.array(DataFileResponse),
    page: z.number().int(),
    pageSize: z.number().int(),
    totalCount: z.number().int(),
  }),
);

export const dataFilesQuery = z
  .object({
    group: z.enum(fileGroups).optional(),
    page: pageParam(999_999_999, 1),
    pageSize: pageParam(100, 25),
    query: z.string().max(256).optional().describe('Case-insensitive substring of the name.'),
    statuses: arrayQuery(z.enum(fileStatuses)).optional(),
    types: arrayQuery(z.enum(fileTypes)).optional(),
    sources: arrayQuery(z.enum(fileSources)).optional(),
    sellerOrVendorIds: arrayQuery(z.string().min(1).max(64)).optional(),
  })
  .strict();

export const fileParams = z.object({ fileId: z.string().min(1).max(64) });

export const ApiConflictResponse = named('ApiConflictResponse', apiError);
export const ApiContentTooLargeResponse = named('ApiContentTooLargeResponse', apiError);
