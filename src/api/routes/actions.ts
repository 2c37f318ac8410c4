import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { accessMode, accountKinds, actionStatuses, actionTypes } from '../../vocabulary/action-types.ts';
import { detailsSchema, getAction, listActions, requireBeta, startAction } from '../../actions/actions.ts';
import { requireTokens } from '../../control/tokens.ts';
import type { AppDeps } from '../app-deps.ts';
import type { ActionWorker } from '../../actions/action-worker.ts';
import { ApiNoTokensResponse, arrayQuery } from '../schemas/exports.ts';
import { apiError, ApiNotFoundResponse, errorIssue, keyProtectedErrors, named, pageParam } from '../schemas/common.ts';

const security = [{ serviceApiKey: [] }];
const tags = ['Actions'];

const actionStatus = z.enum(actionStatuses);
const creator = z.enum(['API', 'MCP', 'SYSTEM']);
const actionType = z.string().min(1).max(64).describe('An action type of spec 000, e.g. MKT_LISTINGS_FIND.');
/**
 * A type in the list's filter: spec 000 makes `types` an array of action types, so an unknown one is a 400, which
 * names it rather than list them all.
 */
const knownActionType = z.enum(actionTypes, {
  error: (issue) => `${String(issue.input)} is not an action type; GET /api/v1/actions/types lists them`,
});

export const ActionRequest = named(
  'ActionRequest',
  z
    .object({
      type: actionType,
      sellerOrVendorId: z.string().min(1).max(64),
      dryRun: z.boolean().default(false),
      details: z.record(z.string(), z.unknown()).describe('Per type; validated against the JSON schema of the type.'),
    })
    .strict(),
);

export const ActionStartResponse = named(
  'ActionStartResponse',
  z.object({
    actionId: z.string().nullable().describe('null for a dry run.'),
    status: actionStatus,
    validation: z.object({ valid: z.boolean(), issues: z.array(errorIssue) }).optional(),
  }),
);

export const ActionStatusResponse = named(
  'ActionStatusResponse',
  z.object({
    actionId: z.string(),
    type: actionType,
    sellerOrVendorId: z.string(),
    status: actionStatus,
    creator,
    result: z.unknown().nullable(),
    error: z.object({ status: z.number().int(), code: z.string(), message: z.string() }).nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  }),
);

export const ActionHistoryResponse = named(
  'ActionHistoryResponse',
  z.object({
    items: z.array(ActionStatusResponse),
    page: z.number().int(),
    pageSize: z.number().int(),
    totalCount: z.number().int(),
  }),
);

const ApiNotImplementedResponse = named('ApiNotImplementedResponse', apiError);
const ApiPreconditionFailedResponse = named(
  'ApiPreconditionFailedResponse',
  apiError.describe(
    'The action type is disabled for the organization, or the seller or vendor granted read access only.',
  ),
);
const accessModeSchema = z.enum(['READ', 'WRITE']);
const accountKind = z.enum(['SELLER', 'VENDOR', 'ADS']);
export const ActionTypesResponse = named(
  'ActionTypesResponse',
  z.object({
    items: z.array(z.object({ type: z.string(), accessMode: accessModeSchema, accounts: z.array(accountKind) })),
  }),
);
export const ActionTypeSchemaResponse = named(
  'ActionTypeSchemaResponse',
  z.object({
    type: z.string(),
    accessMode: accessModeSchema,
    accounts: z.array(accountKind),
    schema: z.record(z.string(), z.unknown()).describe("JSON Schema (draft 2020-12) of the type's details."),
  }),
);
export const ApiLiveActionLimitResponse = named(
  'ApiLiveActionLimitResponse',
  apiError.describe('Too many live actions: combine operations into one action request.'),
);

const actionsQuery = z
  .object({
    page: pageParam(999_999_999, 1),
    pageSize: pageParam(25, 20),
    statuses: arrayQuery(actionStatus).pipe(z.array(actionStatus).max(16)).optional(),
    types: arrayQuery(knownActionType).pipe(z.array(knownActionType).max(16)).optional(),
    creators: arrayQuery(creator).pipe(z.array(creator).max(8)).optional(),
    createdAtFrom: z.iso.datetime({ offset: true }).optional(),
    createdAtTo: z.iso.datetime({ offset: true }).optional(),
    updatedAtFrom: z.iso.datetime({ offset: true }).optional(),
    updatedAtTo: z.iso.datetime({ offset: true }).optional(),
  })
  .strict();

/**
 * The actions endpoints of spec 000: an organization without the private beta (`mktdata org beta --actions on`)
 * gets 501 before its input is validated, as the hosted service answers; the others start, list and read actions,
 * and read the types this server runs with the JSON Schema of their details.
 */
export async function actionRoutes(app: FastifyInstance, deps: AppDeps, worker: ActionWorker) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const now = () => new Date(deps.now?.() ?? Date.now());
  const options = {
    config: { auth: true },
    preValidation: async (request: FastifyRequest) => requireBeta(deps.wh, request.organizationId),
  };
  const errors = { 501: ApiNotImplementedResponse, ...keyProtectedErrors };
  api.post(
    '/actions',
    {
      ...options,
      schema: {
        tags,
        security,
        body: ActionRequest,
        response: {
          200: ActionStartResponse,
          202: ActionStartResponse,
          402: ApiNoTokensResponse,
          404: ApiNotFoundResponse,
          412: ApiPreconditionFailedResponse,
          ...errors,
          429: ApiLiveActionLimitResponse,
        },
      },
    },
    async (request, reply) => {
      const { status, body } = await startAction(deps.wh, request.organizationId, request.body, now());
      if (body.actionId && deps.runActions !== false)
        void worker.runPending().catch((error) => request.log.error({ err: error }, 'actions'));
      return reply.status(status).send(body);
    },
  );
  api.get(
    '/actions',
    {
      ...options,
      schema: {
        tags,
        security,
        querystring: actionsQuery,
        response: { 200: ActionHistoryResponse, 402: ApiNoTokensResponse, ...errors },
      },
    },
    async (request) => {
      await requireTokens(deps.wh, request.organizationId);
      return listActions(deps.wh, request.organizationId, request.query);
    },
  );
  api.get(
    '/actions/types',
    { ...options, schema: { tags, security, response: { 200: ActionTypesResponse, ...errors } } },
    async () => ({
      items: actionTypes.map((type) => ({ type, accessMode: accessMode(type), accounts: accountKinds(type) })),
    }),
  );
  api.get(
    '/actions/types/:type/schema',
    {
      ...options,
      schema: {
        tags,
        security,
        params: z.object({ type: z.string().max(64) }),
        response: { 200: ActionTypeSchemaResponse, ...errors },
      },
    },
    async (request) => {
      const schema = detailsSchema(request.params.type);
      return {
        type: request.params.type,
        accessMode: accessMode(request.params.type),
        accounts: accountKinds(request.params.type),
        schema: z.toJSONSchema(schema, { io: 'input' }),
      };
    },
  );
  api.get(
    '/actions/:actionId',
    {
      ...options,
      schema: {
        tags,
        security,
        params: z.object({ actionId: z.uuid() }),
        response: { 200: ActionStatusResponse, 402: ApiNoTokensResponse, 404: ApiNotFoundResponse, ...errors },
      },
    },
    async (request) => {
      await requireTokens(deps.wh, request.organizationId);
      return getAction(deps.wh, request.organizationId, request.params.actionId);
    },
  );
}
