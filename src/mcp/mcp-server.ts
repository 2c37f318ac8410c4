import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { mktdataVersion } from '../lib/version.ts';
import { registerAccountTools } from './account-tools.ts';
import { registerActionTools } from './action-tools.ts';
import { registerCatalogTools } from './catalog-tools.ts';
import { registerExportTools } from './export-tools.ts';
import { registerFileTools } from './file-tools.ts';
import type { McpContext } from './mcp-context.ts';
import { registerQueryTool } from './query-tool.ts';
import { registerResourcesAndPrompts } from './resources-and-prompts.ts';

/** What the server tells a client when it connects: where to start, and the rules that matter most. */
const instructions = [
  "mktdata: a seller's marketplace data warehouse, scoped to your organization's sellers and vendors.",
  'Start with list_sellers_and_vendors and search_tables; describe_table before you query a table.',
  'Dates are marketplace-local; b2b columns are parts of their totals; profit is not sales (see the prompts).',
  'Actions are dry runs unless you pass dryRun: false; ask the user before you do.',
].join('\n');

/** One MCP server for one organization's call (the HTTP transport builds one per request: it keeps no session). */
export function buildMcpServer(ctx: McpContext): McpServer {
  const server = new McpServer(
    { name: 'mktdata', title: 'mktdata', version: mktdataVersion },
    { instructions, capabilities: { tools: {}, resources: {}, prompts: {} } },
  );
  registerCatalogTools(server, ctx);
  registerAccountTools(server, ctx);
  registerQueryTool(server, ctx);
  registerExportTools(server, ctx);
  registerActionTools(server, ctx);
  registerFileTools(server, ctx);
  registerResourcesAndPrompts(server, ctx);
  return server;
}
