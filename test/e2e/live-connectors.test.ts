import { afterEach, describe, expect, it } from 'vitest';
import type { Warehouse } from '../../src/db/warehouse.ts';
import type { FakeMarketplace } from '@mktdata/fake-marketplace';
import { compareHomes } from '../helpers/compare-homes.ts';
import { contractViolations, exchangedOperations, fetchOnlyOperations } from '../helpers/contracts.ts';
import { firstLoadAndThreeDays, liveMarketplace, OPENED_ON, START } from '../helpers/live.ts';

// A hang guard, not a time limit: this CPU-bound test takes 3 to 5 minutes alone, and more than 20 beside two other
// copies of the suite on 2 cores (seen: all three copies stopped at a 20-minute guard, still working).
const HANG_GUARD = 3_600_000;

// One first load serves both questions (the whole run is the slowest of the suite): does fetching give the tables that
// landing the same documents by hand gives, and does it still when the marketplace throttles, fails reports and
// answers 5xx, as it does on a bad day (the failure rates below act on a few requests of each kind).
describe('live connectors against the fake marketplace', () => {
  const homes: Warehouse[] = [];
  let fake: FakeMarketplace | undefined;
  afterEach(async () => {
    for (const wh of homes.splice(0)) await wh.close();
    await fake?.close();
  });

  it(
    'a first load and three daily runs give the tables that landing the same documents by hand gives, through throttles, failed reports and 5xx answers, without a request beyond the documented rate',
    async () => {
      // The sizes of the batches the fetched documents landed in.
      const batches: number[] = [];
      const live = await liveMarketplace({
        start: START,
        openedOn: OPENED_ON,
        seed: 7,
        onLanded: (results) => batches.push(results.length),
      });
      fake = live.fake;
      live.fake.setSwitch('createReport', { fatalRate: 0.2 });
      live.fake.setSwitch('getReport', { throttleRate: 0.1, serverErrorRate: 0.05 });
      live.fake.setSwitch('getReportDocument', { serverErrorRate: 0.1 });
      live.fake.setSwitch('createAdsReport', { failedRate: 0.2 });
      const { a, b, documents } = await firstLoadAndThreeDays(live, homes);
      expect(documents).toBeGreaterThan(100);
      // A fetch lands what it downloaded together once nothing is left downloading (here, with no request kept waiting
      // long, one batch per call of a pipeline's fetch: about 26 for some 700 documents), not one document at a time.
      expect(batches.reduce((sum, n) => sum + n, 0)).toBeGreaterThanOrEqual(documents);
      expect(batches.length).toBeLessThan(documents / 10);
      const tables = await compareHomes(a.home, b.home);
      // Every table but unit costs and promotions (no upstream operation: only dropped files feed them) has rows.
      expect(
        tables
          .filter((t) => t.rows === 0)
          .map((t) => t.table)
          .sort(),
      ).toEqual(['mkt_cogs', 'mkt_promotion_items', 'mkt_promotions']);
      expect(tables.filter((t) => t.onlyA > 0 || t.onlyB > 0 || t.duplicates > 0)).toEqual([]);
      expect(live.fake.log.filter((e) => e.overRate)).toEqual([]);
      // The switches did act: reports ended FATAL and requests were throttled, and the client retried them.
      expect(live.events.some((e) => e.status === 'failed' && /FATAL/.test(e.error ?? ''))).toBe(true);
      expect(live.fake.log.some((e) => e.status === 429)).toBe(true);
      // A report that ended FATAL is not read again: its retry asks for a new report.
      const fatal = live.fake.log
        .filter((e) => e.operation === 'getReport' && e.detail.processingStatus === 'FATAL')
        .map((e) => e.detail.reportId as string);
      expect(fatal.length).toBeGreaterThan(0);
      expect(fatal.filter((id, i) => fatal.indexOf(id) !== i)).toEqual([]);
      // Every request was one the published models allow and every answer one they declare (the throttles and failures
      // too, and the retries are requests they allow); every operation only the fetch pipelines call was called.
      expect(contractViolations(live.fake)).toEqual([]);
      const used = exchangedOperations(live.fake);
      expect([...fetchOnlyOperations].filter((o) => !used.has(o))).toEqual([]);
    },
    HANG_GUARD,
  );
});
