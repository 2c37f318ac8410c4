import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { connectionsWithOrganization } from '../control/connections/connections.ts';
import { MktdataError } from '../errors.ts';
import type { AppDeps, ExportServices } from '../api/app-deps.ts';
import { errorReply } from '../api/error-replies.ts';
import type { Origin } from '../api/routes/export-replies.ts';
import type { Freshness } from '../catalog/catalog.ts';

/**
 * What every MCP tool works with: the same warehouse, services and clock as the HTTP API, the organization the API
 * key belongs to, and where the client reached the server (the origin of the links it is given).
 */
export interface McpContext {
  deps: AppDeps;
  services: ExportServices;
  organizationId: string;
  origin: Origin;
  /** The request id of the HTTP request carrying the call: error bodies name it, as the API's do. */
  requestId: string;
  /** The catalog's freshness, cached per publish as the spec endpoints read it. */
  freshness: () => Promise<Map<string, Freshness>>;
  /** Logs a failure that is the server's, not the client's (the tool answers ERR_INTERNAL). */
  logError: (error: unknown) => void;
}

/** The ids of the organization's connections: the rows its calls may read. */
export async function organizationConnectionIds(ctx: McpContext): Promise<string[]> {
  const rows = await connectionsWithOrganization(ctx.deps.wh.db, ctx.organizationId);
  return rows.map((c) => c.id).sort();
}

/** The context's clock, as the API's routes read it. */
export const nowOf = (ctx: McpContext) => new Date(ctx.services.worker.now());

/** A tool's answer: the value as JSON text (what every client shows) and as structured content. */
export function toolResult(value: object): CallToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(value) }],
    structuredContent: value as Record<string, unknown>,
  };
}

/**
 * Runs a tool's work and turns a failure into the tool error MCP clients expect, carrying the HTTP API's error body
 * (the same code, status and message: a 402 is `ERR_NO_TOKENS` with the API's message).
 */
export async function answer(ctx: McpContext, work: () => Promise<object>): Promise<CallToolResult> {
  try {
    return toolResult(await work());
  } catch (error) {
    const { body } = errorReply(error, ctx.requestId, ctx.logError);
    return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body };
  }
}

/**
 * Checks a tool's arguments against the HTTP API's schema of the same request (its refinements included: a tool
 * publishes the schema's plain shape, which JSON Schema can say), refusing as the API does: ERR_REQUEST_INVALID
 * naming each field.
 */
export function parseArguments<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((i) => ({
    path: ['arguments', ...i.path.map(String)],
    code: i.code,
    message: i.message,
  }));
  throw new MktdataError(
    'ERR_REQUEST_INVALID',
    { summary: issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') },
    { body: { issues } },
  );
}
