import { afterEach, describe, expect, it } from 'vitest';
import type { Warehouse } from '../../src/db/warehouse.ts';
import type { FakeMarketplace } from '@mktdata/fake-marketplace';
import { compareHomes } from '../helpers/compare-homes.ts';
import { contractViolations } from '../helpers/contracts.ts';
import { firstLoadAndThreeDays, liveMarketplace, OPENED_ON, START } from '../helpers/live.ts';

describe('live connectors against a failing fake marketplace', () => {
  const homes: Warehouse[] = [];
  let fake: FakeMarketplace | undefined;
  afterEach(async () => {
    for (const wh of homes.splice(0)) await wh.close();
    await fake?.close();
  });

  it('ends with the same tables when the marketplace throttles, fails reports and answers 5xx, without a request beyond the documented rate', async () => {
    const live = await liveMarketplace({ start: START, openedOn: OPENED_ON, seed: 7 });
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
    // A report that ended FATAL is not read again: its retry asks for a new report.
    const fatal = live.fake.log
      .filter((e) => e.operation === 'getReport' && e.detail.processingStatus === 'FATAL')
      .map((e) => e.detail.reportId as string);
    expect(fatal.length).toBeGreaterThan(0);
    expect(fatal.filter((id, i) => fatal.indexOf(id) !== i)).toEqual([]);
    // The throttles and failures are answered as the models declare them, and the retries are requests they allow.
    expect(contractViolations(live.fake)).toEqual([]);
  }, 1_200_000); // a hang guard: on a machine busy with other work this CPU-bound test takes several times its 2 to 3 minutes
});
