import Fastify from 'fastify';
import { closeGracefully } from './close-gracefully.ts';
import { listenOn } from './listen.ts';
import type { ReadyReport } from './readiness/ready-report.ts';
import { healthAndReadyRoutes } from './routes/health-and-ready.ts';
import { instrumentHttp, metricsRoutes } from './routes/metrics.ts';
import type { Metrics } from '../metrics/metrics.ts';

/** A listener answering `/health` and `/ready` only, and how to close it. */
export interface ProbeServer {
  /** `http://HOST:PORT` */
  url: string;
  close(): Promise<void>;
}

/**
 * The small listener of a process that serves no API (a scaled-out `mktdata worker`): `/health` and `/ready` for its
 * supervisor, `/metrics` when given metrics, every other path 404.
 */
export async function startProbeServer(
  options: { host: string; port: number },
  ready: () => Promise<ReadyReport>,
  metrics?: Metrics,
): Promise<ProbeServer> {
  const app = Fastify({ logger: false });
  if (metrics) {
    instrumentHttp(app, metrics);
    await metricsRoutes(app, metrics);
  }
  await healthAndReadyRoutes(app, ready);
  const url = await listenOn(app, options).catch(async (error: unknown) => {
    await app.close();
    throw error;
  });
  return { url, close: () => closeGracefully(app, 2000) };
}
