import { listReports } from '../../connectors/sp-reports.ts';
import { insertFetches, knownUpstreamIds, type FetchRequest } from './fetch-requests.ts';
import type { HandlerContext, Outcome } from './handler.ts';
import { downloadAndLand } from './sp-report.ts';

/**
 * Settlement reports are not requested: the marketplace generates one when a settlement period closes. The listing
 * asks getReports for those created since its `createdSince` (89 days back: the oldest listable) and queues every
 * report not fetched before (keyed by report id; a re-delivered settlement replaces its earlier version downstream).
 */
export async function listSettlements(ctx: HandlerContext, request: FetchRequest): Promise<Outcome> {
  if (request.request.kind !== 'settlements') throw new Error(`not a settlement listing: ${request.id}`);
  const { reportType, createdSince } = request.request;
  await ctx.update({
    status: 'requested',
    attempts: request.attempts + 1,
    requestedAt: new Date(ctx.clock.now()).toISOString(),
  });
  const known = await knownUpstreamIds(ctx.wh, ctx.connection.id, request.source);
  const found: FetchRequest[] = [];
  for await (const report of listReports(ctx.sp!, {
    reportTypes: [reportType],
    processingStatuses: ['DONE'],
    createdSince,
    pageSize: 100,
  })) {
    if (known.has(report.reportId) || !report.reportDocumentId) continue;
    known.add(report.reportId);
    const [created] = await insertFetches(
      ctx.wh,
      request.runId,
      [
        {
          connectionId: ctx.connection.id,
          source: request.source,
          stage: request.stage,
          from: report.dataStartTime?.slice(0, 10) ?? null,
          to: report.dataEndTime?.slice(0, 10) ?? null,
          upstreamId: report.reportId,
          request: {
            kind: 'settlement',
            reportType,
            reportId: report.reportId,
            reportDocumentId: report.reportDocumentId,
            dataStartTime: report.dataStartTime ?? '',
            dataEndTime: report.dataEndTime ?? '',
          },
        },
      ],
      new Date(ctx.clock.now()),
    );
    found.push(created!);
  }
  ctx.spawn(found);
  return found.length > 0
    ? { status: 'landed', documents: 0, rows: 0, results: [] }
    : { status: 'empty', reason: 'no new settlement report' };
}

/** One listed settlement report: its document downloaded and landed. */
export async function fetchSettlement(ctx: HandlerContext, request: FetchRequest): Promise<Outcome> {
  if (request.request.kind !== 'settlement') throw new Error(`not a settlement report: ${request.id}`);
  const { reportId, reportDocumentId, reportType, dataStartTime, dataEndTime } = request.request;
  await ctx.update({ status: 'requested', upstreamId: reportId, attempts: request.attempts + 1 });
  return downloadAndLand(
    ctx,
    request,
    { reportId, documentId: reportDocumentId },
    { api: 'sp-api', reportType, echoed: { dataStartTime, dataEndTime } },
  );
}
