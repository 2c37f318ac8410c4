import { buildApp, type App } from '../../api/app.ts';
import { startAdminChannel } from '../admin-channel.ts';
import { unserved } from '../served.ts';
import { closeGracefully } from '../../api/close-gracefully.ts';
import { openWarehouse, recordApiUrl } from '../../db/warehouse.ts';
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
import { anyUnfinishedFirstLoad } from '../../control/connections/load-stages.ts';
import { listenOn } from '../../api/listen.ts';
import { readiness } from '../../api/readiness/ready-report.ts';
import { replicaChecks, serveChecks } from '../../api/readiness/process-checks.ts';
import { recoverInterruptedRuns } from '../../pipelines/run-history.ts';
import { stopWithin, watchSignals, type StopStep } from '../stop-signals.ts';
import { metricsEnabled, serverMetrics } from '../../metrics/metrics.ts';
import { mcpRoutes } from '../../mcp/http-route.ts';

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
  /** Count metrics and serve `GET /metrics`. @default true, unless MKTDATA_METRICS=off */
  metrics?: boolean;
  /** The server's log (pino options). @default serverLogger(): JSON lines on stdout, pretty on a terminal */
  logger?: object;
  /** Runs a command line handed to the server (the CLI's own parser): with it, `serve` opens the admin channel. */
  runCli?: (argv: string[]) => Promise<number>;
  /**
   * Seconds a stop (SIGTERM, Ctrl-C) waits for requests, exports and the pipeline run in progress before it exits
   * anyway, leaving them to be taken up again at the next start. @default 30
   */
  graceSeconds?: number;
}

/** How long a stop waits for requests in flight before it cuts their connections (within the grace period). */
const REQUESTS_GRACE_MS = 10_000;

/** What becomes of the run (or a command's work) a stop did not wait for (docs/operations.md, "Running as a service"). */
function runLeft(scheduler: PipelineScheduler): string {
  const pipeline = scheduler.running();
  const what = pipeline
    ? `pipeline ${pipeline}'s run`
    : 'the work of a command handed to the server (such as `mktdata run`)';
  return `${what} is unfinished: a run stays recorded as running until the next start records it failed (interrupted), and the next run plans its windows again`;
}

/**
 * Serves `/api/v1` (and `/health`, `/ready`), runs export workers, export schedules and pipelines until SIGINT or
 * SIGTERM, then closes the server and the warehouse within the grace period; SIGHUP only logs that nothing is
 * reloaded. With `runCli`, commands run beside it are handed to it through the home's admin channel. Whatever fails
 * before it serves (a port in use, a home it cannot open) ends it at once, the home released.
 */
