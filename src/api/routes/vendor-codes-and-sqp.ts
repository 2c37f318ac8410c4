import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { changeSqpList, SQP_MAX_ASINS, sqpList } from '../../control/sqp-asins.ts';
import { deleteVendorCodes, upsertVendorCodes } from '../../control/vendor-codes.ts';
import { errorRegistry, MktdataError } from '../../errors.ts';
import type { AppDeps } from '../app-deps.ts';
import { ApiNoTokensResponse } from '../schemas/exports.ts';
import { apiError, ApiNotFoundResponse, keyProtectedErrors, named, noContent } from '../schemas/common.ts';

const security = [{ serviceApiKey: [] }];
const tags = ['Unit costs and usage'];
const sellerOrVendorId = z.string().min(1).max(64);
const item = z.string().trim().min(1).max(200);

export const VendorCodeUpsertRequest = named(
  'VendorCodeUpsertRequest',
  z
    .object({
      sellerOrVendorId,
      vendorCodesToUpsert: z
        .array(
          z
            .object({ asin: item.optional(), sku: item.optional(), vendorCode: z.string().trim().min(1).max(64) })
            .strict()
            .refine((r) => (r.asin === undefined) !== (r.sku === undefined), {
              message: 'give exactly one of asin and sku',
              path: ['asin'],
            }),
        )
        .min(1)
        .max(1000),
    })
    .strict(),
);

export const VendorCodeUpsertResponse = named(
  'VendorCodeUpsertResponse',
  z.object({ sellerOrVendorId: z.string(), upsertedCount: z.number().int(), changeId: z.string() }),
);

const vendorCodesDeleteQuery = z
  .object({ sellerOrVendorId, sku: z.string().max(200).optional(), asin: z.string().max(200).optional() })
  .strict();

export const SqpAsinsMutateRequest = named(
  'SqpAsinsMutateRequest',
  z
    .object({
      sellerOrVendorId,
      asins: z
        .array(z.string().max(64))
        .min(1)
        .max(SQP_MAX_ASINS)
        .describe('Each trimmed, 10 letters or digits (stored upper-case).'),
    })
    .strict(),
);

/**
 * The ASINs trimmed and upper-cased; any other than 10 letters or digits is the 400 the clients expect, worded as they
 * expect it.
 */
function checkedAsins(asins: string[]): string[] {
  const trimmed = asins.map((a) => a.trim());
  const bad = trimmed.flatMap((a, i) => (/^[A-Za-z0-9]{10}$/.test(a) ? [] : [i]));
  if (bad.length > 0) {
    const message = errorRegistry.ERR_SQP_ASIN_INVALID.message;
    throw new MktdataError(
      'ERR_SQP_ASIN_INVALID',
      {},
      { body: { issues: bad.map((i) => ({ path: ['body', 'asins', i], code: 'invalid_format', message })) } },
    );
  }
  return trimmed.map((a) => a.toUpperCase());
}

const sqpFields = {
  sellerOrVendorId: z.string(),
  asins: z.array(z.string()).describe('The list, sorted: what SQP reports are requested for (empty: none).'),
  maxAsins: z.number().int(),
  editableAt: z
    .string()
    .nullable()
    .describe('Until when the list is locked by its last change (72 hours); null when it can be changed.'),
};
export const SqpAsinsResponse = named('SqpAsinsResponse', z.object(sqpFields));
export const SqpAsinsAddResponse = named(
  'SqpAsinsAddResponse',
  z.object({ ...sqpFields, added: z.array(z.string()), alreadyPresent: z.array(z.string()) }),
);
export const SqpAsinsRemoveResponse = named(
  'SqpAsinsRemoveResponse',
  z.object({
    ...sqpFields,
    removed: z.array(z.string()),
    notPresent: z.array(z.string()).describe('Asked to be removed but not on the list.'),
  }),
);
export const SqpAsinsLockedResponse = named('SqpAsinsLockedResponse', apiError.extend({ editableAt: z.string() }));

/** POST/DELETE /vendor-codes and GET/POST/DELETE /sqp-asins. */
export async function vendorCodeAndSqpRoutes(app: FastifyInstance, deps: AppDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const now = () => new Date(deps.now?.() ?? Date.now());

  api.post(
    '/vendor-codes',
    {
      config: { auth: true },
      schema: {
        tags,
        security,
        body: VendorCodeUpsertRequest,
        response: {
          200: VendorCodeUpsertResponse,
          402: ApiNoTokensResponse,
          404: ApiNotFoundResponse,
          ...keyProtectedErrors,
        },
      },
    },
    async (request) => {
      const { sellerOrVendorId: id, vendorCodesToUpsert } = request.body;
      const rows = vendorCodesToUpsert.map((r) =>
        r.asin !== undefined ? { asin: r.asin, vendorCode: r.vendorCode } : { sku: r.sku!, vendorCode: r.vendorCode },
      );
      const { changeId, upserted } = await upsertVendorCodes(deps.wh, request.organizationId, id, rows, now());
      return { sellerOrVendorId: id, upsertedCount: upserted, changeId };
    },
  );

  api.delete(
    '/vendor-codes',
    {
      config: { auth: true },
      schema: {
        tags,
        security,
        querystring: vendorCodesDeleteQuery,
        response: { 204: noContent, 404: ApiNotFoundResponse, ...keyProtectedErrors },
      },
    },
    async (request, reply) => {
      await deleteVendorCodes(deps.wh, request.organizationId, request.query);
      return reply.status(204).send(null);
    },
  );

  api.get(
    '/sqp-asins',
    {
      config: { auth: true },
      schema: {
        tags,
        security,
        querystring: z.object({ sellerOrVendorId }).strict(),
        response: { 200: SqpAsinsResponse, 404: ApiNotFoundResponse, ...keyProtectedErrors },
      },
    },
    async (request) => sqpList(deps.wh, request.organizationId, request.query.sellerOrVendorId, now()),
  );

  const locked = { 409: SqpAsinsLockedResponse, 404: ApiNotFoundResponse, ...keyProtectedErrors };
  api.post(
    '/sqp-asins',
    {
      config: { auth: true },
      schema: { tags, security, body: SqpAsinsMutateRequest, response: { 200: SqpAsinsAddResponse, ...locked } },
    },
    async (request) => {
      const { changed, unchanged, ...list } = await changeSqpList(
        deps.wh,
        request.organizationId,
        request.body.sellerOrVendorId,
        'add',
        checkedAsins(request.body.asins),
        now(),
      );
      return { ...list, added: changed, alreadyPresent: unchanged };
    },
  );

  api.delete(
    '/sqp-asins',
    {
      config: { auth: true },
      schema: { tags, security, body: SqpAsinsMutateRequest, response: { 200: SqpAsinsRemoveResponse, ...locked } },
    },
    async (request) => {
      const { changed, unchanged, ...list } = await changeSqpList(
        deps.wh,
        request.organizationId,
        request.body.sellerOrVendorId,
        'remove',
        checkedAsins(request.body.asins),
        now(),
      );
      return { ...list, removed: changed, notPresent: unchanged };
    },
  );
}
