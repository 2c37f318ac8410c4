import { afterEach, describe, expect, it } from 'vitest';
import { setCredentials } from '../../src/connectors/credentials.ts';
import type { Warehouse } from '../../src/db/warehouse.ts';
import { demoConnections } from '../../src/demo/demo-marketplace.ts';
import { demoSellers, type FakeMarketplace } from '@mktdata/fake-marketplace';
import { findPipeline, loadPipelines } from '../../src/pipelines/pipeline-config.ts';
import { runPipeline } from '../../src/pipelines/run-pipeline.ts';
import { compareHomes } from '../helpers/compare-homes.ts';
import { demoHome, liveMarketplace, START } from '../helpers/live.ts';
import { contractViolations } from '../helpers/contracts.ts';

const stageOf = async (wh: Warehouse, id: string) =>
  (
    await wh.db
      .selectFrom('control.connections')
      .select('initial_load_stage')
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
  ).initial_load_stage;

describe('a first load whose grant the marketplace refuses', () => {
  const homes: Warehouse[] = [];
  let fake: FakeMarketplace | undefined;
  afterEach(async () => {
    for (const wh of homes.splice(0)) await wh.close();
    await fake?.close();
  });

  it('is not done, and once the seller connects again ends with the rows of a connection that had the right token', async () => {
    // The sellers opened 50 days before the first load; their data is served as it stood at START, so that two
    // homes fetching the same windows minutes apart get the same documents. Home B's seller is US's twin (the same
    // data under another merchant id): the marketplace refuses a second FBA report of one window within hours.
    const sellers = demoSellers('2026-10-01');
    const twin = { ...sellers[0]!, sellerId: 'A3ACMEUS0TWIN00' };
    const live = await liveMarketplace({
      start: START,
      openedOn: '2026-10-01',
      sellers: [...sellers, twin],
      dataAsOf: Date.parse(START),
    });
    fake = live.fake;
    const a = await demoHome('mktdata-lapsed-a-');
    const b = await demoHome('mktdata-lapsed-b-');
    homes.push(a.wh, b.wh);
    // The US connection fetches (SP-API only); the DE one has no credentials: it is fed by dropped files.
    const us = demoConnections[0]!.id;
    const seller = live.sellers[0]!;
    const grant = (wh: Warehouse, refreshToken: string, sellerId = seller.sellerId) =>
      setCredentials(wh, us, { api: 'sp-api', refreshToken, sellingPartnerId: sellerId });
    const pipeline = findPipeline(loadPipelines(), 'profit');

    await grant(a.wh, 'Atzr|a-token-the-marketplace-never-issued');
    const refused = await runPipeline(a.wh, pipeline, { fetcher: live.fetcher });
    // DE's windows were built from its (no) dropped files; none of US's is done, and each says why.
    expect(refused.status).toBe('partial');
    const windows = await a.wh.db
      .selectFrom('control.run_windows')
      .selectAll()
      .where('run_id', '=', refused.runId)
      .where('connection_id', '=', us)
      .execute();
    expect(windows.length).toBeGreaterThan(0);
    expect(windows.filter((w) => w.status === 'success')).toEqual([]);
    for (const w of windows)
      expect(w.error).toMatch(
        /^not fetched: \S+ .*: not tried: the SP-API grant needs re-authorization \(.*invalid_grant/,
      );
    expect(await stageOf(a.wh, us)).toBe('FIRST_STAGE');
    const credentials = await a.wh.db
      .selectFrom('control.connection_credentials')
      .select('status')
      .where('connection_id', '=', us)
      .executeTakeFirstOrThrow();
    expect(credentials.status).toBe('needs_reauthorization');

    // The seller connects again (A), and a home whose seller had the right token from the start (B) loads then too.
    await grant(a.wh, live.fake.grant(seller.sellerId, 'sp-api'));
    await grant(b.wh, live.fake.grant(twin.sellerId, 'sp-api'), twin.sellerId);
    const now = new Date(live.clock.now());
    const resumed = await runPipeline(a.wh, pipeline, { now, fetcher: live.fetcher });
    const straight = await runPipeline(b.wh, pipeline, { now, fetcher: live.fetcher });
    expect([resumed.status, straight.status]).toEqual(['success', 'success']);
    expect([await stageOf(a.wh, us), await stageOf(b.wh, us)]).toEqual(['COMPLETE', 'COMPLETE']);

    const tables = await compareHomes(a.home, b.home);
    expect(tables.filter((t) => t.onlyA > 0 || t.onlyB > 0)).toEqual([]);
    // Both hold the history from the day the seller opened, not only the first stage's 30 days.
    const items = tables.find((t) => t.table === 'mkt_order_items_with_cogs')!;
    expect(items.rows).toBeGreaterThan(0);
    const oldest = await a.wh.sql.runAndReadAll(
      `select min(timezone('America/Los_Angeles', purchased_at))::date::varchar from staging.stg_mkt__order_items where connection_id = '${us}'`,
    );
    expect(oldest.getRowsJson()[0]![0]).toBe('2026-10-01');
    expect(contractViolations(live.fake)).toEqual([]);
  });
});
