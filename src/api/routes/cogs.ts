import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { deleteCogs, upsertCogs } from '../../control/cogs.ts';
import type { AppDeps } from '../app-deps.ts';
import { ApiNoTokensResponse } from '../schemas/exports.ts';
import { ApiNotFoundResponse, keyProtectedErrors, named, noContent } from '../schemas/common.ts';
import { cogsRebuild } from '../../pipelines/cogs-rebuild.ts';

const security = [{ serviceApiKey: [] }];
const tags = ['Unit costs and usage'];

/** A money amount of control.cogs (decimal(18,4)): zero or more, at most 4 decimals, as a JSON number or text. */
const amount = z
  .union([z.number(), z.string().trim()])
  .transform((v) => String(v))
  .refine(
    (v) => /^\d{1,14}(\.\d{1,4})?$/.test(v),
    'expected an amount of zero or more with at most 4 decimals, such as 4.25',
  );
const day = z.iso.date().refine((d) => !Number.isNaN(Date.parse(d)), 'not a calendar date');
const sellerOrVendorId = z.string().min(1).max(64);

export const CogsRowRequest = named(
  'CogsRowRequest',
  z
    .object({
      asin: z.string().trim().min(1).max(20),
      sku: z.string().trim().min(1).max(200),
      costCurrency: z
        .string()
        .trim()
        .regex(/^[A-Za-z]{3}$/, 'expected a 3-letter ISO currency code such as USD')
        .transform((c) => c.toUpperCase()),
      fromDate: day.describe(
        'The cost applies to sales on and after this date (marketplace-local), until the next fromDate of the same asin and sku.',
      ),
      costItemValue: amount,
      costItemShippingValue: amount,
      itemSupplierName: z.string().trim().max(128).nullish(),
    })
    .strict(),
);

export const CogsUpsertRequest = named(
  'CogsUpsertRequest',
  z
    .object({
      sellerOrVendorId,
      cogsToUpsert: z.array(CogsRowRequest).min(1).max(1000),
    })
    .strict(),
);

const CogsRebuildResponse = named(
  'CogsRebuildResponse',
  z
    .object({
      from: z.string().describe('The earliest fromDate the change touched: dated tables are rebuilt from it on.'),
      windows: z.array(
        z.object({
          pipeline: z.string(),
          table: z.string(),
          from: z.string().nullable().describe('null: the table is rebuilt whole.'),
        }),
      ),
    })
    .describe('What the next runs of the pipelines rebuild (`mktdata plan` shows them).'),
);

export const CogsUpsertResponse = named(
  'CogsUpsertResponse',
  z.object({
    sellerOrVendorId: z.string(),
    upsertedCount: z.number().int(),
    changeId: z.string().describe("The usage record's resourceId."),
    rebuild: CogsRebuildResponse,
  }),
);

const cogsDeleteQuery = z
  .object({
    sellerOrVendorId,
    from: day.optional().describe('Rows whose fromDate is on or after it.'),
    to: day.optional().describe('Rows whose fromDate is on or before it.'),
    sku: z.string().max(200).optional(),
    asin: z.string().max(20).optional(),
  })
  .strict()
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: 'from is after to', path: ['from'] });

/** POST and DELETE /cogs: a seller connection's unit costs. */
export async function cogsRoutes(app: FastifyInstance, deps: AppDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const now = () => new Date(deps.now?.() ?? Date.now());

  api.post(
    '/cogs',
    {
      config: { auth: true },
      schema: {
        tags,
        security,
        body: CogsUpsertRequest,
        response: {
          200: CogsUpsertResponse,
          402: ApiNoTokensResponse,
          404: ApiNotFoundResponse,
          ...keyProtectedErrors,
        },
      },
    },
    async (request) => {
      const { sellerOrVendorId: id, cogsToUpsert } = request.body;
      const { changeId, upserted, from } = await upsertCogs(deps.wh, request.organizationId, id, cogsToUpsert, now());
      return { sellerOrVendorId: id, upsertedCount: upserted, changeId, rebuild: cogsRebuild(from) };
    },
  );

  api.delete(
    '/cogs',
    {
      config: { auth: true },
      schema: {
        tags,
        security,
        querystring: cogsDeleteQuery,
        response: { 204: noContent, 404: ApiNotFoundResponse, ...keyProtectedErrors },
      },
    },
    async (request, reply) => {
      await deleteCogs(deps.wh, request.organizationId, request.query, now());
      return reply.status(204).send(null);
    },
  );
}
