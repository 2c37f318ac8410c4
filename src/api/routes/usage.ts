import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { specificUsageTypes, usagePools, usageTypes } from '../../control/tokens.ts';
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
    async (request) => {
      const q = request.query;
      let base = deps.wh.db.selectFrom('control.usage_records').where('organization_id', '=', request.organizationId);
      if (q.usedAtFrom) base = base.where('used_at', '>=', new Date(q.usedAtFrom).toISOString());
      if (q.usedAtTo) base = base.where('used_at', '<=', new Date(q.usedAtTo).toISOString());
      if (q.usageTypes) base = base.where('usage_type', 'in', q.usageTypes);
      if (q.usagePools) base = base.where('usage_pool', 'in', q.usagePools);
      if (q.specificUsageTypes) base = base.where('specific_usage_type', 'in', q.specificUsageTypes);
      const total = await base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
      const rows = await base
        .selectAll()
        .orderBy('used_at', 'desc')
        .orderBy('id')
        .limit(q.pageSize)
        .offset((q.page - 1) * q.pageSize)
        .execute();
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
        totalCount: Number(total.n),
      };
    },
  );
}
