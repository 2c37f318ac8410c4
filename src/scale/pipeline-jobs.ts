import PgBoss from 'pg-boss';

/** The queue of pipeline runs, one job per (pipeline, shard) wanted. */
export const PIPELINE_QUEUE = 'mktdata-pipeline-runs';

/** A pipeline run wanted for the connections of one shard. */
export interface PipelineJob {
  pipeline: string;
  shard: string;
  /** Why: a schedule's slot, a COGS change, an operator. */
  reason: string;
}

/**
 * The job queue of a scaled-out install: pg-boss in PostgreSQL's schema `mktdata_jobs`. The pipeline-run queue is
 * `stately`: per (pipeline, shard) at most one job waits and one runs, so asking again while one waits adds
 * nothing, and asking while one runs queues exactly one more (for what changed since it started). A failed job is
 * retried three times, 30 s apart and backing off; one running longer than an hour is given up and retried.
 */
export async function openJobQueue(url: string, onError: (error: Error) => void = (error) => console.error(`job queue: ${error.message}`)): Promise<PgBoss> {
  const boss = new PgBoss({ connectionString: url, schema: 'mktdata_jobs', application_name: 'mktdata' });
  boss.on('error', onError);
  await boss.start();
  await boss.createQueue(PIPELINE_QUEUE, { name: PIPELINE_QUEUE, policy: 'stately', retryLimit: 3, retryDelay: 30, retryBackoff: true, expireInSeconds: 3600 });
  return boss;
}

/** Asks for a pipeline run of a shard; the job id, or null when one already waits for it. */
export function requestPipelineRun(boss: PgBoss, job: PipelineJob): Promise<string | null> {
  return boss.send(PIPELINE_QUEUE, job, { singletonKey: `${job.pipeline}:${job.shard}` });
}
