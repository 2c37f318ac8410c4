import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Warehouse } from '../../src/db/warehouse.ts';
import type { FakeMarketplace } from '@mktdata/fake-marketplace';
import { findPipeline, loadPipelines } from '../../src/pipelines/pipeline-config.ts';
import { runPipeline } from '../../src/pipelines/run-pipeline.ts';
import { connectAll, demoHome, liveMarketplace, START } from '../helpers/live.ts';
import { contractViolations } from '../helpers/contracts.ts';
import { type RunFetcher } from '../../src/pipelines/fetch/fetch-stage.ts';

describe("a first load's two stages through the live connectors", () => {
  const homes: Warehouse[] = [];
  let fake: FakeMarketplace | undefined;
  afterEach(async () => {
    for (const wh of homes.splice(0)) await wh.close();
    await fake?.close();
  });

  it('asks for the history before the first stage builds, and lands it only once the first stage is published', async () => {
    // What happened, in order: the run's two fetches, its models' results, and the fetched documents' landings.
    const events: string[] = [];
    const a = await demoHome('mktdata-stages-');
    homes.push(a.wh);
    const manifest = join(a.home.publishedDir, 'manifest.json');
    let fetches = 0;
    // Sellers opened on 2026-09-01: the first load of 2026-11-20 has about fifty days of history before its first 30.
    const live = await liveMarketplace({
      start: START,
      openedOn: '2026-09-01',
      onLanded: (results) =>
        events.push(
          `landed ${fetches === 2 ? 'history' : 'first stage'} ${results.length}: ${existsSync(manifest) ? 'published' : 'unpublished'}`,
        ),
    });
    fake = live.fake;
    await connectAll(a.wh, live.fake, live.sellers);
    const fetcher: RunFetcher = {
      now: live.fetcher.now,
      fetch(wh, phase) {
        fetches += 1;
        events.push(`fetch ${phase.first ? 'first stage' : 'history'}`);
        return live.fetcher.fetch(wh, phase);
      },
    };
    const pipeline = findPipeline(loadPipelines(), 'profit');
    const summary = await runPipeline(a.wh, pipeline, {
      now: new Date(live.clock.now()),
      fetcher,
      onResult: (r) => events.push(`model ${r.status}`),
    });
    expect(summary.status).toBe('success');

    const historyAsked = events.indexOf('fetch history');
    const firstModel = events.findIndex((e) => e.startsWith('model'));
    const historyLanded = events.findIndex((e) => e.startsWith('landed history'));
    // Two fetches: the first stage's, then the history's, asked before the first stage's first model ran.
    expect(events.filter((e) => e.startsWith('fetch'))).toEqual(['fetch first stage', 'fetch history']);
    expect(firstModel).toBeGreaterThan(historyAsked);
    // The first stage landed before any model ran, unpublished (a fresh home); the history landed after the first
    // stage's models and its publish, and the second stage's models ran after it.
    expect(
      events
        .slice(0, firstModel)
        .filter((e) => e.startsWith('landed'))
        .every((e) => e.startsWith('landed first stage') && e.endsWith('unpublished')),
    ).toBe(true);
    expect(historyLanded).toBeGreaterThan(firstModel);
    expect(events.filter((e) => e.startsWith('landed history')).every((e) => e.endsWith(': published'))).toBe(true);
    expect(events.slice(historyLanded).some((e) => e.startsWith('model'))).toBe(true);
    expect(events.filter((e) => e.startsWith('model') && e !== 'model success')).toEqual([]);
    // The connection's first load is complete, and nothing was asked beyond the documented rates.
    const stages = await a.wh.db.selectFrom('control.connections').select('initial_load_stage').execute();
    expect(stages.map((s) => s.initial_load_stage)).toEqual(['COMPLETE', 'COMPLETE']);
    expect(live.fake.log.filter((e) => e.overRate)).toEqual([]);
    expect(contractViolations(live.fake)).toEqual([]);
  });
});
