import { afterEach, describe, expect, it } from 'vitest';
import type { Warehouse } from '../../src/db/warehouse.ts';
import type { FakeMarketplace } from '../../src/fake-marketplace/server.ts';
import { loadPipelines } from '../../src/pipelines/pipeline-config.ts';
import { runPipeline } from '../../src/pipelines/run-pipeline.ts';
import { compareHomes } from '../helpers/compare-homes.ts';
import { connectAll, demoHome, dropNewDocuments, liveMarketplace } from '../helpers/live.ts';

const DAY = 86_400_000;
// A first load on Friday 2026-11-20 at 10:30 in Los Angeles (18:30Z), then three daily runs at the same time. The
// sellers opened on 2026-06-01: the first load's older windows hold nothing and end CANCELLED.
const START = '2026-11-20T18:30:00Z';
const OPENED_ON = '2026-06-01';

/**
 * Home A fetches through the connectors; after each of its pipeline runs, the documents A landed are dropped by hand
 * into home B's landing folder and B runs the same pipeline at the same clock: the published tables must agree.
 */
async function firstLoadAndThreeDays(live: Awaited<ReturnType<typeof liveMarketplace>>, homes: Warehouse[]) {
  const a = await demoHome('mktdata-live-a-');
  const b = await demoHome('mktdata-live-b-');
  homes.push(a.wh, b.wh);
  await connectAll(a.wh, live.fake, live.sellers);
  const seen = new Set<string>();
  for (let day = 0; day < 4; day++) {
    if (day > 0) live.clock.jump(DAY);
    for (const pipeline of loadPipelines()) {
      const now = new Date(live.clock.now());
      await runPipeline(a.wh, pipeline, { now, fetcher: live.fetcher });
      dropNewDocuments(a.home, b.home, seen);
      await runPipeline(b.wh, pipeline, { now });
    }
  }
  return { a, b, documents: seen.size };
}

describe('live connectors against the fake marketplace', () => {
  const homes: Warehouse[] = [];
  let fake: FakeMarketplace | undefined;
  afterEach(async () => {
    for (const wh of homes.splice(0)) await wh.close();
    await fake?.close();
  });

  it('a first load and three daily runs give the tables that landing the same documents by hand gives', async () => {
    const live = await liveMarketplace({ speed: 2000, start: START, openedOn: OPENED_ON });
    fake = live.fake;
    const { a, b, documents } = await firstLoadAndThreeDays(live, homes);
    expect(documents).toBeGreaterThan(100);
    const tables = await compareHomes(a.home, b.home);
    // Every table but unit costs and promotions (no upstream operation: only dropped files feed them) has rows.
    expect(tables.filter((t) => t.rows === 0).map((t) => t.table).sort()).toEqual(['mkt_cogs', 'mkt_promotion_items', 'mkt_promotions']);
    expect(tables.filter((t) => t.onlyA > 0 || t.onlyB > 0 || t.duplicates > 0)).toEqual([]);
    expect(live.fake.log.filter((e) => e.overRate)).toEqual([]);
  }, 600_000);

  it('ends with the same tables when the marketplace throttles, fails reports and answers 5xx, without a request beyond the documented rate', async () => {
    const live = await liveMarketplace({ speed: 2000, start: START, openedOn: OPENED_ON, seed: 7 });
    fake = live.fake;
    live.fake.setSwitch('createReport', { fatalRate: 0.2 });
    live.fake.setSwitch('getReport', { throttleRate: 0.1, serverErrorRate: 0.05 });
    live.fake.setSwitch('getReportDocument', { serverErrorRate: 0.1 });
    live.fake.setSwitch('createAdsReport', { failedRate: 0.2 });
    const { a, b } = await firstLoadAndThreeDays(live, homes);
    const tables = await compareHomes(a.home, b.home);
    expect(tables.filter((t) => t.onlyA > 0 || t.onlyB > 0 || t.duplicates > 0)).toEqual([]);
    // The switches did act: reports ended FATAL and requests were throttled, and the client retried them.
    expect(live.events.some((e) => e.status === 'failed' && /FATAL/.test(e.error ?? ''))).toBe(true);
    expect(live.fake.log.some((e) => e.status === 429)).toBe(true);
    expect(live.fake.log.filter((e) => e.overRate)).toEqual([]);
  }, 600_000);
});
