import { buildApp } from '../../api/app.ts';
import { closeGracefully } from '../../api/close-gracefully.ts';
import { openWarehouse } from '../../db/warehouse.ts';
import type { Home } from '../../home.ts';
import { serverLogger } from '../output.ts';
import { loadPipelines } from '../../pipelines/pipeline-config.ts';
import { PipelineScheduler } from '../../pipelines/pipeline-scheduler.ts';
import { connectorClock, liveFetcher } from '../../connectors/live.ts';
import { loadConnectorConfig } from '../../connectors/config.ts';
import { Connectors } from '../../connectors/connectors.ts';
import { NotificationPoller } from '../../connectors/notifications.ts';
import { SharedRateLimiter } from '../../api/rate-limit.ts';
import { openSharedControl } from '../../scale/shard-home.ts';
import { scaleConfig, sharedHome, type ScaleConfig } from '../../scale/scale-config.ts';

/** Options of `mktdata serve`. */
export interface ServeOptions {
  host: string;
  port: number;
  requestsPerSecond: number;
  /** @default 2 */
  exportWorkers?: number;
  /** @default 24 */
  exportRetentionHours?: number;
  /** @default 15 */
  signedUrlMinutes?: number;
  /** Run the pipelines at their refresh times. @default true */
  pipelines?: boolean;
  /** The live connectors. @default from the environment and mktdata.config */
  connectors?: Connectors;
}

/** Serves `/api/v1`, runs export workers, export schedules and pipelines until SIGINT or SIGTERM, then closes the server and the warehouse gracefully. */
export async function serve(home: Home, options: ServeOptions, onListening?: (apiUrl: string) => void): Promise<void> {
  const scale = scaleConfig();
  if (scale) return serveReplica(scale, options, onListening);
  const wh = await openWarehouse(home, 'serve');
  const { requestsPerSecond, exportWorkers, exportRetentionHours, signedUrlMinutes } = options;
  let connectors: Connectors;
  try {
    connectors = options.connectors ?? new Connectors(loadConnectorConfig(home), connectorClock());
  } catch (error) {
    await wh.close();
    throw error;
  }
  const app = await buildApp({ wh, home, requestsPerSecond, exportWorkers, exportRetentionHours, signedUrlMinutes, connectors, logger: serverLogger() });
  const url = await app.listen({ host: options.host, port: options.port });
  console.log(`mktdata serving ${url}/api/v1 (home ${home.root}); stop with Ctrl-C`);
  console.log(`console ${url}/ (sign in with an organization's API key, or MKTDATA_OPERATOR_KEY for every organization)`);
  onListening?.(`${url}/api/v1`);
  const scheduler = new PipelineScheduler(wh, loadPipelines(), (message, error) => app.log.error({ err: error }, message), (run) =>
    console.log(`pipeline ${run.pipeline}: run ${run.runId} ${run.status}, ${run.windows.length} window(s), ${run.landed} file(s) landed`),
    () => liveFetcher(wh, {
      connectors,
      onFetched: (e) => app.log.info({ source: e.request.source, connection: e.request.connectionId, from: e.request.from, to: e.request.to, status: e.status, rows: e.rows, error: e.error }, 'fetch'),
      onDownloaded: (r) => app.log.info({ source: r.source, connection: r.connectionId, from: r.from, to: r.to, status: 'downloaded' }, 'fetch'),
      onWarning: (message) => app.log.warn(message),
    }),
  );
  if (options.pipelines !== false) scheduler.start();
  const queue = connectors.config.notifications;
  const poller = queue ? new NotificationPoller(wh, queue, (work) => scheduler.exclusive(work), (message) => app.log.warn(message)) : undefined;
  poller?.start();
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await poller?.stop();
  await scheduler.stop();
  await closeGracefully(app);
  await wh.close();
}

/**
 * An API replica of a scaled-out install: the control plane in PostgreSQL (rate limits, tokens, exports and
 * schedules coordinated through it), the shared folder as its home, exports read from the shards' snapshots.
 * Pipelines run on the workers (`mktdata worker`), never here.
 */
async function serveReplica(config: ScaleConfig, options: ServeOptions, onListening?: (apiUrl: string) => void): Promise<void> {
  const store = await openSharedControl(config);
  const home = sharedHome(config);
  const wh = { home, db: store.db, sql: undefined as never, close: store.close };
  try {
    const connectors = options.connectors ?? new Connectors(loadConnectorConfig(home), connectorClock());
    const limiter = new SharedRateLimiter(store, options.requestsPerSecond);
    const app = await buildApp({ ...options, wh, home, connectors, limiter, logger: serverLogger() });
    const url = await app.listen({ host: options.host, port: options.port });
    console.log(`mktdata serving ${url}/api/v1 (API replica on the shared control plane, shared folder ${config.sharedDir}); stop with Ctrl-C`);
    console.log(`console ${url}/ (sign in with an organization's API key, or MKTDATA_OPERATOR_KEY for every organization)`);
    onListening?.(`${url}/api/v1`);
    await new Promise<void>((resolve) => {
      process.once('SIGINT', () => resolve());
      process.once('SIGTERM', () => resolve());
    });
    await closeGracefully(app);
  } finally {
    await store.close();
  }
}
