import { buildApp, type App } from '../../api/app.ts';
import { MktdataError } from '../../errors.ts';
import { startAdminChannel } from '../admin-channel.ts';
import { unserved } from '../served.ts';
import { closeGracefully } from '../../api/close-gracefully.ts';
import { openWarehouse } from '../../db/warehouse.ts';
import type { Home } from '../../home.ts';
import { serverLogger } from '../output.ts';
import { loadPipelines } from '../../pipelines/pipeline-config.ts';
import { PipelineScheduler, type RunRequest } from '../../pipelines/pipeline-scheduler.ts';
import { connectorClock, liveFetcher } from '../../pipelines/fetch/live.ts';
import { loadConnectorConfig } from '../../connectors/config.ts';
import { Connectors } from '../../connectors/connectors.ts';
import { NotificationPoller } from '../../pipelines/fetch/notifications.ts';
import { SharedRateLimiter } from '../../api/rate-limit.ts';
import { openSharedControl } from '../../scale/shard-home.ts';
import { scaleConfig, sharedHome, type ScaleConfig } from '../../scale/scale-config.ts';
import { anyUnfinishedFirstLoad } from '../../control/connections.ts';

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
  /** Runs a command line handed to the server (the CLI's own parser): with it, `serve` opens the admin channel. */
  runCli?: (argv: string[]) => Promise<number>;
}

/**
 * Serves `/api/v1`, runs export workers, export schedules and pipelines until SIGINT or SIGTERM, then closes the
 * server and the warehouse gracefully. With `runCli`, commands run beside it are handed to it through the home's
 * admin channel. Whatever fails before it serves (a port in use, a home it cannot open) ends it at once, the home
 * released.
 */
export async function serve(home: Home, options: ServeOptions, onListening?: (apiUrl: string) => void): Promise<void> {
  const scale = scaleConfig();
  if (scale) return serveReplica(scale, options, onListening);
  const wh = await openWarehouse(home, 'serve');
  const closing: (() => Promise<unknown>)[] = [() => wh.close()];
  const close = async () => {
    for (const step of closing.splice(0).reverse()) await step();
  };
  try {
    const connectors = options.connectors ?? new Connectors(loadConnectorConfig(home), connectorClock());
    let app: App | undefined;
    const log = () => app?.log ?? { info: console.log, warn: console.error, error: console.error };
    const scheduler = new PipelineScheduler(
      wh,
      loadPipelines(),
      (message, error) => log().error({ err: error }, message),
      (run) =>
        console.log(
          `pipeline ${run.pipeline}: run ${run.runId} ${run.status}, ${run.windows.length} window(s), ${run.landed} file(s) landed${run.errors > 0 ? `, ${run.errors} error(s)` : ''}`,
        ),
      () =>
        liveFetcher(wh, {
          connectors,
          onFetched: (e) =>
            log().info(
              {
                source: e.request.source,
                connection: e.request.connectionId,
                from: e.request.from,
                to: e.request.to,
                status: e.status,
                rows: e.rows,
                error: e.error,
              },
              'fetch',
            ),
          onDownloaded: (r) =>
            log().info(
              { source: r.source, connection: r.connectionId, from: r.from, to: r.to, status: 'downloaded' },
              'fetch',
            ),
          onWarning: (message) => log().warn(message),
        }),
    );
    closing.push(() => scheduler.stop());
    const { requestsPerSecond, exportWorkers, exportRetentionHours, signedUrlMinutes } = options;
    const runNow = (request: RunRequest) => scheduler.request(request);
    app = await buildApp({
      wh,
      home,
      requestsPerSecond,
      exportWorkers,
      exportRetentionHours,
      signedUrlMinutes,
      connectors,
      runNow,
      logger: serverLogger(),
    });
    closing.push(() => closeGracefully(app!));
    const url = await listen(app, options);
    if (options.runCli) {
      const admin = await startAdminChannel(
        home,
        options.runCli,
        {
          wh,
          connectors,
          exclusive: (work) => scheduler.exclusive(work),
          queueRuns: (trigger) => unserved(() => scheduler.request({ trigger })),
        },
        (m) => app!.log.info(m),
      );
      closing.push(() => admin.close());
    }
    console.log(`mktdata serving ${url}/api/v1 (home ${home.root}); stop with Ctrl-C`);
    console.log(
      `console ${url}/ (sign in with an organization's API key, or MKTDATA_OPERATOR_KEY for every organization)`,
    );
    onListening?.(`${url}/api/v1`);
    if (options.pipelines !== false) scheduler.start();
    // A first load a stopped server left unfinished (a seller connected just before) goes on at once.
    if (await anyUnfinishedFirstLoad(wh.db)) scheduler.request({ trigger: 'connected' });
    const queue = connectors.config.notifications;
    const poller = queue
      ? new NotificationPoller(
          wh,
          queue,
          (work) => scheduler.exclusive(work),
          (message) => app!.log.warn(message),
        )
      : undefined;
    poller?.start();
    if (poller) closing.push(() => poller.stop());
    await new Promise<void>((resolve) => {
      const stop = () => resolve();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
  } finally {
    await close();
  }
}

/** Listens, or says in one line why it cannot (a port in use, one that needs privileges, an unknown host). */
async function listen(app: App, options: { host: string; port: number }): Promise<string> {
  try {
    return await app.listen({ host: options.host, port: options.port });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE')
      throw new MktdataError('ERR_PORT_IN_USE', { host: options.host, port: options.port }, { cause: error });
    if (code === 'EACCES' || code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') {
      throw new MktdataError(
        'ERR_INPUT_INVALID',
        { where: '--host/--port', reason: `cannot listen on ${options.host}:${options.port} (${code})` },
        { cause: error },
      );
    }
    throw error;
  }
}

/**
 * An API replica of a scaled-out install: the control plane in PostgreSQL (rate limits, tokens, exports and
 * schedules coordinated through it), the shared folder as its home, exports read from the shards' snapshots.
 * Pipelines run on the workers (`mktdata worker`), never here.
 */
async function serveReplica(
  config: ScaleConfig,
  options: ServeOptions,
  onListening?: (apiUrl: string) => void,
): Promise<void> {
  const store = await openSharedControl(config);
  const home = sharedHome(config);
  const wh = { home, db: store.db, sql: undefined as never, close: store.close };
  try {
    const connectors = options.connectors ?? new Connectors(loadConnectorConfig(home), connectorClock());
    const limiter = new SharedRateLimiter(store, options.requestsPerSecond);
    const app = await buildApp({ ...options, wh, home, connectors, limiter, logger: serverLogger() });
    const url = await listen(app, options).catch(async (error: unknown) => {
      await closeGracefully(app);
      throw error;
    });
    console.log(
      `mktdata serving ${url}/api/v1 (API replica on the shared control plane, shared folder ${config.sharedDir}); stop with Ctrl-C`,
    );
    console.log(
      `console ${url}/ (sign in with an organization's API key, or MKTDATA_OPERATOR_KEY for every organization)`,
    );
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
