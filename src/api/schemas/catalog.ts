import { z } from 'zod';
import { booleanQuery, named, sourceType } from './common.ts';

// The catalog's shapes: GET /spec/data-scheme, /exports/sources and /spec/webhook-scheme.

export const catalogFilterQuery = z
  .object({
    query: z
      .string()
      .max(256)
      .optional()
      .describe('One short keyword: matches display name, table name, id, aliases, descriptions and columns.'),
    sourceType: sourceType.optional(),
    containsPii: booleanQuery.optional(),
  })
  .strict();

const column = z.object({
  name: z.string(),
  type: z.enum(['TEXT', 'NUMBER', 'DATE', 'LOGIC', 'JSON']),
  nullable: z.boolean(),
  description: z.string().nullable(),
  definition: z.string().optional(),
  warehouseOnly: z.boolean().optional(),
});

const fetchPeriod = z.object({
  type: z.enum(['CONTINUOUS', 'INITIAL', 'RECURRING_DAILY', 'RECURRING_MONTHLY']),
  numberOfDays: z.number().int().optional(),
  shiftDays: z.number().int().optional(),
});

export const CatalogSourceEntry = named(
  'CatalogSourceEntry',
  z.object({
    id: z.string().regex(/^[0-9a-f]{64}$/),
    name: z.string(),
    tableName: z.string(),
    type: sourceType,
    columns: z.array(column),
    userManaged: z.boolean(),
    isPremium: z.boolean(),
    defaultDataset: z.boolean(),
    enabled: z.boolean(),
    rowCountBilling: z.boolean(),
    description: z.string(),
    requiresDatePeriod: z.boolean(),
    issues: z.array(z.object({ title: z.string(), description: z.string() })),
    fetchPeriods: z.array(fetchPeriod),
    dataAvailability: z
      .object({ type: z.enum(['INTRADAY', 'REAL_TIME']), description: z.string(), refreshAt: z.string() })
      .optional(),
    sources: z.array(z.string()),
    containsPii: z.boolean(),
    initialLoadProgress: z.null(),
    searchAliases: z.array(z.string()).optional(),
    relatedActions: z.array(z.object({ type: z.string(), relation: z.enum(['writes', 'live']) })).optional(),
    freshness: z
      .object({
        lastRefreshedAt: z
          .string()
          .nullable()
          .describe('End of the latest run that rebuilt and published the table (ISO, UTC).'),
        finalThrough: z
          .string()
          .nullable()
          .describe('Last date that scheduled refreshes no longer change (restatement window); null for snapshots.'),
        lastFetchedAt: z
          .string()
          .nullable()
          .describe(
            'When the live connectors last fetched one of its sources (ISO, UTC); null when it is fed by dropped files only.',
          ),
        failedFetches: z
          .number()
          .int()
          .describe(
            'Requests for its sources that failed and wait for a retry, or were given up in the last 7 days: see `mktdata runs`.',
          ),
      })
      .optional()
      .describe('mktdata extension: how fresh the published table is.'),
  }),
);

export const ExportSourcesResponse = named(
  'ExportSourcesResponse',
  z.object({
    sources: z.array(CatalogSourceEntry),
    recommendedSources: z
      .array(z.object({ id: z.string(), name: z.string(), tableName: z.string() }))
      .describe('The default datasets among the matches: where to start.'),
    historicalDataStillLoadingNotice: z
      .object({ message: z.string(), sellerOrVendorIds: z.array(z.string()) })
      .optional()
      .describe(
        'Present on GET /exports/sources while a selected seller or vendor is still loading its history (SECOND_STAGE).',
      ),
  }),
);

const eventField: z.ZodType<{
  name: string;
  type: 'STRING' | 'NUMBER' | 'JSON' | 'OBJECT_LIST';
  optional: boolean;
  description?: string;
  fields?: unknown[];
}> = z.lazy(() =>
  z.object({
    name: z.string(),
    type: z.enum(['STRING', 'NUMBER', 'JSON', 'OBJECT_LIST']),
    optional: z.boolean(),
    description: z.string().optional(),
    fields: z.array(eventField).optional(),
  }),
);

export const WebhookSchemeResponse = named(
  'WebhookSchemeResponse',
  z.object({
    messages: z.array(
      z.object({
        messageType: z.string(),
        description: z.string(),
        highVolume: z.literal(true).optional(),
        availabilityNote: z.string().optional(),
        prerequisites: z.string().optional(),
        summary: z.object({ description: z.string(), fields: z.array(eventField) }),
        details: z.object({ description: z.string(), fields: z.array(eventField) }),
      }),
    ),
  }),
);

export const tableFileParams = z.object({ file: z.string() });
