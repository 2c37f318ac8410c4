import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { dataFileResponse, fileLink } from '../api/routes/files.ts';
import { CreateDataFileRequest } from '../api/schemas/files.ts';
import { createDataFile } from '../files/data-files.ts';
import { answer, nowOf, parseArguments, type McpContext } from './mcp-context.ts';

/** The input of `create_file`: the CreateDataFileRequest's fields (built once: every request builds its server). */
const createFileInput = z.object(CreateDataFileRequest.shape);

/** The file tool: create a data file (source MCP) and get the signed link its bytes are PUT to. */
export function registerFileTools(server: McpServer, ctx: McpContext): void {
  server.registerTool(
    'create_file',
    {
      title: 'Create a data file',
      description:
        'Creates an image file for listings or A+ content (the CreateDataFileRequest of POST /api/v1/files) and answers its `uploadUrl`: PUT the bytes there (or give contentBase64 now). Actions then refer to it by fileId.',
      inputSchema: createFileInput,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    (args) =>
      answer(ctx, async () => {
        const input = parseArguments(CreateDataFileRequest, args);
        const at = nowOf(ctx);
        const row = await createDataFile(ctx.deps.wh, ctx.deps.home, ctx.organizationId, input, at, 'MCP');
        const upload = fileLink(ctx.origin, ctx.services, 'file-upload', row.id);
        return { ...dataFileResponse(row, at), uploadUrl: upload.url, uploadUrlExpiresAt: upload.expiresAt };
      }),
  );
}
