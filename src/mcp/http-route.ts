import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { AppExtension } from '../api/app-deps.ts';
import { errorReply } from '../api/error-replies.ts';
import { takeRateLimitToken } from '../api/rate-limit.ts';
import { MktdataError } from '../errors.ts';
import { buildMcpServer } from './mcp-server.ts';

/** The largest JSON-RPC message accepted: an ExportRequest or action details, never a file (those are PUT). */
const bodyLimit = 1024 * 1024;

/** The JSON-RPC id of a single message, for the error that answers it (null for a batch or no message). */
const messageId = (body: unknown): string | number | null => {
  const id = (body as { id?: unknown } | null)?.id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
};

/** The messages of a POST that call a tool: each takes one token of the organization's rate limit. */
const toolCalls = (body: unknown) =>
  (Array.isArray(body) ? body : [body]).filter((m) => (m as { method?: unknown } | null)?.method === 'tools/call')
    .length;

/**
 * Answers a failure before the MCP server runs (a missing or wrong key, the rate limit, a malformed body) with the
 * HTTP API's status and headers, its body carried as a JSON-RPC error: `message` is the API's message and `data`
 * the API's error body.
 */
function jsonRpcError(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) {
  const { status, body } = errorReply(error, request.id, (err) => request.log.error({ err }, 'unhandled error'));
  return reply
    .status(status)
    .type('application/json')
    .send({ jsonrpc: '2.0', id: messageId(request.body), error: { code: -32000, message: body.message, data: body } });
}

/**
 * `/mcp`: the MCP server over Streamable HTTP (docs/mcp.md), an extension of the API's app (`mktdata serve` and every
 * API replica add it). Stateless: every POST builds the organization's server, answers in JSON and forgets it, so any
 * replica answers any call. The key is the API's `service-api-key`; each tool call takes one token of the API's rate
 * limit (the protocol's own messages take none).
 */
export const mcpRoutes: AppExtension = async (app, { deps, services, limiter, freshness }) => {
  const config = { auth: true, ownRateLimit: true };
  app.post('/mcp', { config, bodyLimit, errorHandler: jsonRpcError }, async (request, reply) => {
    for (let n = toolCalls(request.body); n > 0; n--) await takeRateLimitToken(limiter, request.organizationId, reply);
    const server = buildMcpServer({
      deps,
      services,
      organizationId: request.organizationId,
      origin: { protocol: request.protocol, host: request.host },
      requestId: request.id,
      freshness,
      logError: (err) => request.log.error({ err }, 'MCP tool failed'),
    });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    reply.raw.on('close', () => void server.close());
    await server.connect(transport);
    reply.raw.setHeader('service-api-request-id', request.id);
    reply.hijack();
    await transport.handleRequest(request.raw, reply.raw, request.body);
  });
  // Without sessions there is no stream to open (GET) or session to end (DELETE): MCP clients read 405 as "none".
  const noSession = async () => {
    throw new MktdataError('ERR_MCP_NO_SESSION');
  };
  app.get('/mcp', { config, errorHandler: jsonRpcError }, noSession);
  app.delete('/mcp', { config, errorHandler: jsonRpcError }, noSession);
};
