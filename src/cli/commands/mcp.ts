import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { servedApiUrl } from '../../db/warehouse.ts';
import type { Home } from '../../home.ts';

/** Options of `mktdata mcp`. */
export interface McpOptions {
  /** A running mktdata's URL (its root or its /api/v1) whose `/mcp` to relay to. @default the home's `serve` */
  url?: string;
  /** The rate limit of the server started when none serves the home. @default 2 */
  requestsPerSecond?: number;
  /** Runs a command line handed to the server this command starts (the CLI's own parser). */
  runCli?: (argv: string[]) => Promise<number>;
}

/** The JSON-RPC error a failed relay answers a request with: the server's own error when it sent one. */
function relayedError(error: unknown, url: URL): { code: number; message: string; data?: unknown } {
  if (error instanceof StreamableHTTPError) {
    const text = error.message.replace(/^.*?Error POSTing to endpoint: /s, '');
    try {
      const body = JSON.parse(text) as { error?: { code: number; message: string; data?: unknown } };
      if (body.error) return body.error;
    } catch {
      // not the server's JSON-RPC error: said as it came
    }
    return { code: -32000, message: `mktdata at ${url.origin} answered ${error.code}: ${text.slice(0, 500)}` };
  }
  return { code: -32000, message: `cannot reach mktdata at ${url.origin}: ${(error as Error).message}` };
}

/** Relays every message between the client on stdin/stdout and the server's `/mcp` until stdin closes. */
async function relay(url: URL, apiKey: string | undefined): Promise<void> {
  const stdio = new StdioServerTransport();
  const http = new StreamableHTTPClientTransport(url, {
    requestInit: { headers: apiKey ? { 'service-api-key': apiKey } : {} },
  });
  const closed = new Promise<void>((resolve) => (stdio.onclose = resolve));
  http.onmessage = (message) => void stdio.send(message);
  http.onerror = (error) => console.error(`mktdata mcp: ${error.message}`);
  stdio.onmessage = (message: JSONRPCMessage) => {
    http.send(message).catch((error: unknown) => {
      if ('id' in message && 'method' in message)
        void stdio.send({ jsonrpc: '2.0', id: message.id, error: relayedError(error, url) });
    });
  };
  await http.start();
  await stdio.start();
  // The client closes stdin when it is done (or gone): so is the relay.
  process.stdin.once('end', () => void stdio.close());
  await closed;
  await http.close();
}

/**
 * `mktdata mcp`: the MCP server on stdin/stdout for a local assistant, as the organization of MKTDATA_API_KEY. It
 * relays to the `/mcp` of the home's running `serve` (or of `--url`); when nothing serves the home it starts the
 * server itself, on a loopback port, without the pipeline schedule, for as long as the client stays connected.
 * Stdout carries the protocol only: everything else it prints goes to stderr.
 */
export async function mcp(home: Home, options: McpOptions): Promise<void> {
  console.log = console.error;
  const apiKey = process.env.MKTDATA_API_KEY || undefined;
  // (Said on stderr, which MCP clients show in their logs; the calls themselves answer the API's 401.)
  if (!apiKey) console.error('mktdata mcp: MKTDATA_API_KEY is not set: every call is refused (401) until it is');
  const given = options.url ?? servedApiUrl(home);
  if (given) return relay(new URL('/mcp', given), apiKey);
  const { serve } = await import('./serve.ts');
  let listening!: (url: string) => void;
  const started = new Promise<string>((resolve) => (listening = resolve));
  const served = serve(
    home,
    {
      host: '127.0.0.1',
      port: 0,
      requestsPerSecond: options.requestsPerSecond ?? 2,
      pipelines: false,
      runCli: options.runCli,
      logger: { level: process.env.MKTDATA_LOG_LEVEL ?? 'warn', stream: process.stderr },
    },
    listening,
  );
  const url = await Promise.race([started, served.then(() => null)]);
  if (url === null) return;
  await relay(new URL('/mcp', url), apiKey);
  // The server stops as on Ctrl-C: requests and exports in progress end within its grace period.
  process.emit('SIGTERM', 'SIGTERM');
  await served;
}
