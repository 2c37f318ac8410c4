import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { ControlStore } from '../db/control-store.ts';
import { MktdataError } from '../errors.ts';
import { requireTokens } from '../control/tokens.ts';
import {
  accountKinds,
  actionTypes,
  type AccountKind,
  type ActionStatus,
  type ActionType,
} from '../vocabulary/action-types.ts';
import { actionDefinitions } from './definitions/index.ts';
import { accessLevelOf, actionTypeEnabled, hasActionsBeta } from './settings.ts';
import { ownConnection } from '../control/connections/connections.ts';
import { credentialApis } from '../connectors/credentials.ts';
import {
  actionOf,
  actionsInStatus,
  insertAction,
  listActionRows,
  type ActionFilters,
  type ActionRow,
} from './action-queue.ts';

/** Actions counted as live: too many of them answer 429 (spec document 000, "Action status"). */
export const liveStatuses: ActionStatus[] = ['PENDING', 'IN_PROGRESS', 'WAITING_EXTERNAL_PROCESSING'];
/** Live actions an organization may have at once. */
export const LIVE_ACTION_LIMIT = 5;
/** What a live action costs (docs/design/API.md), debited when the worker starts it: an action whose organization has
 * spent its tokens by then ends BLOCKED_NO_TOKENS, as an export does. */
export const ACTION_TOKENS = 1;

export interface ActionRequest {
  type: string;
  sellerOrVendorId: string;
  dryRun: boolean;
  details: Record<string, unknown>;
}

export interface Issue {
  path: (string | number)[];
  code: string;
  message: string;
}

/** A validation issue of `details`, by field: a field the schema does not allow is one issue naming it. */
function issueOf(i: z.core.$ZodIssue): Issue[] {
  const path = ['details', ...(i.path as (string | number)[])];
  if (i.code === 'unrecognized_keys')
    return i.keys.map((key) => ({
      path: [...path, key],
      code: i.code,
      message: `${key} is not a field of this type's details`,
    }));
  // a refinement may name its code (a relation between values: `relation`)
  const code = i.code === 'custom' ? ((i.params as { code?: string } | undefined)?.code ?? i.code) : i.code;
  return [{ path, code, message: i.message }];
}

/** ERR_ACTIONS_NOT_ENABLED (501) unless the organization has the private beta (`mktdata org beta`). */
export async function requireBeta(wh: ControlStore, organizationId: string): Promise<void> {
  if (!(await hasActionsBeta(wh.db, organizationId))) throw new MktdataError('ERR_ACTIONS_NOT_ENABLED');
}

/** The details schema of a type of the spec, or ERR_ACTION_TYPE_UNSUPPORTED. */
export function detailsSchema(type: string): z.ZodType {
  if (!actionTypes.includes(type as ActionType))
    throw new MktdataError('ERR_ACTION_TYPE_UNSUPPORTED', { type, reason: 'it is not an action type of the spec' });
  return actionDefinitions[type as ActionType]!.schema;
}

/**
 * The access rule (spec document 000, "Action"): the type enabled for the organization, the connection granted Read and
 * write; 412 otherwise. Checked when an action starts and again when the worker runs it.
 */
export async function requireAllowed(
  wh: ControlStore,
  organizationId: string,
  type: string,
  connectionId: string,
): Promise<void> {
  if (!(await actionTypeEnabled(wh.db, organizationId, type)))
    throw new MktdataError('ERR_ACTION_TYPE_DISABLED', { type, org: organizationId });
  if ((await accessLevelOf(wh.db, connectionId)) !== 'READ_AND_WRITE')
    throw new MktdataError('ERR_ACTION_ACCESS_LEVEL', { id: connectionId });
}

/** What a connection's account may run: its own kind, and ADS once it has Ads API credentials (or is ads-only). */
async function kindsOf(wh: ControlStore, connection: { id: string; type: string }): Promise<AccountKind[]> {
  if (connection.type === 'MKT_ADS') return ['ADS'];
  const ads = (await credentialApis(wh.db, connection.id)).includes('ads');
  return [connection.type === 'VENDOR_CENTRAL' ? 'VENDOR' : 'SELLER', ...(ads ? (['ADS'] as const) : [])];
}

/** Who started an action (spec document 000, "Action": SYSTEM actions are the server's own). */
export type ActionCreator = 'API' | 'MCP';

