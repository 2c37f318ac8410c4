import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { catalogSources } from '../catalog/catalog.ts';
import { dataSchemeIndex, tablePage } from '../catalog/markdown.ts';
import type { McpContext } from './mcp-context.ts';

const markdown = 'text/markdown';

/**
 * The rules analysts most often get wrong (spec document 001, "Profit measure rules" and the tables' notes), each a
 * prompt that puts them before the question.
 */
export const analystRules = {
  profit_vs_sales: {
    title: 'Profit is not sales',
    rules: [
      'total_sales is shipped sales (item price plus shipping price less the shipping promotion discount, of shipped items only; it includes tax where the marketplace prices include it): it is neither ordered revenue nor profit.',
      'profit = total_sales - sales_tax - total_fees - cogs_total - ad_spend + refund_cost (rule 11); total_cost = sales_tax + total_fees + cogs_total + ad_spend - refund_cost.',
      'Sum profit, total_sales and total_cost over rows; never sum acos, tacos or roi: recompute them from the summed parts (acos = ad_spend / ad_sales * 100, tacos = ad_spend / total_sales * 100, roi = profit / total_cost * 100, null when the divisor is 0).',
      'cogs_present false means no unit cost was uploaded for the row: its cogs are 0 and its profit is overstated; say so when it matters.',
      'unshipped_sales is not part of total_sales.',
    ],
  },
  b2b_and_b2c: {
    title: 'B2B and B2C are parts, not additions',
    rules: [
      'Every *_b2b column is included in its total: total_sales = total_sales_b2b + total_sales_b2c; never add a b2b column to its total.',
      'sessions_b2c and page_views_b2c are the totals less the b2b parts (never below 0) per child ASIN (rule 12).',
      'avg_buybox_percentage_b2c is reconstructed from the totals and the b2b parts; average it weighted by page views, never with a plain avg over rows.',
      'order_is_business true means a B2B order; null counts as B2C.',
    ],
  },
  marketplace_timezones: {
    title: 'Dates are marketplace-local',
    rules: [
      'The `date` column of every daily table is the marketplace\'s local date (America/Los_Angeles for US, Europe/Berlin for DE, ...), not UTC: "yesterday" is the marketplace\'s yesterday.',
      'order_purchased_at_utc is the only UTC timestamp of the order items; compare it with UTC times only.',
      'Rows of several marketplaces are in their own currencies (the currency column): never add amounts of different currencies.',
      'Traffic (sessions, page views, buy box) may be delayed up to 3 days and revised for up to 30 days; the latest days are provisional.',
    ],
  },
  deprecated_tables: {
    title: 'Deprecated tables',
    rules: [
      'mkt_sales_and_traffic_with_cogs is deprecated, may be incomplete and will be removed: use mkt_profit_by_sku_and_date or mkt_profit_by_date for sales, traffic and profit, and mkt_order_items_with_cogs for order-level detail.',
      'Its total_sales is ordered product sales, not shipped sales, and its total_orders counts order items: its numbers do not match the profit tables.',
      'describe_table says `deprecated: true` for such a table; prefer the table it names instead.',
    ],
  },
} as const;

/**
 * The data scheme as Markdown resources (the index and one page per table, as /api/v1/spec/data-scheme serves them),
 * and one prompt per rule set of `analystRules`.
 */
export function registerResourcesAndPrompts(server: McpServer, ctx: McpContext): void {
  server.registerResource(
    'data-scheme',
    'mktdata://data-scheme.md',
    { title: 'Data scheme', description: 'Every catalog table by source type.', mimeType: markdown },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: markdown, text: dataSchemeIndex(catalogSources()) }] }),
  );
  const template = new ResourceTemplate('mktdata://data-scheme/{table}.md', {
    list: async () => ({
      resources: catalogSources().map((s) => ({
        uri: `mktdata://data-scheme/${s.tableName}.md`,
        name: s.tableName,
        title: s.name,
        mimeType: markdown,
      })),
    }),
  });
  server.registerResource(
    'table',
    template,
    { title: 'A catalog table', description: "One table's page: its columns, periods and issues.", mimeType: markdown },
    async (uri, { table }) => {
      const sources = catalogSources().filter((s) => s.tableName === table);
      if (sources.length === 0)
        throw new Error(`no catalog table ${String(table)}; mktdata://data-scheme.md lists them`);
      const freshness = (await ctx.freshness()).get(String(table));
      return { contents: [{ uri: uri.href, mimeType: markdown, text: tablePage(String(table), sources, freshness) }] };
    },
  );
  for (const [name, { title, rules }] of Object.entries(analystRules)) {
    server.registerPrompt(
      name,
      {
        title,
        description: `Rules to follow: ${title.toLowerCase()}.`,
        argsSchema: { question: z.string().max(4000).optional() },
      },
      ({ question }) => ({
        messages: [
          {
            role: 'user',
            content: {
              type: 'text',
              text: [`Follow these rules of the mktdata catalog (${title}):`, ...rules.map((r) => `- ${r}`)]
                .concat(question ? ['', question] : [])
                .join('\n'),
            },
          },
        ],
      }),
    );
  }
}
