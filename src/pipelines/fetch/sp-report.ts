import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { downloadDocument } from '../../connectors/download.ts';
import { ConnectorError } from '../../connectors/connector-error.ts';
import { createReport, getReport, getReportDocument, listReports } from '../../connectors/sp-reports.ts';
import type { SpApiClient } from '../../connectors/sp-api.ts';
import { documentPath, extensionOf } from './document-file.ts';
import type { FetchRequest } from './fetch-requests.ts';
import { keepAndLand, UpstreamFailure, type HandlerContext, type Outcome } from './handler.ts';
import { pollUntil, spReportPolls } from './poll.ts';
import type { SpReportRequest } from './upstream-request.ts';

const MINUTE = 60_000;
/**
 * Daily FBA reports regenerate every 4 hours, the others (near real-time ones every 30 minutes) sooner
 * (docs/design/live-apis.md §2.3).
 */
const daily = new Set(['GET_FBA_FULFILLMENT_CUSTOMER_RETURNS_DATA', 'GET_FBA_RECOMMENDED_REMOVAL_DATA']);

/** How long to wait before asking again for a report that ended FATAL, doubling with each attempt. */
export function fatalCoolDown(reportType: string, attempts: number): number {
  const base = daily.has(reportType) ? 240 * MINUTE : 30 * MINUTE;
  return base * 2 ** Math.max(0, attempts - 1);
}

/**
 * How far before our own `requestedAt` a report created by that request may be stamped: this machine's clock and
 * the marketplace's disagree a little. Less than the shortest FATAL cool-down, so an earlier attempt's report of
 * the same window is never taken for this one.
 */
const CLOCK_SKEW_MS = 15 * MINUTE;

/**
 * The report a killed run created but did not record (it died between the 202 and the write): the newest report of
 * the same type and window created since the request was made, if any (getReports is 0.0222/s: used only here).
 */
async function findCreated(sp: SpApiClient, body: SpReportRequest, since: number): Promise<string | null> {
  for await (const report of listReports(sp, {
    reportTypes: [body.reportType],
    marketplaceIds: body.marketplaceIds,
    createdSince: new Date(since - CLOCK_SKEW_MS).toISOString(),
    pageSize: 100,
  })) {
    if (sameTime(report.dataStartTime, body.dataStartTime) && sameTime(report.dataEndTime, body.dataEndTime))
      return report.reportId;
  }
  return null;
}

/**
 * Whether the time a report echoes is the one requested. Amazon echoes windows converted to UTC (+00:00); a sales and
 * traffic window may come back reduced to its date (`2026-11-07`, or that date at UTC midnight, for
 * `2026-11-07T00:00:00-08:00`): such an echo is compared with the requested local date.
 */
export function sameTime(echoed: string | undefined, sent: string | undefined): boolean {
  if (echoed === undefined || sent === undefined) return echoed === sent;
  if (Date.parse(echoed) === Date.parse(sent)) return true;
  return /^\d{4}-\d{2}-\d{2}(T00:00:00(\.0+)?(Z|\+00:00))?$/.test(echoed) && echoed.slice(0, 10) === sent.slice(0, 10);
}

/** The text of a FATAL report's error document, when it has one (a few hundred bytes of JSON or text). */
async function errorText(ctx: HandlerContext, documentId: string | undefined): Promise<string> {
  if (!documentId) return 'the report ended FATAL without an error document';
  const document = await getReportDocument(ctx.sp!, documentId);
  const file = join(ctx.wh.home.tmp, `${documentId.replace(/[^\w.-]/g, '_')}.error`);
  try {
    await downloadDocument(document.url, { file, clock: ctx.clock });
    return `the report ended FATAL: ${readFileSync(file, 'utf8').slice(0, 500).replace(/\s+/g, ' ').trim()}`;
  } finally {
    rmSync(file, { force: true });
  }
}

/** Downloads a report document to the landing folder (asking for a fresh link when one expired) and lands it. */
export async function downloadAndLand(
  ctx: HandlerContext,
  request: FetchRequest,
  ids: { reportId: string; documentId: string },
  details: Record<string, unknown>,
): Promise<Outcome> {
  for (let attempt = 1; ; attempt++) {
    const document = await getReportDocument(ctx.sp!, ids.documentId);
    const temp = documentPath(ctx.wh.home, request, {
      upstreamId: ids.reportId,
      extension: 'tmp',
      at: ctx.clock.now(),
    });
    try {
      const got = await downloadDocument(document.url, { file: temp, clock: ctx.clock });
      return await keepAndLand(
        ctx,
        request,
        temp,
        { upstreamId: ids.reportId, extension: extensionOf(got.contentType) },
        {
          ...details,
          reportId: ids.reportId,
          reportDocumentId: ids.documentId,
          contentType: got.contentType,
          charset: got.charset,
          bytes: got.bytes,
          sha256: got.sha256,
        },
      );
    } catch (error) {
      rmSync(temp, { force: true });
      if (!(error instanceof ConnectorError && error.kind === 'link-expired') || attempt >= 3) throw error;
    }
  }
}

/** A Reports API report: created (or resumed), polled until it ends, its document downloaded and landed. */
export async function fetchSpReport(ctx: HandlerContext, request: FetchRequest): Promise<Outcome> {
  if (request.request.kind !== 'report') throw new Error(`not a report request: ${request.id}`);
  const body = request.request.body;
  let reportId = request.upstreamId;
  if (!reportId && request.status === 'creating')
    reportId = await findCreated(ctx.sp!, body, Date.parse(request.requestedAt ?? '') || ctx.clock.now() - 60 * MINUTE);
  if (!reportId) {
    await ctx.update({
      status: 'creating',
      attempts: request.attempts + 1,
      requestedAt: new Date(ctx.clock.now()).toISOString(),
    });
    reportId = await createReport(ctx.sp!, body);
  }
  await ctx.update({ status: 'requested', upstreamId: reportId });
  const report = await pollUntil(
    ctx.clock,
    () => getReport(ctx.sp!, reportId!),
    (r) => ['DONE', 'CANCELLED', 'FATAL'].includes(r.processingStatus),
    spReportPolls,
    ctx.clock.now() + ctx.pollBudgetMs,
  );
  if (!report) return { status: 'pending' };
  if (report.processingStatus === 'CANCELLED')
    return { status: 'empty', reason: 'CANCELLED: the marketplace had no data for this window' };
  if (report.processingStatus === 'FATAL') {
    const text = await errorText(ctx, report.reportDocumentId);
    // A report missing its options fails the same way every time: a configuration error, not retried.
    throw new UpstreamFailure(
      text,
      fatalCoolDown(body.reportType, request.attempts + 1),
      /reportOptions|option/i.test(text),
    );
  }
  const echoed = {
    dataStartTime: report.dataStartTime,
    dataEndTime: report.dataEndTime,
    createdTime: report.createdTime,
    processingEndTime: report.processingEndTime,
  };
  const outcome = await downloadAndLand(
    ctx,
    request,
    { reportId, documentId: report.reportDocumentId! },
    { api: 'sp-api', reportType: body.reportType, echoed },
  );
  // The marketplace's own stamps: a report resumed by a later run is timed as well as one polled from its start.
  const processingMs = Date.parse(report.processingEndTime ?? '') - Date.parse(report.createdTime);
  return outcome.status === 'landed' && processingMs >= 0 ? { ...outcome, processingMs } : outcome;
}
