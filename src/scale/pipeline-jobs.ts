import { setTimeout as delay } from 'node:timers/promises';
import PgBoss from 'pg-boss';
import { sql } from 'kysely';
import type { ControlStore } from '../db/control-store.ts';

/**
 * The queue of a shard's pipeline runs: one queue per shard, so that a worker takes jobs of the shards it holds only.
 */
export const queueOf = (shard: string) => `mktdata-pipeline-runs-${shard}`;

/** A pipeline run wanted for the connections of one shard. */
export interface PipelineJob {
  pipeline: string;
  shard: string;
  /** Why: a schedule's slot, an operator's `mktdata run`, a shard taken over with a run unfinished. */
  reason: string;
}

/** How long a job may run before pg-boss gives it up and retries it (MKTDATA_JOB_TIMEOUT_SECONDS). @default 3600 */
export function jobTimeoutSeconds(env: NodeJS.ProcessEnv = process.env): number {
  const seconds = Number(env.MKTDATA_JOB_TIMEOUT_SECONDS ?? 3600);
  if (!Number.isInteger(seconds) || seconds < 1)
    throw new Error(
      `MKTDATA_JOB_TIMEOUT_SECONDS must be a whole number of seconds, not ${env.MKTDATA_JOB_TIMEOUT_SECONDS}`,
    );
  return seconds;
}

/**
 * The job queue of a scaled-out install: pg-boss in PostgreSQL's schema `mktdata_jobs`, one queue per shard. Each
 * queue is `stately` and keyed by pipeline: per (pipeline, shard) at most one job waits and one runs, so asking
 * again while one waits adds nothing, and asking while one runs queues exactly one more (for what changed since it
 * started). A failed job is retried three times, 30 s apart and backing off; one running past its timeout (its
 * worker died) is given up and retried.
 */
export async function openJobQueue(
  url: string,
  shards: readonly string[],
  onError: (error: Error) => void = (error) => console.error(`job queue: ${error.message}`),
): Promise<PgBoss> {
  const boss = new PgBoss({ connectionString: url, schema: 'mktdata_jobs', application_name: 'mktdata' });
  boss.on('error', onError);
  await boss.start();
  // Processes starting together create the same queues at once; PostgreSQL then answers one of them with a
  // deadlock or a duplicate, and that one looks again.
  for (let attempt = 1; ; attempt++) {
    try {
      const existing = new Set((await boss.getQueues()).map((q) => q.name));
      for (const name of shards.map(queueOf).filter((n) => !existing.has(n))) {
        await boss.createQueue(name, {
          name,
          policy: 'stately',
          retryLimit: 3,
          retryDelay: 30,
          retryBackoff: true,
          expireInSeconds: 3600,
        });
      }
      return boss;
    } catch (error) {
      if (attempt >= 5 || !/deadlock|duplicate key|already exists/i.test(String(error))) {
        await boss.stop({ graceful: false, wait: true });
        throw error;
      }
      await delay(100 + Math.random() * 400 * attempt);
    }
  }
}

/** Asks for a pipeline run of a shard; the job id, or null when one already waits for it. */
export function requestPipelineRun(boss: PgBoss, job: PipelineJob): Promise<string | null> {
  return boss.send(queueOf(job.shard), job, { singletonKey: job.pipeline, expireInSeconds: jobTimeoutSeconds() });
}

/**
 * Gives up the jobs of a shard's queue that are running (a worker that just took the shard over knows they are its
 * former holder's: it has started none) and queues their pipelines again; returns those pipelines. A stately queue
 * starts one job per pipeline at a time, so a dead worker's job would hold the place until it timed out. pg-boss 10
 * lists no running jobs, so they are read from its job table (schema `mktdata_jobs`).
 */
export async function requeueRunning(
  store: ControlStore,
  boss: PgBoss,
  shard: string,
  reason: string,
): Promise<string[]> {
  const { rows } = await sql<{
    id: string;
    pipeline: string;
  }>`select id::text as id, data->>'pipeline' as pipeline from mktdata_jobs.job where name = ${queueOf(shard)} and state = 'active'`.execute(
    store.db,
  );
  if (rows.length === 0) return [];
  await boss.cancel(
    queueOf(shard),
    rows.map((r) => r.id),
  );
  const pipelines = [...new Set(rows.map((r) => r.pipeline))];
  for (const pipeline of pipelines) await requestPipelineRun(boss, { pipeline, shard, reason });
  return pipelines;
}
