import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { sellersAndVendors } from '../api/routes/util.ts';
import { usageLogs } from '../api/routes/usage.ts';
import { tokenBalance } from '../control/tokens.ts';
import { answer, type McpContext } from './mcp-context.ts';

const readOnly = { readOnlyHint: true, openWorldHint: false } as const;
const page = z.number().int().min(1).max(999_999_999).default(1);

/** The input of `list_sellers_and_vendors` (built once: every request builds its server). */
const listSellersAndVendorsInput = z.object({
  query: z.string().max(256).optional().describe('Part of a name or id.'),
  marketplaceCountryCode: z.string().length(2).optional().describe('e.g. US, DE, UK'),
  page,
  pageSize: z.number().int().min(1).max(100).default(100),
});

/** The input of `get_usage` (built once: every request builds its server). */
const getUsageInput = z.object({
  usedAtFrom: z.iso.datetime({ offset: true }).optional().describe('Inclusive.'),
  usedAtTo: z.iso.datetime({ offset: true }).optional().describe('Inclusive.'),
  page,
  pageSize: z.number().int().min(1).max(100).default(25),
});

/** The organization's accounts and its token usage, as GET /util/sellers-and-vendors and GET /usage-logs answer. */
export function registerAccountTools(server: McpServer, ctx: McpContext): void {
  server.registerTool(
    'list_sellers_and_vendors',
    {
      title: 'List the sellers and vendors',
      description:
        "The organization's connected seller and vendor accounts: their sellerOrVendorId (what `query`, exports and actions take), marketplace, access level and initial load stage.",
      inputSchema: listSellersAndVendorsInput,
      annotations: readOnly,
    },
    (input) => answer(ctx, () => sellersAndVendors(ctx.deps, ctx.organizationId, input)),
  );
  server.registerTool(
    'get_usage',
    {
      title: 'Tokens and recent usage',
      description:
        "The organization's token balance (null: unmetered) and its usage records, newest first: what each export, query and action cost.",
      inputSchema: getUsageInput,
      annotations: readOnly,
    },
    (input) =>
      answer(ctx, async () => ({
        tokenBalance: await tokenBalance(ctx.deps.wh, ctx.organizationId),
        usage: await usageLogs(ctx.deps, ctx.organizationId, input),
      })),
  );
}
