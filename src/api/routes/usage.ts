import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { specificUsageTypes, usagePools, usageRecordsOf, usageTypes } from '../../control/tokens.ts';
import type { AppDeps } from '../app-deps.ts';
import { keyProtectedErrors, named, pageParam } from '../schemas/common.ts';
import { arrayQuery } from '../schemas/exports.ts';

const security = [{ serviceApiKey: [] }];

const usageLogsQuery = z
  .object({
    page: pageParam(999_999_999, 1),
    pageSize: pageParam(100, 100),
    usedAtFrom: z.iso.datetime({ offset: true }).optional().describe('Inclusive.'),
    usedAtTo: z.iso.datetime({ offset: true }).optional().describe('Inclusive.'),
    usageTypes: arrayQuery(z.enum(usageTypes)).optional(),
    usagePools: arrayQuery(z.enum(usagePools)).optional(),
    specificUsageTypes: arrayQuery(z.enum(specificUsageTypes)).optional(),
  })
  .strict();

export const UsageLogResponse = named(
  'UsageLogResponse',
  z.object({
    id: z.string(),
    usageType: z.enum(usageTypes),
    usagePool: z.enum(usagePools),
    specificUsageType: z.enum(specificUsageTypes),
    tokens: z.number().int(),
    resourceId: z
      .string()
      .nullable()
      .describe('The export, action, or COGS or vendor-code upload the tokens paid for.'),
    usedAt: z.string(),
  }),
);

export const UsageLogsResponse = named(
  'UsageLogsResponse',
  z.object({
    items: z.array(UsageLogResponse),
    page: z.number().int(),
    pageSize: z.number().int(),
    totalCount: z.number().int(),
  }),
);

/** GET /usage-logs: the organization's usage records, newest first. */
export async function usageRoutes(app: FastifyInstance, deps: AppDeps) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/usage-logs',
    {
      config: { auth: true },
      schema: {
        tags: ['Unit costs and usage'],
        security,
        querystring: usageLogsQuery,
        response: { 200: UsageLogsResponse, ...keyProtectedErrors },
      },
    },
    async (request) => usageLogs(deps, request.organizationId, request.query),
  );
}

/** GET /usage-logs (and the MCP tool `get_usage`): a page of the organization's usage records, newest first. */
export async function usageLogs(
  deps: Pick<AppDeps, 'wh'>,
  organizationId: string,
  q: Omit<z.output<typeof usageLogsQuery>, 'usagePools'> & Partial<z.output<typeof usageLogsQuery>>,
) {
  const { rows, total } = await usageRecordsOf(deps.wh.db, organizationId, q);
  return {
    items: rows.map((r) => ({
      id: r.id,
      usageType: r.usage_type as (typeof usageTypes)[number],
      usagePool: r.usage_pool as (typeof usagePools)[number],
      specificUsageType: r.specific_usage_type as (typeof specificUsageTypes)[number],
      tokens: Number(r.tokens),
      resourceId: r.resource_id,
      usedAt: new Date(r.used_at).toISOString(),
    })),
    page: q.page,
    pageSize: q.pageSize,
    totalCount: total,
  };
}
