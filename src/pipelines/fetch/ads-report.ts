import { rmSync } from 'node:fs';
import { ConnectorError } from '../../connectors/connector-error.ts';
import { downloadDocument } from '../../connectors/download.ts';
import type { FetchRequest } from './fetch-requests.ts';
import { documentPath } from './document-file.ts';
import { keepAndLand, UpstreamFailure, type HandlerContext, type Outcome } from './handler.ts';
import { adsReportPolls, pollUntil } from './poll.ts';

/** An Ads API report that FAILED is asked for again an hour later at the earliest, doubling with each attempt. */
const failedCoolDown = (attempts: number) => 60 * 60_000 * 2 ** Math.max(0, attempts - 1);

/**
 * An Ads API v3 report: created (an identical one still generating is reused, never fought), polled with growing
 * intervals, its gzip JSON downloaded to the landing folder and landed.
 */
export async function fetchAdsReport(ctx: HandlerContext, request: FetchRequest): Promise<Outcome> {
  if (request.request.kind !== 'ads-report') throw new Error(`not an Ads report request: ${request.id}`);
  const ads = ctx.ads!;
  const body = request.request.body;
  let reportId = request.upstreamId;
  if (!reportId) {
    if (body.configuration.adProduct === 'DEMAND_SIDE_PLATFORM' && !body.configuration.filters) {
      // DSP reports through v3 name the advertisers they cover (docs/design/live-apis.md §4).
      const advertisers = await ads.listDspAdvertisers();
      if (advertisers.length === 0) return { status: 'empty', reason: 'the advertising account has no DSP advertiser' };
      body.configuration.filters = [
        { field: 'advertiserId', values: advertisers.slice(0, 100).map((a) => String(a.advertiserId)) },
      ];
      await ctx.update({ request: request.request });
    }
    await ctx.update({
      status: 'creating',
      attempts: request.attempts + 1,
      requestedAt: new Date(ctx.clock.now()).toISOString(),
    });
    reportId = (await ads.createReport(body)).reportId;
  }
  await ctx.update({ status: 'requested', upstreamId: reportId });
  for (let attempt = 1; ; attempt++) {
    const report = await pollUntil(
      ctx.clock,
      () => ads.getReport(reportId!),
      (r) => r.status === 'COMPLETED' || r.status === 'FAILED',
      adsReportPolls,
      ctx.clock.now() + ctx.pollBudgetMs,
    );
    if (!report) return { status: 'pending' };
    if (report.status === 'FAILED')
      throw new UpstreamFailure(
        `the Ads report FAILED: ${report.failureReason ?? 'no reason given'}`,
        failedCoolDown(request.attempts + 1),
      );
    const temp = documentPath(ctx.wh.home, request, { upstreamId: reportId, extension: 'tmp', at: ctx.clock.now() });
    try {
      const got = await downloadDocument(report.url!, { file: temp, clock: ctx.clock });
      const outcome = await keepAndLand(
        ctx,
        request,
        temp,
        { upstreamId: reportId, extension: 'json' },
        {
          api: 'ads',
          reportTypeId: body.configuration.reportTypeId,
          reportId,
          generatedAt: report.generatedAt ?? null,
          bytes: got.bytes,
          sha256: got.sha256,
        },
      );
      // The marketplace's own stamps, as for SP-API reports: a report resumed by a later run is timed from its start.
      const processingMs = Date.parse(report.generatedAt ?? '') - Date.parse(report.createdAt ?? '');
      return outcome.status === 'landed' && processingMs >= 0 ? { ...outcome, processingMs } : outcome;
    } catch (error) {
      rmSync(temp, { force: true });
      // The link lives an hour: a report read again gives a fresh one.
      if (!(error instanceof ConnectorError && error.kind === 'link-expired') || attempt >= 3) throw error;
    }
  }
}
