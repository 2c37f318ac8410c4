import { afterEach, describe, expect, it } from 'vitest';
import type { Warehouse } from '../../src/db/warehouse.ts';
import type { FakeMarketplace } from '@mktdata/fake-marketplace';
import { compareHomes } from '../helpers/compare-homes.ts';
import { firstLoadAndThreeDays, liveMarketplace, OPENED_ON, START } from '../helpers/live.ts';

describe('live connectors against the fake marketplace', () => {
  const homes: Warehouse[] = [];
  let fake: FakeMarketplace | undefined;
  afterEach(async () => {
    for (const wh of homes.splice(0)) await wh.close();
    await fake?.close();
  });

  it('a first load and three daily runs give the tables that landing the same documents by hand gives', async () => {
    // The sizes of the batches the fetched documents landed in.
    const batches: number[] = [];
    const live = await liveMarketplace({
      start: START,
      openedOn: OPENED_ON,
      onLanded: (results) => batches.push(results.length),
    });
    fake = live.fake;
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
  }, 600_000);
});
