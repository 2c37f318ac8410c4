import { setTimeout as delay } from 'node:timers/promises';
import type PgBoss from 'pg-boss';
import type { ControlStore } from '../db/control-store.ts';
import { MktdataError } from '../errors.ts';
import { jobTimeoutSeconds, requestPipelineRun } from './pipeline-jobs.ts';
import type { ScaleConfig } from './scale-config.ts';
import { shardRunsEndedSince } from './shard-runs.ts';

/** A shard's run as `mktdata run` reports it in a scaled-out install. */
export interface ShardRunRow {
  pipeline: string;
  shard: string;
  runId: string | null;
  status: string;
  windows: number | null;
  worker: string;
  error: string | null;
}

/**
 * `mktdata run` in a scaled-out install: a job per (pipeline, shard), then waits until every shard has finished a
 * run of each pipeline started after the request (the workers run them), and returns those runs. Gives up after the
 * job timeout (MKTDATA_JOB_TIMEOUT_SECONDS) when a shard has no worker.
 */
export async function runDistributed(
  store: ControlStore,
  boss: PgBoss,
  config: ScaleConfig,
  pipelines: string[],
  onWaiting?: (shards: string[]) => void,
): Promise<ShardRunRow[]> {
  const since = new Date();
  for (const pipeline of pipelines) {
    for (const shard of config.shards) await requestPipelineRun(boss, { pipeline, shard, reason: 'mktdata run' });
  }
  const deadline = Date.now() + jobTimeoutSeconds() * 1000;
  for (let round = 0; ; round++) {
    const rows = await shardRunsEndedSince(store.db, pipelines, since);
    const done = new Map(rows.map((r) => [`${r.pipeline}\u0000${r.shard}`, r]));
    const waiting = pipelines.flatMap((p) => config.shards.filter((s) => !done.has(`${p}\u0000${s}`)));
    if (waiting.length === 0) {
      return pipelines
        .flatMap((p) => config.shards.map((s) => done.get(`${p}\u0000${s}`)!))
        .map((r) => ({
          pipeline: r.pipeline,
          shard: r.shard,
          runId: r.run_id,
          status: r.status,
          windows: r.windows,
          worker: r.worker,
          error: r.error,
        }));
    }
    if (Date.now() > deadline)
      throw new MktdataError('ERR_SHARDS_UNFINISHED', {
        count: waiting.length,
        seconds: jobTimeoutSeconds(),
        shards: waiting.slice(0, 5).join(', '),
      });
    if (round % 60 === 59) onWaiting?.(waiting);
    await delay(500);
  }
}
