import { hostname } from 'node:os';
import { resolve } from 'node:path';
import type { ControlStore } from '../../db/control-store.ts';
import type { Warehouse } from '../../db/warehouse.ts';
import { MktdataError } from '../../errors.ts';
import { findPipeline, loadPipelines } from '../../pipelines/pipeline-config.ts';
import { runDistributed } from '../../scale/distributed-run.ts';
import { openJobQueue } from '../../scale/pipeline-jobs.ts';
import { openSharedControl } from '../../scale/shard-home.ts';
import { scaleConfig, sharedHome, type ScaleConfig } from '../../scale/scale-config.ts';
import { ShardWorker } from '../../scale/shard-worker.ts';
import { formatTable } from '../output.ts';
import { latestShardRuns } from '../../scale/shard-runs.ts';
import { ensureFolder } from '../../home.ts';
import { startProbeServer } from '../../api/probe-server.ts';
import { readiness } from '../../api/readiness/ready-report.ts';
import { workerChecks } from '../../api/readiness/process-checks.ts';
import { stopWithin, watchSignals, type StopStep } from '../stop-signals.ts';
import { Metrics, metricsEnabled } from '../../metrics/metrics.ts';

/** The scale-out settings, or an error saying that this command needs them. */
export function requireScaleConfig(command: string): ScaleConfig {
  const config = scaleConfig();
  if (!config)
    throw new MktdataError('ERR_INPUT_INVALID', {
      where: 'MKTDATA_DATABASE_URL',
      reason: `\`mktdata ${command}\` runs in a scaled-out install only: set it to the shared PostgreSQL (docs/scale-out.md)`,
    });
  return config;
}

/**
 * Runs `work` on the shared control plane of a scaled-out install, seen as a warehouse whose home is the shared
 * folder: the commands that only read and write the control plane (organizations, keys, connections, credentials,
 * webhooks, actions) run unchanged. It has no DuckDB connection: nothing of the data is reached through it.
 */
export async function withSharedControl<T>(config: ScaleConfig, work: (wh: Warehouse) => Promise<T>): Promise<T> {
  const store = await openSharedControl(config);
  try {
    return await work({ home: sharedHome(config), db: store.db, sql: undefined as never, close: store.close });
  } finally {
    await store.close();
  }
}

/** Options of `mktdata worker`. */
export interface WorkerCommandOptions {
  workDir: string;
  id?: string;
  leaseSeconds: number;
  pollSeconds: number;
  pipelines: boolean;
  /** The port of its `/health` and `/ready` listener. @default none: no listener */
  port?: number;
  /** @default 127.0.0.1 */
  host?: string;
  /** Seconds a stop waits for the shard runs in progress before it exits anyway. @default 30 */
  graceSeconds?: number;
}

/** Refuses lease and poll times the worker cannot keep. */
function checkTimes(o: Pick<WorkerCommandOptions, 'leaseSeconds' | 'pollSeconds'>): void {
  // Leases are renewed every third of their time; pg-boss polls twice a second at most.
  if (o.leaseSeconds < 3)
    throw new MktdataError('ERR_INPUT_INVALID', {
      where: '--lease-seconds',
      reason: `${o.leaseSeconds} is too short: at least 3`,
    });
  if (o.pollSeconds < 1)
    throw new MktdataError('ERR_INPUT_INVALID', {
      where: '--poll-seconds',
      reason: `${o.pollSeconds} is too short: at least 1`,
    });
}

/**
 * `mktdata worker`: holds its share of the shards and runs their queued pipeline runs until SIGINT or SIGTERM (SIGHUP
 * only logs that nothing is reloaded); with `port`, answers `/health` and `/ready` on its own small listener.
 */