/**
 * Starts an action (POST /actions, or the MCP tool `start_action`): the type's details validated; a dry run answers
 * VALIDATED with the validation and queues nothing; a live one must be enabled for the organization on a connection
 * with write access (412), under the live-action limit (429), with a token to pay for it (402), and is queued
 * PENDING for the action worker. An MCP dry run is also recorded, VALIDATED (never run), so that what an agent
 * proposed is listed by GET /actions?creators=MCP; an API dry run answers `actionId: null` as the spec's clients
 * expect.
 */
export async function startAction(
  wh: ControlStore,
  organizationId: string,
  request: ActionRequest,
  at = new Date(),
  creator: ActionCreator = 'API',
) {
  const connection = await ownConnection(wh.db, organizationId, request.sellerOrVendorId);
  if (!connection) throw new MktdataError('ERR_CONNECTION_NOT_FOUND', { id: request.sellerOrVendorId });
  const schema = detailsSchema(request.type);
  const kinds = await kindsOf(wh, connection);
  if (!accountKinds(request.type).some((k) => kinds.includes(k))) {
    throw new MktdataError('ERR_ACTION_ACCOUNT', {
      type: request.type,
      needed: accountKinds(request.type).join(' or '),
      id: connection.id,
      kinds: kinds.join(' and '),
    });
  }
  const parsed = schema.safeParse(request.details);
  const issues: Issue[] = parsed.success ? [] : parsed.error.issues.flatMap(issueOf);
  const row = (status: ActionStatus, details: unknown, result: unknown): ActionRow => ({
    id: randomUUID(),
    organization_id: organizationId,
    connection_id: connection.id,
    type: request.type,
    creator,
    status,
    details: JSON.stringify(details),
    result: result === null ? null : JSON.stringify(result),
    error_status: null,
    error_code: null,
    error_message: null,
    external_id: null,
    next_check_at: null,
    created_at: at.toISOString(),
    updated_at: at.toISOString(),
  });
  if (request.dryRun) {
    const validation = { valid: issues.length === 0, issues };
    let actionId: string | null = null;
    if (creator === 'MCP') {
      const validated = row('VALIDATED', request.details, { validation });
      await insertAction(wh.db, validated);
      actionId = validated.id;
    }
    return { status: 200, body: { actionId, status: 'VALIDATED' as const, validation } };
  }
  if (issues.length > 0) {
    throw new MktdataError(
      'ERR_REQUEST_INVALID',
      { summary: issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') },
      { body: { issues: issues.map((i) => ({ ...i, path: ['body', ...i.path] })) } },
    );
  }
  await requireAllowed(wh, organizationId, request.type, connection.id);
  await requireTokens(wh, organizationId, ACTION_TOKENS);
  const pending = row('PENDING', parsed.data, null);
  await wh.db.transaction().execute(async (trx) => {
    if ((await actionsInStatus(trx, organizationId, liveStatuses)) >= LIVE_ACTION_LIMIT)
      throw new MktdataError('ERR_LIVE_ACTION_LIMIT', { limit: LIVE_ACTION_LIMIT });
    await insertAction(trx, pending);
  });
  return { status: 202, body: { actionId: pending.id, status: 'PENDING' as const } };
}

/** An action as GET /actions/{id} answers it. */
export const actionStatus = (r: ActionRow) => ({
  actionId: r.id,
  type: r.type,
  sellerOrVendorId: r.connection_id,
  status: r.status,
  creator: r.creator,
  result: r.result === null ? null : (JSON.parse(r.result) as unknown),
  error:
    r.error_code === null
      ? null
      : { status: r.error_status ?? 500, code: r.error_code, message: r.error_message ?? '' },
  createdAt: new Date(r.created_at).toISOString(),
  updatedAt: new Date(r.updated_at).toISOString(),
});

export async function getAction(wh: ControlStore, organizationId: string, id: string) {
  const row = await actionOf(wh.db, organizationId, id);
  if (!row) throw new MktdataError('ERR_ACTION_NOT_FOUND', { id });
  return actionStatus(row);
}

/** GET /actions: the organization's actions, newest first, with the spec's filters (bounds inclusive). */
export async function listActions(wh: ControlStore, organizationId: string, f: ActionFilters) {
  const { rows, total } = await listActionRows(wh.db, organizationId, f);
  return { items: rows.map(actionStatus), page: f.page, pageSize: f.pageSize, totalCount: total };
}
