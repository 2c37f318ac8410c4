import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Warehouse } from '../../src/db/warehouse.ts';
import { loadPipelines } from '../../src/pipelines/pipeline-config.ts';
import { PipelineScheduler } from '../../src/pipelines/pipeline-scheduler.ts';
import type { RunSummary } from '../../src/pipelines/run-pipeline.ts';
import { makeHome } from '../helpers/home.ts';

describe('PipelineScheduler', () => {
  let wh: Warehouse;
  beforeEach(async () => ({ wh } = await makeHome()));
  afterEach(async () => wh.close());

  it("starts the pipelines whose refresh time is this minute in a connection's marketplace timezone", async () => {
    const runs: RunSummary[] = [];
    const scheduler = new PipelineScheduler(
      wh,
      loadPipelines(),
      () => {},
      { onRun: (run) => runs.push(run) },
    );
    // The homes of makeHome() hold a US (Los Angeles) and a DE (Berlin) connection.
    // 2026-11-20T09:00Z is 10:00 in Berlin (UTC+1): profit and listings refresh at 10am.
    expect(await scheduler.tick(new Date('2026-11-20T09:00:00Z'))).toEqual(['listings', 'profit']);
    await scheduler.idle();
    // 15:00Z is 07:00 in Los Angeles (UTC-8), when the daily reports' pipelines refresh, and 16:00 in Berlin,
    // the 4pm refresh of profit and listings.
    await scheduler.stop();
    const later = new PipelineScheduler(wh, loadPipelines(), () => {});
    expect(await later.tick(new Date('2026-11-20T15:00:00Z'))).toEqual([
      'awd',
      'fba',
      'listings',
      'profit',
      'promotions',
      'replenishment',
    ]);
    await later.stop();
    // 09:01Z is no refresh time anywhere.
    expect(await new PipelineScheduler(wh, loadPipelines(), () => {}).tick(new Date('2026-11-20T09:01:00Z'))).toEqual(
      [],
    );
    expect(runs.map((r) => r.pipeline).sort()).toEqual(['listings', 'profit']);
  });

  it('never overlaps runs of one pipeline: a trigger while it waits is dropped', async () => {
    const runs: RunSummary[] = [];
    const [promotions] = loadPipelines().filter((p) => p.name === 'promotions');
    const scheduler = new PipelineScheduler(
      wh,
      [promotions!],
      () => {},
      { onRun: (run) => runs.push(run) },
    );
    const now = new Date('2026-11-20T15:00:00Z');
    scheduler.trigger(promotions!, now);
    scheduler.trigger(promotions!, now);
    scheduler.trigger(promotions!, now);
    await scheduler.idle();
    expect(runs).toHaveLength(1);
    const recorded = await wh.db
      .selectFrom('control.pipeline_runs')
      .select(['pipeline', 'trigger', 'status'])
      .execute();
    expect(recorded).toEqual([{ pipeline: 'promotions', trigger: 'schedule', status: 'success' }]);
  });

  it('runs once more after a run for a request made while it runs (a seller connected meanwhile), merging requests that wait', async () => {
    const runs: RunSummary[] = [];
    const [promotions] = loadPipelines().filter((p) => p.name === 'promotions');
    let first = true;
    const scheduler = new PipelineScheduler(
      wh,
      [promotions!],
      () => {},
      { onRun: (run) => runs.push(run) },
      async () => {
        // The first run has started (and planned without what comes now): two requests, one run queued after it.
        if (first) {
          first = false;
          expect(scheduler.request({ trigger: 'connected' })).toEqual(['promotions']);
          expect(
            scheduler.request({
              trigger: 'console',
              pipeline: 'promotions',
              refresh: ['00000000-0000-4000-8000-00000000a001'],
            }),
          ).toEqual(['promotions']);
        }
        return undefined;
      },
    );
    scheduler.trigger(promotions!, new Date('2026-11-20T15:00:00Z'));
    await scheduler.idle();
    expect(runs).toHaveLength(2);
    const recorded = await wh.db
      .selectFrom('control.pipeline_runs')
      .select(['trigger'])
      .orderBy('started_at')
      .execute();
    expect(recorded.map((r) => r.trigger)).toEqual(['schedule', 'connected']);
    expect(scheduler.request({ trigger: 'console', pipeline: 'nope' })).toEqual([]);
    // Stopped: what waits does not start.
    scheduler.trigger(promotions!);
    await scheduler.stop();
    expect(runs).toHaveLength(2);
  });
});
