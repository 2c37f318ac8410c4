import { randomUUID } from 'node:crypto';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { catalogSources } from '../catalog/catalog.ts';
import { charged, requireTokens } from '../control/tokens.ts';
import { exportCost } from '../exports/export-jobs.ts';
import { sourcesEnabled } from '../exports/export-source.ts';
import { ownConnectionIds } from '../control/connections.ts';
import { answer, nowOf, type McpContext } from './mcp-context.ts';
import { runScopedQuery } from './query/run-scoped-query.ts';

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

/**
 * The `query` tool: one read-only SELECT over the catalog tables the organization may export, holding only its own
 * connections' rows (src/mcp/query/). Charged after it ran, as an export through MCP; without the tokens the rows
 * are withheld and the answer is the API's 402.
 */
export function registerQueryTool(server: McpServer, ctx: McpContext): void {
  server.registerTool(
    'query',
    {
      title: 'Query the warehouse (read-only SQL)',
      description:
        "Runs one read-only DuckDB SELECT over the catalog tables (unqualified names, e.g. mkt_profit_by_sku_and_date; see search_tables and describe_table), holding only your organization's rows. Dates are marketplace-local. At most 1000 rows; costs tokens as an export (2, or 5 for a premium table).",
      inputSchema: {
        sql: z.string().min(1).max(20_000).describe('One SELECT (or WITH … SELECT) statement.'),
        maxRows: z.number().int().min(1).max(QUERY_ROW_CAP).default(QUERY_ROW_CAP),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ sql, maxRows }) =>
      answer(ctx, async () => {
        const { wh, home } = ctx.deps;
        await requireTokens(wh, ctx.organizationId, 2);
        const enabled = await sourcesEnabled(wh, ctx.organizationId);
        const scope = {
          sellerOrVendorIds: await ownConnectionIds(wh.db, ctx.organizationId),
          tables: catalogSources()
            .filter(enabled)
            .map((s) => s.tableName),
        };
        const result = await runScopedQuery(home, scope, sql, { rowCap: maxRows });
        // Its usage record names the query's id, which the answer carries.
        const queryId = randomUUID();
        const tokens = queryCost(result.tables);
        if (tokens > 0) {
          const usage = {
            usageType: 'EXPORTS',
            specificUsageType: 'EXPORTS_MCP_STANDARD',
            tokens,
            resourceId: queryId,
          } as const;
          await charged(wh, ctx.organizationId, usage, nowOf(ctx), async () => undefined);
        }
        return { queryId, ...result, tokens };
      }),
  );
}
