import type { FastifyInstance } from 'fastify';
import { MktdataError } from '../errors.ts';

/**
 * Listens on `host:port` and returns the URL, or says in one line why it cannot (a port in use, one that needs
 * privileges, an unknown host). `where` names the options that chose them.
 */
export async function listenOn(
  app: FastifyInstance,
  options: { host: string; port: number },
  where = '--host/--port',
): Promise<string> {
  try {
    return await app.listen({ host: options.host, port: options.port });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE')
      throw new MktdataError('ERR_PORT_IN_USE', { host: options.host, port: options.port }, { cause: error });
    if (code === 'EACCES' || code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') {
      throw new MktdataError(
        'ERR_INPUT_INVALID',
        { where, reason: `cannot listen on ${options.host}:${options.port} (${code})` },
        { cause: error },
      );
    }
    throw error;
  }
}
