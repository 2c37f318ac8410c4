import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MktdataError } from '../../errors.ts';
import { arrayQuery } from '../schemas/exports.ts';
import { apiError, errorIssue, keyProtectedErrors, named, pageParam } from '../schemas/common.ts';

const security = [{ serviceApiKey: [] }];
const tags = ['Actions'];

const actionStatus = z.enum(['PENDING', 'IN_PROGRESS', 'WAITING_EXTERNAL_PROCESSING', 'COMPLETED', 'PARTIALLY_COMPLETED', 'COMPLETED_WITH_ISSUES', 'ERROR', 'BLOCKED_NO_TOKENS', 'BLOCKED_INVALID_INPUT', 'VALIDATED', 'CANCELED']);
const creator = z.enum(['API', 'MCP', 'SYSTEM']);
const actionType = z.string().min(1).max(64).describe('An action type of spec 000, e.g. MKT_LISTINGS_FIND.');

export const ActionRequest = named('ActionRequest', z.object({
  type: actionType,
  sellerOrVendorId: z.string().min(1).max(64),
  dryRun: z.boolean().default(false),
  details: z.record(z.string(), z.unknown()).describe('Per type; validated against the JSON schema of the type.'),
}).strict());

export const ActionStartResponse = named('ActionStartResponse', z.object({
  actionId: z.string().nullable().describe('null for a dry run.'),
  status: actionStatus,
  validation: z.object({ valid: z.boolean(), issues: z.array(errorIssue) }).optional(),
}));

export const ActionStatusResponse = named('ActionStatusResponse', z.object({
  actionId: z.string(),
  type: actionType,
  sellerOrVendorId: z.string(),
  status: actionStatus,
  creator,
  result: z.unknown().nullable(),
  error: z.object({ status: z.number().int(), code: z.string(), message: z.string() }).nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
}));

export const ActionHistoryResponse = named('ActionHistoryResponse', z.object({
  items: z.array(ActionStatusResponse),
  page: z.number().int(),
  pageSize: z.number().int(),
  totalCount: z.number().int(),
}));

const ApiNotImplementedResponse = named('ApiNotImplementedResponse', apiError);
export const ApiLiveActionLimitResponse = named('ApiLiveActionLimitResponse', apiError.describe('Too many live actions: combine operations into one action request.'));

const actionsQuery = z.object({
  page: pageParam(999_999_999, 1),
  pageSize: pageParam(25, 20),
  statuses: arrayQuery(actionStatus).pipe(z.array(actionStatus).max(16)).optional(),
  types: arrayQuery(actionType).pipe(z.array(actionType).max(16)).optional(),
  creators: arrayQuery(creator).pipe(z.array(creator).max(8)).optional(),
  createdAtFrom: z.iso.datetime({ offset: true }).optional(),
  createdAtTo: z.iso.datetime({ offset: true }).optional(),
  updatedAtFrom: z.iso.datetime({ offset: true }).optional(),
  updatedAtTo: z.iso.datetime({ offset: true }).optional(),
}).strict();

/**
 * The actions endpoints of spec 000: a private beta that no organization of this server has joined, so each answers
 * 501 to a caller with a valid key, before its input is validated (as the hosted service answers those without
 * access). Their schemas are those a joined organization would use, named in the OpenAPI document.
 */
export async function actionRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const refuse = async (): Promise<never> => {
    throw new MktdataError('ERR_ACTIONS_NOT_ENABLED');
  };
  const options = { config: { auth: true }, preValidation: refuse };
  const errors = { 501: ApiNotImplementedResponse, ...keyProtectedErrors };
  api.post('/actions', { ...options, schema: { tags, security, body: ActionRequest, response: { 200: ActionStartResponse, 202: ActionStartResponse, ...errors, 429: ApiLiveActionLimitResponse } } }, refuse);
  api.get('/actions', { ...options, schema: { tags, security, querystring: actionsQuery, response: { 200: ActionHistoryResponse, ...errors } } }, refuse);
  api.get('/actions/:actionId', { ...options, schema: { tags, security, params: z.object({ actionId: z.uuid() }), response: { 200: ActionStatusResponse, ...errors } } }, refuse);
}
