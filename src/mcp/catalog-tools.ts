import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { serviceApiMarkdown } from '../api/service-api-md.ts';
import { catalogSources, searchText, tableModel, type CatalogSource } from '../catalog/catalog.ts';
import { MktdataError } from '../errors.ts';
import { connectionFreshness } from '../pipelines/freshness.ts';
import { answer, organizationConnectionIds, type McpContext } from './mcp-context.ts';

const readOnly = { readOnlyHint: true, openWorldHint: false } as const;
const firstSentence = (text: string) => text.trim().split(/(?<=\.)\s/)[0]!;

/** A table's entry in a search: enough to choose it, with what `describe_table` tells in full. */
const summary = (s: CatalogSource, matched: number) => ({
  tableName: s.tableName,
  name: s.name,
  sourceId: s.id,
  type: s.type,
  summary: firstSentence(s.description),
  requiresDatePeriod: s.requiresDatePeriod,
  searchAliases: s.searchAliases ?? [],
  deprecated: isDeprecated(s),
  matchedWords: matched,
});

/** A table the catalog marks as kept for old clients (its description or an issue says deprecated). */
export const isDeprecated = (s: CatalogSource) =>
  /deprecated/i.test(s.description) || s.issues.some((i) => /deprecated/i.test(`${i.title} ${i.description}`));

/**
 * The catalog tables matching the most of `words` (each word anywhere in a table's name, aliases, descriptions or
 * column names), best first; all tables for no words.
 */
export function searchTables(words: string, sourceType?: CatalogSource['type']) {
  const wanted = words.toLowerCase().split(/\s+/).filter(Boolean);
  return catalogSources()
    .filter((s) => !sourceType || s.type === sourceType)
    .map((s) => {
      const text = searchText(s);
      const names = [s.name, s.tableName, ...(s.searchAliases ?? [])].join('\n').toLowerCase();
      const matched = wanted.filter((w) => text.includes(w)).length;
      // A word in the table's names or aliases counts twice: "sku profit" prefers the SKU table.
      return { s, matched, score: matched + wanted.filter((w) => names.includes(w)).length };
    })
    .filter(({ matched }) => wanted.length === 0 || matched > 0)
    .sort((a, b) => b.score - a.score || a.s.tableName.localeCompare(b.s.tableName))
    .map(({ s, matched }) => summary(s, matched));
}

/** Everything an agent needs to query a table right: its columns with meaning, grain, periods, freshness and rules. */
export async function describeTable(ctx: McpContext, tableName: string) {
  const sources = catalogSources().filter((s) => s.tableName === tableName);
  const model = tableModel(tableName);
  if (sources.length === 0 || !model) throw new MktdataError('ERR_SOURCE_NOT_FOUND', { source: tableName });
  const s = sources[0]!;
  const mentions = (column: string) => model.rules.filter((r) => new RegExp(`\\b${column}\\b`).test(r));
  return {
    tableName,
    name: s.name,
    sourceId: s.id,
    type: s.type,
    description: s.description,
    grain: model.grain,
    requiresDatePeriod: s.requiresDatePeriod,
    isPremium: s.isPremium,
    rowCountBilling: s.rowCountBilling,
    deprecated: isDeprecated(s),
    fetchPeriods: s.fetchPeriods,
    dataAvailability: s.dataAvailability ?? null,
    freshness: (await ctx.freshness()).get(tableName) ?? null,
    freshnessByConnection: await connectionFreshness(ctx.deps.wh, tableName, await organizationConnectionIds(ctx)),
    issues: s.issues,
    searchAliases: s.searchAliases ?? [],
    relatedActions: s.relatedActions ?? [],
    rules: model.rules,
    columns: s.columns.map((c) => ({
      name: c.name,
      type: c.type,
      nullable: c.nullable,
      description: c.description,
      rules: mentions(c.name),
    })),
  };
}

/** The input of `search_tables` (built once: every request builds its server). */
const searchTablesInput = z.object({
  words: z.string().max(256).describe('Words to look for, e.g. "profit sku".'),
  sourceType: z.enum(['SELLER_CENTRAL', 'VENDOR_CENTRAL', 'MKT_ADS']).optional(),
});

/** The input of `describe_table` (built once: every request builds its server). */
const describeTableInput = z.object({ tableName: z.string().max(128).describe('e.g. mkt_profit_by_sku_and_date') });

/** The catalog tools: search the tables, describe one, and read the agent instructions the service serves at /api/v1/spec/service_api.md. */
export function registerCatalogTools(server: McpServer, ctx: McpContext): void {
  server.registerTool(
    'search_tables',
    {
      title: 'Search the catalog tables',
      description:
        'Finds catalog tables by words (names, aliases such as "P&L" or "ACoS", descriptions, column names), best match first. Use it before `query` to find the table that holds a measure.',
      inputSchema: searchTablesInput,
      annotations: readOnly,
    },
    ({ words, sourceType }) => answer(ctx, async () => ({ tables: searchTables(words, sourceType) })),
  );
  server.registerTool(
    'describe_table',
    {
      title: 'Describe a catalog table',
      description:
        "A table's columns with types and meaning, its grain (one row per ...), fetch periods, freshness, known issues and the spec rules its columns follow.",
      inputSchema: describeTableInput,
      annotations: readOnly,
    },
    ({ tableName }) => answer(ctx, () => describeTable(ctx, tableName)),
  );
  server.registerTool(
    'get_agent_instructions',
    {
      title: 'How to use this service',
      description: 'The agent instructions of /api/v1/spec/service_api.md: the workflow, limits and rules to follow.',
      annotations: readOnly,
    },
    () =>
      answer(ctx, async () => ({
        markdown: serviceApiMarkdown({ requestsPerSecond: ctx.deps.requestsPerSecond ?? 2 }),
      })),
  );
}
