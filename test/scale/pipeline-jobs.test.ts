// The pipeline-run queue of a scaled-out install (issue: scale-out, "Workers"): pg-boss on Debian's PostgreSQL,
// started by the test. Per (pipeline, shard), asking again while a run waits adds nothing; asking while one runs
// queues one more; a failed run is retried. Each shard has its own queue: a worker takes the jobs of its shards only.
import type PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openJobQueue, queueOf, requestPipelineRun, type PipelineJob } from '../../src/scale/pipeline-jobs.ts';
import { postgresMissing, startPostgres } from '../helpers/postgres.ts';

if (postgresMissing) console.warn(postgresMissing);

describe.skipIf(postgresMissing !== null)('pipeline runs queued per shard (pg-boss on PostgreSQL)', () => {
  let server: Awaited<ReturnType<typeof startPostgres>>;
  let boss: PgBoss;
  const take = async (shard: string) => (await boss.fetch<PipelineJob>(queueOf(shard)))[0];

  beforeAll(async () => {
    server = await startPostgres();
    boss = await openJobQueue(server.url, ['shard-a', 'shard-b']);
  });
  afterAll(async () => {
    await boss?.stop({ graceful: false, wait: true });
    server?.stop();
  });

  it('keeps one waiting and one running run per pipeline and shard, and retries a failed one', async () => {
    const profit = (shard: string) => ({ pipeline: 'profit', shard, reason: 'schedule 2026-11-26T10:00' });
    const first = await requestPipelineRun(boss, profit('shard-a'));
    expect(first).toEqual(expect.any(String));
    expect(await requestPipelineRun(boss, profit('shard-a'))).toBeNull(); // one waits already
    expect(await requestPipelineRun(boss, profit('shard-b'))).toEqual(expect.any(String)); // another shard
    const running = [await take('shard-a'), await take('shard-b')];
    expect(running.map((j) => j?.data.shard).sort()).toEqual(['shard-a', 'shard-b']);
    const again = await requestPipelineRun(boss, profit('shard-a')); // a's run is active: one more may wait
    expect(again).toEqual(expect.any(String));
    expect(await requestPipelineRun(boss, profit('shard-a'))).toBeNull();

    const a = running.find((j) => j?.data.shard === 'shard-a')!;
    await boss.fail(queueOf('shard-a'), a.id, { message: 'worker lost its shard lease' });
    const retried = await boss.getJobById(queueOf('shard-a'), a.id);
    // Back in the queue, due after the retry delay (30 s backing off with jitter: 30 to 60 s the first time), the
    // reason kept.
    expect(retried).toMatchObject({
      state: 'retry',
      retryLimit: 3,
      output: { message: 'worker lost its shard lease' },
    });
    expect(retried!.startAfter.getTime()).toBeGreaterThan(Date.now() + 25_000);
    await boss.complete(queueOf('shard-b'), running.find((j) => j?.data.shard === 'shard-b')!.id);
    expect(
      await boss.getJobById(queueOf('shard-b'), running.find((j) => j?.data.shard === 'shard-b')!.id),
    ).toMatchObject({ state: 'completed' });
  });
});
