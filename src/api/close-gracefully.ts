import type { FastifyInstance } from 'fastify';

/** How often idle keep-alive connections are closed while a close waits for requests in flight. */
const SWEEP_MS = 100;

/**
 * Closes a Fastify app without waiting out keep-alive timeouts: Node's `server.close()` closes the connections idle at
 * that moment only, and one serving a request then stays open for the keep-alive timeout (72 s in Fastify) after its
 * response, which would hold `mktdata serve` that long after SIGTERM. So idle connections are closed every
 * SWEEP_MS while requests finish, and whatever is still open after `graceMs` is cut.
 */
export async function closeGracefully(app: FastifyInstance, graceMs = 10_000): Promise<void> {
  let closed = false; // every connection ended (the close may still wait for its onClose hooks: exports being written)
  app.server.once('close', () => (closed = true));
  const sweep = setInterval(() => app.server.closeIdleConnections(), SWEEP_MS);
  const cut = setTimeout(() => {
    if (closed) return;
    app.log.warn(`requests still in flight ${graceMs} ms after the server began closing: their connections are cut`);
    app.server.closeAllConnections();
  }, graceMs);
  try {
    await app.close();
  } finally {
    clearInterval(sweep);
    clearTimeout(cut);
  }
}
