import { chmodSync, existsSync, rmSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import { once } from 'node:events';
import { z } from 'zod';
import type { Home } from '../home.ts';
import { MktdataError } from '../errors.ts';
import { adminSocketOf, recordAdminSocket } from '../db/warehouse.ts';
import { runServed, unserved, type ServedCommand } from './served.ts';

/**
 * The admin channel of `mktdata serve`: a Unix socket in the home that only the home's owner can open (0600). A
 * command run beside the server hands its command line to it (instead of failing on the home's writer lock); the
 * server runs it on its own open warehouse and streams the output back, one JSON line per chunk:
 * `{"out": text}`, `{"err": text}`, then `{"exit": code}`.
 */
export interface AdminChannel {
  path: string;
  close(): Promise<void>;
}

const requestSchema = z.object({
  argv: z.array(z.string()).max(10_000),
  cwd: z.string().min(1),
  secrets: z.record(z.string(), z.string()),
  quiet: z.boolean(),
});
type AdminRequest = z.infer<typeof requestSchema>;

/** What the server lends every command it runs. */
export type ServerContext = Pick<ServedCommand, 'wh' | 'connectors' | 'exclusive' | 'queueRuns' | 'metrics'>;

async function readBody(req: IncomingMessage): Promise<unknown> {
  let text = '';
  for await (const chunk of req) {
    text += String(chunk);
    if (text.length > 4_000_000) throw new Error('request too large');
  }
  return JSON.parse(text);
}

/**
 * Listens on the home's admin socket and runs each command line it receives with `run` (the CLI's own parser), as a
 * served command of `context`; `log` hears which command ran (never its arguments, which may name files or ids).
 */
export async function startAdminChannel(
  home: Home,
  run: (argv: string[]) => Promise<number>,
  context: ServerContext,
  log: (message: string) => void,
): Promise<AdminChannel> {
  const path = adminSocketOf(home);
  rmSync(path, { force: true }); // a socket a killed server left behind (this process holds the writer lock)
  const server = createServer((req, res) => void handle(req, res));
  async function handle(req: IncomingMessage, res: ServerResponse) {
    if (req.method !== 'POST' || req.url !== '/cli') return res.writeHead(404).end();
    let body: AdminRequest;
    try {
      body = requestSchema.parse(await readBody(req));
    } catch (error) {
      return res.writeHead(400, { 'content-type': 'text/plain' }).end(`not a command: ${(error as Error).message}`);
    }
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    const send = (line: object) => res.writableEnded || res.write(`${JSON.stringify(line)}\n`);
    // The command's words (not its option values: files, ids, SQL).
    log(
      `admin channel: mktdata ${body.argv
        .filter((a) => /^[a-z][a-z-]+$/.test(a))
        .slice(0, 2)
        .join(' ')}`,
    );
    const command: ServedCommand = {
      ...context,
      cwd: body.cwd,
      secrets: body.secrets,
      quiet: body.quiet,
      out: (text) => send({ out: text }),
      err: (text) => send({ err: text }),
    };
    const code = await runServed(command, () => run(body.argv));
    res.end(`${JSON.stringify({ exit: code })}\n`);
  }
  // Only the owner may connect: the socket is made under a umask that leaves no one else a permission.
  const umask = process.umask(0o177);
  try {
    server.listen(path);
  } finally {
    process.umask(umask);
  }
  await once(server, 'listening');
  chmodSync(path, 0o600);
  recordAdminSocket(home, path);
  return {
    path,
    close: () =>
      unserved(async () => {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        rmSync(path, { force: true });
      }),
  };
}

/**
 * Hands a command line to the server holding `home`, prints what it prints, and returns its exit code; null when no
 * server holds the home (or it has no admin channel), so that the command opens the home itself.
 */
export async function forwardToServer(
  home: Home,
  argv: string[],
  secrets: Record<string, string>,
  quiet: boolean,
): Promise<number | null> {
  const socketPath = adminSocketOf(home, { served: true });
  if (!socketPath || !existsSync(socketPath)) return null;
  const body = JSON.stringify({ argv, cwd: process.cwd(), secrets, quiet } satisfies AdminRequest);
  let res: IncomingMessage;
  try {
    const req = request({ socketPath, path: '/cli', method: 'POST', headers: { 'content-type': 'application/json' } });
    req.end(body);
    [res] = (await once(req, 'response')) as [IncomingMessage];
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ECONNREFUSED' || code === 'ENOENT') return null;
    throw error;
  }
  if (res.statusCode !== 200) throw new Error(`the server refused the command: ${res.statusCode}`);
  let exit = 1;
  let rest = '';
  let finished = false;
  try {
    for await (const chunk of res) {
      const lines = (rest + String(chunk)).split('\n');
      rest = lines.pop()!;
      for (const line of lines.filter(Boolean)) {
        const message = JSON.parse(line) as { out?: string; err?: string; exit?: number };
        if (message.out !== undefined) process.stdout.write(message.out);
        if (message.err !== undefined) process.stderr.write(message.err);
        if (message.exit !== undefined) [exit, finished] = [message.exit, true];
      }
    }
  } catch (error) {
    // The server stopping cuts the connection ("aborted"): the command was not finished, whatever it printed.
    if (!finished) throw new MktdataError('ERR_SERVER_STOPPED', { home: home.root }, { cause: error });
    throw error;
  }
  return exit;
}
