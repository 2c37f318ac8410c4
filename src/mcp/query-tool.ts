import { randomUUID } from 'node:crypto';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { catalogSources } from '../catalog/catalog.ts';
import { charged, refund } from '../control/tokens.ts';
import { exportCost } from '../exports/export-jobs.ts';
import { sourcesEnabled } from '../exports/export-source.ts';
import { answer, nowOf, organizationConnectionIds, type McpContext } from './mcp-context.ts';
import { checkScopedQuery } from './query/run-scoped-query.ts';

/** Rows a query answers at most (more: `truncated`), unless the call asks for fewer. */
export const QUERY_ROW_CAP = 1000;

/**
 * What a query costs: as an export of the most expensive table it read (2 tokens, 5 for a premium table) when one
 * of them has `rowCountBilling`; nothing when it read no catalog table.
 */
function queryCost(tables: string[]): number {
  const read = catalogSources().filter((s) => tables.includes(s.tableName) && s.rowCountBilling);
  return read.length === 0 ? 0 : Math.max(...read.map((s) => exportCost(s.isPremium)));
}

/** The input of `query` (built once: every request builds its server). */
const queryInput = z.object({
  sql: z.string().min(1).max(20_000).describe('One SELECT (or WITH … SELECT) statement.'),
  maxRows: z.number().int().min(1).max(QUERY_ROW_CAP).default(QUERY_ROW_CAP),
});

/**
 * The `query` tool: one read-only SELECT over the catalog tables the organization may export, holding only its own
 * connections' rows (src/mcp/query/). Charged as an export through MCP as it starts; without the tokens the rows
 * are withheld and the answer is the API's 402; a query that fails is refunded.
 */
export function registerQueryTool(server: McpServer, ctx: McpContext): void {
  server.registerTool(
    'query',
    {
      title: 'Query the warehouse (read-only SQL)',
      description:
        "Runs one read-only DuckDB SELECT over the catalog tables (unqualified names, e.g. mkt_profit_by_sku_and_date; see search_tables and describe_table), holding only your organization's rows. Dates are marketplace-local. At most 1000 rows; costs tokens as an export (2, or 5 for a premium table).",
      inputSchema: queryInput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ sql, maxRows }) =>
      answer(ctx, async () => {
        const { wh, home } = ctx.deps;
        const enabled = await sourcesEnabled(wh, ctx.organizationId);
        const scope = {
          sellerOrVendorIds: await organizationConnectionIds(ctx),
          tables: catalogSources()
            .filter(enabled)
            .map((s) => s.tableName),
        };
        const query = await checkScopedQuery(home, scope, sql);
        // Charged as it starts, in parallel (the charge is a control-plane write): rows only once it is paid, and
        // the tokens back if it fails.
        const queryId = randomUUID();
        const tokens = queryCost(query.tables);
        const usage = {
          usageType: 'EXPORTS',
          specificUsageType: 'EXPORTS_MCP_STANDARD',
          tokens,
          resourceId: queryId,
        } as const;
        const paying =
          tokens > 0 ? charged(wh, ctx.organizationId, usage, nowOf(ctx), async () => true) : Promise.resolve(false);
        const [ran, paid] = await Promise.allSettled([query.run({ rowCap: maxRows }), paying]);
        if (paid.status === 'rejected') throw paid.reason;
        if (ran.status === 'rejected') {
          if (paid.value) await refund(wh, ctx.organizationId, usage);
          throw ran.reason;
        }
        const result = ran.value;
        return { queryId, ...result, tokens };
      }),
  );
}