export async function serve(home: Home, options: ServeOptions, onListening?: (apiUrl: string) => void): Promise<void> {
  const scale = scaleConfig();
  if (scale) return serveReplica(scale, options, onListening);
  const graceMs = (options.graceSeconds ?? 30) * 1000;
  const wh = await openWarehouse(home, 'serve');
  const closing: StopStep[] = [{ what: 'closing the warehouse', run: () => wh.close() }];
  let app: App | undefined;
  const log = () => app?.log ?? { info: console.log, warn: console.error, error: console.error };
  const signals = watchSignals((line) => log().warn(line));
  try {
    // A run the last server of this home left unfinished is recorded failed (interrupted) now, not at the next run.
    await recoverInterruptedRuns(wh);
    const metrics = serverMetrics(
      { wh, home, pipelines: loadPipelines(), log: (m, err) => log().warn({ err }, m) },
      options.metrics ?? metricsEnabled(),
    );
    const connectors =
      options.connectors ?? new Connectors(loadConnectorConfig(home), connectorClock(), metrics?.connectorLog);
    const scheduler = new PipelineScheduler(
      wh,
      loadPipelines(),
      (message, error) => log().error({ err: error }, message),
      {
        onRun: (run, ms) => {
          metrics?.pipelineRun(run.pipeline, ms / 1000, run);
          console.log(
            `pipeline ${run.pipeline}: run ${run.runId} ${run.status}, ${run.windows.length} window(s), ${run.landed} file(s) landed${run.errors > 0 ? `, ${run.errors} error(s)` : ''}`,
          );
        },
        onRunThrew: (pipeline, ms) => metrics?.pipelineRun(pipeline, ms / 1000),
        onLanded: metrics && ((r) => metrics.landed(r)),
      },
      () =>
        liveFetcher(wh, {
          connectors,
          onDocumentLanded: metrics && ((r) => metrics.landed(r)),
          onFetched: (e) => {
            metrics?.fetched(e);
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
            );
          },
          onDownloaded: (r) =>
            log().info(
              { source: r.source, connection: r.connectionId, from: r.from, to: r.to, status: 'downloaded' },
              'fetch',
            ),
          onWarning: (message) => log().warn(message),
        }),
    );
    let schedulerStopped: Promise<void> | undefined;
    const stopScheduler = () => (schedulerStopped ??= scheduler.stop());
    closing.push({
      what: 'the pipeline run or command in progress',
      run: stopScheduler,
      late: () => runLeft(scheduler),
    });
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
      logger: options.logger ?? serverLogger(),
      ready: readiness(serveChecks(wh, options.pipelines === false ? 'off' : scheduler), { root: home.root }),
      metrics,
      extensions: [mcpRoutes],
    });
    closing.push({
      what: 'requests and exports in progress',
      run: () => closeGracefully(app!, Math.min(REQUESTS_GRACE_MS, graceMs)),
    });
    const url = await listenOn(app, options);
    if (options.runCli) {
      const admin = await startAdminChannel(
        home,
        options.runCli,
        {
          wh,
          connectors,
          exclusive: (work) => scheduler.exclusive(work),
          queueRuns: (trigger) => unserved(() => scheduler.request({ trigger })),
          metrics,
        },
        (m) => app!.log.info(m),
      );
      closing.push({ what: 'commands handed to the server', run: () => admin.close() });
    }
    recordApiUrl(home, `${url}/api/v1`);
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
          metrics && ((r) => metrics.landed(r)),
        )
      : undefined;
    poller?.start();
    if (poller) closing.push({ what: 'the notification poller', run: () => poller.stop() });
    await signals.stopped;
    // No run starts from here on; the one in progress is waited for once the requests are done.
    void stopScheduler();
  } finally {
    await stopWithin(graceMs, closing.splice(0).reverse());
    signals.dispose();
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
  const graceMs = (options.graceSeconds ?? 30) * 1000;
  const store = await openSharedControl(config);
  const home = sharedHome(config);
  const wh = { home, db: store.db, sql: undefined as never, close: store.close };
  const closing: StopStep[] = [{ what: 'closing the control plane', run: () => store.close() }];
  let app: App | undefined;
  const signals = watchSignals((line) => (app?.log ?? console).warn(line));
  try {
    const connectors = options.connectors ?? new Connectors(loadConnectorConfig(home), connectorClock());
    const limiter = new SharedRateLimiter(store, options.requestsPerSecond);
    const ready = readiness(replicaChecks(store, home), { root: home.root });
    // (Its gauges read the shared control plane; the runs are counted by the workers that make them.)
    const metrics = serverMetrics({ wh, home, pipelines: loadPipelines() }, options.metrics ?? metricsEnabled());
    app = await buildApp({
      ...options,
      wh,
      home,
      connectors,
      limiter,
      ready,
      logger: serverLogger(),
      metrics,
      extensions: [mcpRoutes],
    });
    closing.push({
      what: 'requests and exports in progress',
      run: () => closeGracefully(app!, Math.min(REQUESTS_GRACE_MS, graceMs)),
    });
    const url = await listenOn(app, options);
    console.log(
      `mktdata serving ${url}/api/v1 (API replica on the shared control plane, shared folder ${config.sharedDir}); stop with Ctrl-C`,
    );
    console.log(
      `console ${url}/ (sign in with an organization's API key, or MKTDATA_OPERATOR_KEY for every organization)`,
    );
    onListening?.(`${url}/api/v1`);
    await signals.stopped;
  } finally {
    await stopWithin(graceMs, closing.splice(0).reverse());
    signals.dispose();
  }
}