export async function worker(o: WorkerCommandOptions): Promise<void> {
  const config = requireScaleConfig('worker');
  checkTimes(o);
  const id = o.id ?? `${hostname()}-${process.pid}`;
  const workDir = resolve(o.workDir);
  ensureFolder(workDir);
  const graceMs = (o.graceSeconds ?? 30) * 1000;
  const signals = watchSignals((line) => console.error(`worker ${id}: ${line}`));
  const closing: StopStep[] = [];
  try {
    const store = await openSharedControl(config);
    closing.push({ what: 'closing the control plane', run: () => store.close() });
    const boss = await openJobQueue(config.databaseUrl, config.shards, (error) =>
      console.error(`job queue: ${error.message}`),
    );
    closing.push({ what: 'the job queue', run: () => boss.stop({ graceful: true, wait: true }) });
    // Counted only where they can be scraped: on the listener. The state gauges are the API replicas' (one control plane).
    const metrics = o.port !== undefined && metricsEnabled() ? new Metrics() : undefined;
    const shardWorker = new ShardWorker(store, boss, config, {
      metrics,
      id,
      workDir,
      leaseMs: o.leaseSeconds * 1000,
      pollSeconds: o.pollSeconds,
      schedule: o.pipelines,
      log: (message) => console.log(message),
      onRun: (r) =>
        console.log(`${r.status.padEnd(7)} ${r.pipeline} ${r.shard} run ${r.runId}: ${r.windows} window(s)`),
    });
    const ready = readiness(workerChecks(store, workDir, shardWorker));
    const probe =
      o.port === undefined
        ? undefined
        : await startProbeServer({ host: o.host ?? '127.0.0.1', port: o.port }, ready, metrics);
    if (probe) closing.push({ what: 'the /health and /ready listener', run: () => probe.close() });
    await shardWorker.start();
    closing.push({
      what: 'the shard runs in progress',
      run: () => shardWorker.stop(),
      late: () =>
        `the runs of ${shardWorker.busy().join(', ') || 'its shards'} are unfinished: their leases lapse after ${o.leaseSeconds} s and the worker that takes each shard over runs them again`,
    });
    console.log(
      `mktdata worker ${id}: ${config.shards.length} shards on ${config.sharedDir}, work folder ${workDir}${probe ? `, /health and /ready on ${probe.url}` : ''}; stop with Ctrl-C`,
    );
    await signals.stopped;
  } finally {
    await stopWithin(graceMs, closing.splice(0).reverse());
    signals.dispose();
  }
}

/**
 * `mktdata run` in a scaled-out install: every shard's run of the selected pipelines, done by the workers; prints them.
 */
export async function runScaled(config: ScaleConfig, pipeline?: string): Promise<void> {
  const names = pipeline ? [findPipeline(loadPipelines(), pipeline).name] : loadPipelines().map((p) => p.name);
  const store: ControlStore & { close(): Promise<void> } = await openSharedControl(config);
  const boss = await openJobQueue(config.databaseUrl, config.shards);
  try {
    const runs = await runDistributed(store, boss, config, names, (waiting) =>
      console.error(`waiting for ${waiting.length} shard run(s): ${waiting.slice(0, 5).join(', ')}`),
    );
    console.log(
      formatTable(
        ['pipeline', 'shard', 'status', 'windows', 'worker', 'error'],
        runs.map((r) => [r.pipeline, r.shard, r.status, r.windows, r.worker, r.error]),
      ),
    );
    for (const r of runs) console.log(r.runId);
    const failed = runs.filter((r) => r.status !== 'success').length;
    if (failed > 0) throw new MktdataError('ERR_RUN_FAILED', { count: failed });
  } finally {
    await boss.stop({ graceful: false, wait: true });
    await store.close();
  }
}

/**
 * `mktdata runs` in a scaled-out install: the shards' recent runs, newest first (their windows are in each shard's
 * warehouse).
 */
export async function shardRuns(
  config: ScaleConfig,
  o: { pipeline?: string; limit: number; format: 'table' | 'json' },
): Promise<void> {
  const store = await openSharedControl(config);
  try {
    const rows = (await latestShardRuns(store.db, o)).map((r) => ({
      run: r.run_id,
      pipeline: r.pipeline,
      shard: r.shard,
      worker: r.worker,
      started_at: r.started_at,
      finished_at: r.finished_at,
      status: r.status,
      windows: r.windows,
      error: r.error,
    }));
    console.log(
      o.format === 'json'
        ? JSON.stringify(rows, null, 2)
        : formatTable(
            Object.keys(rows[0] ?? { run: 0 }),
            rows.map((r) => Object.values(r)),
          ),
    );
  } finally {
    await store.close();
  }
}
