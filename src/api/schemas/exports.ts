import { z } from 'zod';
import { exportQueryFields, exportRequestSchema } from '../../exports/export-request.ts';
import { ApiBadRequestResponse, apiError, booleanQuery, named, pageParam } from './common.ts';
import { catalogFilterQuery } from './catalog.ts';

export const ExportRequest = named('ExportRequest', exportRequestSchema);

const exportStatus = z.enum(['PENDING', 'IN_PROGRESS', 'COMPLETED', 'ERROR', 'BLOCKED_NO_TOKENS']);

export const ExportResponse = named(
  'ExportResponse',
  z.object({
    id: z.string(),
    exportId: z.string(),
    organizationId: z.string(),
    sourceId: z.string(),
    sourceName: z.string(),
    tableName: z.string(),
    sellerOrVendorIds: z.array(z.string()),
    status: exportStatus,
    outputType: z.enum(['CSV', 'JSON', 'PARQUET']),
    rowCount: z.number().int().nullable(),
    fileSizeBytes: z.number().int().nullable(),
    createdAt: z.string(),
    completedAt: z.string().nullable(),
    expiresAt: z
      .string()
      .nullable()
      .describe('When the file stops being downloadable (retention, 24 hours by default).'),
    error: z.string().nullable(),
    historicalDataStillLoadingNotice: z.string().nullable(),
  }),
);

export const ExportsResponse = named(
  'ExportsResponse',
  z.object({
    items: z.array(ExportResponse),
    page: z.number().int(),
    pageSize: z.number().int(),
    totalCount: z.number().int(),
  }),
);

/** A repeated array parameter; one comma-separated value is accepted too (docs/design/API.md "Conventions"). */
export const arrayQuery = <T extends z.ZodType>(item: T) =>
  z.preprocess((v) => (typeof v === 'string' ? v.split(',') : v), z.array(item).max(100));

export const exportsListQuery = z
  .object({
    exportIds: arrayQuery(z.string().min(1).max(64)).optional(),
    page: pageParam(999_999_999, 1),
    pageSize: pageParam(25, 25),
  })
  .strict();

export const exportParams = z.object({ exportId: z.string().min(1).max(64) });

export const downloadQuery = z.object({ expires: z.string().max(20), signature: z.string().max(128) }).strict();

export const ExportRawNotCompletedResponse = named(
  'ExportRawNotCompletedResponse',
  apiError.extend({
    exportId: z.string(),
    status: exportStatus,
    retryAfterSeconds: z.number().int().optional().describe('On 202: when to poll again.'),
  }),
);

export const ApiNoTokensResponse = named('ApiNoTokensResponse', apiError);
export const ApiForbiddenResponse = named('ApiForbiddenResponse', apiError);

export const exportSourcesQuery = catalogFilterQuery
  .extend({
    sellerOrVendorIds: arrayQuery(z.string().min(1).max(64)).pipe(z.array(z.string()).min(1)),
    enabled: booleanQuery.optional(),
  })
  .strict();

const relativePeriod = z.union([
  z.object({ lastDays: z.number().int().min(1).max(3660) }).strict(),
  z.object({ type: z.literal('PREVIOUS_MONTH') }).strict(),
]);
const integration = z
  .union([z.url({ protocol: /^https?$/ }), z.object({ url: z.url({ protocol: /^https?$/ }) }).strict()])
  .transform((i) => (typeof i === 'string' ? { url: i } : i));

export const ExportScheduleRequest = named(
  'ExportScheduleRequest',
  z
    .object({
      ...exportQueryFields,
      name: z.string().trim().min(1).max(256),
      cron: z.string().min(1).max(128).describe('croner syntax: 5 or 6 fields, evaluated in `timezone`.'),
      timezone: z.string().min(1).max(64).default('UTC').describe('IANA timezone, e.g. Europe/Berlin.'),
      active: z.boolean().default(true),
      relativePeriod: relativePeriod
        .optional()
        .describe('For tables that need a date period: the days before the run date, or the previous month.'),
      integrations: z
        .array(integration)
        .max(16)
        .default([])
        .describe('Webhook URLs that receive a POST when a scheduled export ends.'),
    })
    .strict()
    .refine((r) => (r.sourceId === undefined) !== (r.tableName === undefined), {
      message: 'give exactly one of sourceId and tableName',
      path: ['sourceId'],
    }),
);

export const ExportScheduleWithIntegrationsResponse = named(
  'ExportScheduleWithIntegrationsResponse',
  z.object({
    id: z.string(),
    scheduleId: z.string(),
    organizationId: z.string(),
    name: z.string(),
    cron: z.string(),
    timezone: z.string(),
    active: z.boolean(),
    relativePeriod: relativePeriod.nullable(),
    ...exportQueryFields,
    sourceId: z.string(),
    sourceName: z.string(),
    tableName: z.string(),
    orderByDirection: z.enum(['ASC', 'DESC']).optional(),
    integrations: z.array(z.object({ id: z.string(), type: z.literal('WEBHOOK'), url: z.string() })),
    nextRunAt: z.string().nullable(),
    lastExportId: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  }),
);

export const ExportSchedulesResponse = named(
  'ExportSchedulesResponse',
  z.object({
    items: z.array(ExportScheduleWithIntegrationsResponse),
    page: z.number().int(),
    pageSize: z.number().int(),
    totalCount: z.number().int(),
  }),
);

export const schedulesListQuery = z
  .object({ active: booleanQuery.optional(), page: pageParam(999_999_999, 1), pageSize: pageParam(100, 100) })
  .strict();
export const scheduleParams = z.object({ scheduleId: z.string().min(1).max(64) });

export { ApiBadRequestResponse };
