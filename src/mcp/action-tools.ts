import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { getAction, listActions, requireBeta, startAction } from '../actions/actions.ts';
import { requireTokens } from '../control/tokens.ts';
import { actionStatuses, actionTypes } from '../vocabulary/action-types.ts';
import { answer, nowOf, type McpContext } from './mcp-context.ts';

const readOnly = { readOnlyHint: true, openWorldHint: false } as const;

/** The input of `start_action` (built once: every request builds its server). */
const startActionInput = z.object({
  type: z.enum(actionTypes).describe('An action type of the spec, e.g. MKT_ADS_SP_CAMPAIGNS_UPDATE.'),
  sellerOrVendorId: z.string().min(1).max(64),
  dryRun: z.boolean().default(true).describe('true (the default): validate only. false: run it.'),
  details: z.record(z.string(), z.unknown()).describe("Per type; validated against the type's JSON Schema."),
});

/** The input of `get_action` (built once: every request builds its server). */
const getActionInput = z.object({ actionId: z.uuid() });

/** The input of `list_actions` (built once: every request builds its server). */
const listActionsInput = z.object({
  page: z.number().int().min(1).max(999_999_999).default(1),
  pageSize: z.number().int().min(1).max(25).default(20),
  statuses: z.array(z.enum(actionStatuses)).max(16).optional(),
  types: z.array(z.enum(actionTypes)).max(16).optional(),
  creators: z
    .array(z.enum(['API', 'MCP', 'SYSTEM']))
    .max(8)
    .optional(),
});

/**
 * The action tools: start one (a dry run unless the caller says `dryRun: false`), read one, list them; recorded with
 * creator MCP and held to the HTTP API's rules (501 without the beta, 400, 402, 404, 412, 429), since they share its
 * functions.
 */
export function registerActionTools(server: McpServer, ctx: McpContext): void {
  const { wh } = ctx.deps;
  server.registerTool(
    'start_action',
    {
      title: 'Start an action',
      description:
        "Validates an action and, only with dryRun false, queues it to change the seller's account (pause a campaign, change a price...). A dry run is recorded VALIDATED and changes nothing. The details' JSON Schema per type: GET /api/v1/actions/types/{type}/schema.",
      inputSchema: startActionInput,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    },
    (request) =>
      answer(ctx, async () => {
        await requireBeta(wh, ctx.organizationId);
        const { body } = await startAction(wh, ctx.organizationId, request, nowOf(ctx), 'MCP');
        if (!request.dryRun && ctx.deps.runActions !== false)
          void ctx.services.actions.runPending().catch(ctx.logError);
        return body;
      }),
  );
  server.registerTool(
    'get_action',
    {
      title: 'Get an action',
      description: "An action's status, result and error.",
      inputSchema: getActionInput,
      annotations: readOnly,
    },
    ({ actionId }) =>
      answer(ctx, async () => {
        await requireBeta(wh, ctx.organizationId);
        await requireTokens(wh, ctx.organizationId);
        return getAction(wh, ctx.organizationId, actionId);
      }),
  );
  server.registerTool(
    'list_actions',
    {
      title: 'List actions',
      description: "The organization's actions, newest first, filtered by status, type or creator (API, MCP, SYSTEM).",
      inputSchema: listActionsInput,
      annotations: readOnly,
    },
    (filters) =>
      answer(ctx, async () => {
        await requireBeta(wh, ctx.organizationId);
        await requireTokens(wh, ctx.organizationId);
        return listActions(wh, ctx.organizationId, filters);
      }),
  );
}
