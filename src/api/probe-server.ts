import Fastify from 'fastify';
import { closeGracefully } from './close-gracefully.ts';
import { listenOn } from './listen.ts';
import type { ReadyReport } from './readiness/ready-report.ts';
import { healthAndReadyRoutes } from './routes/health-and-ready.ts';

/** A listener answering `/health` and `/ready` only, and how to close it. */
export interface ProbeServer {
  /** `http://HOST:PORT` */
  url: string;
  close(): Promise<void>;
}

/**
 * The small listener of a process that serves no API (a scaled-out `mktdata worker`): `/health` and `/ready` for its
 * supervisor, every other path 404.
 */
export async function startProbeServer(
  options: { host: string; port: number },
  ready: () => Promise<ReadyReport>,
): Promise<ProbeServer> {
  const app = Fastify({ logger: false });
  await healthAndReadyRoutes(app, ready);
  const url = await listenOn(app, options).catch(async (error: unknown) => {
    await app.close();
    throw error;
  });
  return { url, close: () => closeGracefully(app, 2000) };
}
