import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { downloadUrl, exportFileAvailable, exportResponse } from '../api/routes/export-replies.ts';
import { ExportRequest } from '../api/schemas/exports.ts';
import { requireTokens } from '../control/tokens.ts';
import { createExport, requireExport } from '../exports/export-jobs.ts';
import { answer, nowOf, parseArguments, type McpContext } from './mcp-context.ts';

/** The input of `get_export` (built once: every request builds its server). */
/** The input of `create_export`: the ExportRequest's fields (its refinements are checked by the handler). */
const createExportInput = z.object(ExportRequest.shape);

const getExportInput = z.object({ exportId: z.string().min(1).max(64) });

/**
 * The export tools: create an export (the HTTP API's ExportRequest, recorded with creator MCP and usage
 * EXPORTS_MCP_STANDARD) and read one, with its signed download link once it is completed.
 */
export function registerExportTools(server: McpServer, ctx: McpContext): void {
  server.registerTool(
    'create_export',
    {
      title: 'Create an export',
      description:
        'Starts an export of a catalog table (the ExportRequest of POST /api/v1/exports: sellerOrVendorIds, sourceId or tableName, from/to, columns, filters, groupBy, aggregations, outputType). Costs 2 tokens (5 for a premium table). Poll it with `get_export`.',
      inputSchema: createExportInput,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    (input) =>
      answer(ctx, async () => {
        const request = parseArguments(ExportRequest, input);
        const row = await createExport(ctx.deps.wh, ctx.organizationId, request, { kind: 'MCP' }, nowOf(ctx));
        if (row.status === 'PENDING') ctx.services.worker.enqueue(row.id);
        return exportResponse(row);
      }),
  );
  server.registerTool(
    'get_export',
    {
      title: 'Get an export',
      description:
        "An export's state; once COMPLETED, `downloadUrl` is a signed link to its file (valid for minutes, no key needed).",
      inputSchema: getExportInput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ exportId }) =>
      answer(ctx, async () => {
        const row = await requireExport(ctx.deps.wh, ctx.organizationId, exportId);
        // As GET /exports/{id}: reading an export answers 402 while the organization has no tokens left.
        await requireTokens(ctx.deps.wh, ctx.organizationId);
        const available = row.status === 'COMPLETED' && exportFileAvailable(ctx.deps.home, row, nowOf(ctx));
        return {
          ...exportResponse(row),
          downloadUrl: available ? downloadUrl(ctx.origin, ctx.services, row.id) : null,
        };
      }),
  );
}
