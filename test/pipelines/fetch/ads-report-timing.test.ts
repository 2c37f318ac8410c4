// An Ads report is timed by the marketplace's own stamps (its `createdAt` and `generatedAt`), as an SP-API report is by
// its `createdTime` and `processingEndTime`: `mktdata_report_processing_seconds` shows how long the marketplace took.
import { afterEach, describe, expect, it } from 'vitest';
import type { FakeMarketplace } from '@mktdata/fake-marketplace';
import { requireCredentials } from '../../../src/connectors/credentials.ts';
import type { Warehouse } from '../../../src/db/warehouse.ts';
import { demoConnections } from '../../../src/demo/demo-marketplace.ts';
import { landFile } from '../../../src/ingest/land-file.ts';
import { findSource } from '../../../src/ingest/sources/index.ts';
import { fetchAdsReport } from '../../../src/pipelines/fetch/ads-report.ts';
import { insertFetches } from '../../../src/pipelines/fetch/fetch-requests.ts';
import { fetchSpecs } from '../../../src/pipelines/fetch/fetch-specs.ts';
import type { HandlerContext } from '../../../src/pipelines/fetch/handler.ts';
import { upstreamRequest } from '../../../src/pipelines/fetch/upstream-request.ts';
import { connectAll, demoHome, liveMarketplace, START } from '../../helpers/live.ts';

const SOURCE = 'ads.spAdvertisedProduct';

describe('an Ads report fetched', () => {
  let fake: FakeMarketplace | undefined;
  let wh: Warehouse | undefined;
  afterEach(async () => {
    await wh?.close();
    await fake?.close();
  });

  it('is timed from the marketplace creating it to generating it', async () => {
    const home = await demoHome('mktdata-ads-timing-');
    wh = home.wh;
    const live = await liveMarketplace({ start: START, openedOn: '2026-11-01' });
    fake = live.fake;
    await connectAll(wh, live.fake, live.sellers);
    const seller = live.sellers.findIndex((s) => s.ads);
    const connection = { id: demoConnections[seller]!.id, marketplaceId: live.sellers[seller]!.marketplaceId };
    const planned = { connectionId: connection.id, source: SOURCE, stage: null, from: '2026-11-10', to: '2026-11-12' };
    const request = upstreamRequest(
      fetchSpecs.get(SOURCE)!,
      planned,
      { ...connection, timezone: 'America/Los_Angeles' },
      live.clock.now(),
    );
    const [fetch] = await insertFetches(wh, null, [{ ...planned, request }], new Date(live.clock.now()));
    const ads = live.connectors.ads(await requireCredentials(wh, connection.id, 'ads'));
    const ctx: HandlerContext = {
      wh,
      clock: live.clock,
      connection: { ...connection, timezone: 'America/Los_Angeles', sellingPartnerId: null },
      ads,
      land: (file) => landFile(wh!, findSource(SOURCE), connection, file),
      update: async () => {},
      spawn: () => {},
      pollBudgetMs: 45 * 60_000,
    };

    const outcome = await fetchAdsReport(ctx, fetch!);

    expect(outcome.status).toBe('landed');
    // The report as the marketplace describes it now: its processing time is the difference of its two stamps, and
    // the polls waited on the clock (PENDING, then PROCESSING) before it was generated.
    const reportId = live.fake.log.find((e) => e.api === 'ads' && e.operation === 'createReport')!.detail.reportId as string;
    const report = await ads.getReport(reportId);
    const expected = Date.parse(report.generatedAt!) - Date.parse(report.createdAt!);
    expect(expected).toBeGreaterThan(0);
    expect(outcome.status === 'landed' && outcome.processingMs).toBe(expected);
  });
});
