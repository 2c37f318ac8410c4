import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { ControlStore } from '../db/control-store.ts';
import { openWarehouse } from '../db/warehouse.ts';
import { liveFetcher } from '../pipelines/fetch/live.ts';
import { shardOf } from '../control/shard-assignment.ts';
import type { ShardLease } from '../control/shard-leases.ts';
import { findPipeline, loadPipelines } from '../pipelines/pipeline-config.ts';
import { runPipeline, type RunStatus } from '../pipelines/run-pipeline.ts';
import type { RunTrigger } from '../db/control-plane.ts';
import { replicateToShard, shareLandedCogs } from './replicate.ts';
import { forgetRelayed, readOutbox, relayOutbox, type Outbox } from './relay-events.ts';
import { copyFenced, relandMissing, restoreShard, shardHome, sharedShard } from './shard-home.ts';
import type { Metrics } from '../metrics/metrics.ts';
import type { ScaleConfig } from './scale-config.ts';
import { connectionIds } from '../control/connections/connections.ts';
import { loadStagesOf, setLoadStage } from '../control/connections/load-stages.ts';
import { recordShardRunFinished, recordShardRunStarted } from './shard-runs.ts';

/** What a worker needs to run a pipeline on a shard it holds. */
export interface ShardRunContext {
  store: ControlStore;
  config: ScaleConfig;
  /** the worker's own disk, where its shards' warehouses live */
  workDir: string;
  worker: string;
  lease: ShardLease;
  log: (message: string) => void;
  /** The worker's metrics, when its listener serves them: the run, its fetches and landings are counted. */
  metrics?: Metrics;
}

/** How a shard's run ended, as the job's output and `mktdata run` report it. */
export interface ShardRunResult {
  shard: string;
  pipeline: string;
  runId: string | null;
  status: RunStatus | 'fenced';
  windows: number;
}

/** The shard's connections among every connection of the control plane (rendezvous hashing over the shards). */
export async function shardConnections(store: ControlStore, config: ScaleConfig, shard: string): Promise<string[]> {
  return (await connectionIds(store.db)).filter((id) => shardOf(id, config.shards) === shard);
}

/**
 * One pipeline run of a shard on the worker holding it: the local warehouse made current (kept, or restored from
 * the shard's checkpoint after a takeover, with the documents landed since put back in landing/), the shard's
 * control rows copied from PostgreSQL, the ordinary run (land, plan, fetch, build, publish), then the published
 * snapshot and the checkpoint copied to the shared folder, and the webhook events the run derived relayed to the
 * shared outbox, under the lease's fence. A worker that lost the shard
 * meanwhile shares nothing ("fenced"): its build is discarded and the new holder's stands.
 */
export async function runShard(
  ctx: ShardRunContext,
  job: { id: string; pipeline: string; trigger: RunTrigger },
): Promise<ShardRunResult> {
  const pipelineName = job.pipeline;
  const { store, config, lease } = ctx;
  const home = shardHome(ctx.workDir, config.sharedDir, lease.shard);
  const how = restoreShard(home, config.sharedDir, lease);
  if (how !== 'kept')
    ctx.log(
      `${lease.shard}: ${how === 'restored' ? 'restored from its checkpoint' : 'started empty'} (fencing token ${lease.token})`,
    );
  const id = randomUUID();
  await recordShardRunStarted(store.db, {
    id,
    run_id: null,
    job_id: job.id,
    shard: lease.shard,
    pipeline: pipelineName,
    worker: ctx.worker,
    token: lease.token,
    started_at: new Date().toISOString(),
    finished_at: null,
    status: 'running',
    windows: null,
    error: null,
  });
  const finish = (status: ShardRunResult['status'], runId: string | null, windows: number, error: string | null) =>
    recordShardRunFinished(store.db, id, { status, run_id: runId, windows, error });
  const wh = await openWarehouse(home, `worker ${lease.shard}`, { create: true });
  let summary;
  let outbox: Outbox;
  try {
    const connections = await shardConnections(store, config, lease.shard);
    await replicateToShard(store, wh, connections);
    await forgetRelayed(wh, store);
    const relanded = await relandMissing(wh, connections);
    if (relanded > 0)
      ctx.log(`${lease.shard}: ${relanded} landed document(s) its checkpoint did not have put back in landing/`);
    const since = new Date();
    const { metrics } = ctx;
    const fetcher = await liveFetcher(wh, {
      onWarning: ctx.log,
      log: metrics?.connectorLog,
      onFetched: metrics && ((e) => metrics.fetched(e)),
      onDocumentLanded: metrics && ((r) => metrics.landed(r)),
    });
    const started = performance.now();
    summary = await runPipeline(wh, findPipeline(loadPipelines(), pipelineName), {
      trigger: job.trigger,
      fetcher,
      onLanded: metrics && ((r) => metrics.landed(r)),
    }).catch((error: unknown) => {
      metrics?.pipelineRun(pipelineName, (performance.now() - started) / 1000);
      throw error;
    });
    metrics?.pipelineRun(pipelineName, (performance.now() - started) / 1000, summary);
    await shareLandedCogs(wh, store, connections, since);
    // The connections' load stages are the shard's to keep; the API answers them from the shared control plane.
    for (const s of await loadStagesOf(wh.db, connections)) await setLoadStage(store.db, s.id, s.initial_load_stage);
    outbox = await readOutbox(wh);
  } catch (error) {
    await finish('failed', summary?.runId ?? null, 0, String((error as Error).message ?? error));
    throw error;
  } finally {
    await wh.close();
  }
  const shared = sharedShard(config.sharedDir, lease.shard);
  const files = [{ from: home.warehouse, to: shared.checkpoint }];
  if (existsSync(home.published)) {
    files.unshift(
      { from: home.published, to: join(shared.published, 'warehouse.duckdb') },
      { from: join(home.publishedDir, 'manifest.json'), to: join(shared.published, 'manifest.json') },
    );
  }
  let fenced: boolean;
  try {
    fenced = !(await copyFenced(store, lease, files, (trx) => relayOutbox(trx, outbox)));
  } catch (error) {
    await finish(
      'failed',
      summary.runId,
      summary.windows.length,
      `sharing the shard's snapshot failed: ${String((error as Error).message ?? error)}`,
    );
    throw error;
  }
  const status = fenced ? 'fenced' : summary.status;
  await finish(
    status,
    summary.runId,
    summary.windows.length,
    fenced ? `the lease on ${lease.shard} was taken over: this build is discarded` : null,
  );
  return { shard: lease.shard, pipeline: pipelineName, runId: summary.runId, status, windows: summary.windows.length };
}
