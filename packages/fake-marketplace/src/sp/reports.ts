import { z } from 'zod';
import type { FakeSeller } from '../data/sellers.ts';
import type { DocumentStore } from '../documents.ts';
import type { FakeReport, ReportStore } from './report-store.ts';
import { invalidInput, SpError } from './sp-error.ts';
import { listParam, type SpContext, type SpRoute } from './sp-routes.ts';

const DAY = 86_400_000;
const settlementTypes = new Set([
  'GET_V2_SETTLEMENT_REPORT_DATA_FLAT_FILE_V2',
  'GET_V2_SETTLEMENT_REPORT_DATA_FLAT_FILE',
  'GET_V2_SETTLEMENT_REPORT_DATA_XML',
]);
const reportIdOf: Record<string, string> = { GET_V2_SETTLEMENT_REPORT_DATA_FLAT_FILE_V2: '1118' };

/** Report types createReport accepts (docs/design/live-apis.md §2.4, the ones the fake can stand in for). */
export const requestableTypes: ReadonlySet<string> = new Set([
  'GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL',
  'GET_FBA_FULFILLMENT_CUSTOMER_RETURNS_DATA',
  'GET_SALES_AND_TRAFFIC_REPORT',
  'GET_MERCHANT_LISTINGS_ALL_DATA',
  'GET_AMAZON_FULFILLED_SHIPMENTS_DATA_GENERAL',
  'GET_FBA_FULFILLMENT_REMOVAL_ORDER_DETAIL_DATA',
  'GET_FBA_FULFILLMENT_REMOVAL_SHIPMENT_DETAIL_DATA',
  'GET_FBA_RECOMMENDED_REMOVAL_DATA',
  'GET_STRANDED_INVENTORY_UI_DATA',
]);

const createBody = z.object({
  reportType: z.string().min(1),
  marketplaceIds: z.array(z.string()).min(1).max(25),
  dataStartTime: z.string().datetime({ offset: true }).optional(),
  dataEndTime: z.string().datetime({ offset: true }).optional(),
  reportOptions: z.record(z.string(), z.string()).optional(),
});

/** The settlement reports a seller can list now: generated at each close, kept 90 days. */
function settlementReports(ctx: SpContext, documents: DocumentStore): FakeReport[] {
  const at = ctx.state.dataAt(ctx.at);
  return ctx.state.data
    .settlements(ctx.seller, at)
    .filter((s) => s.closedAt > at - 90 * DAY)
    .map((s) => {
      const reportDocumentId = `amzn1.spdoc.1.4.na.settlement.${s.settlementId}`;
      if (!documents.has(reportDocumentId)) documents.put(reportDocumentId, () => s.document());
      return {
        reportId: s.settlementId,
        reportType: 'GET_V2_SETTLEMENT_REPORT_DATA_FLAT_FILE_V2',
        marketplaceIds: [ctx.seller.marketplaceId],
        dataStartTime: new Date(s.start).toISOString(),
        dataEndTime: new Date(s.end).toISOString(),
        reportOptions: {},
        createdTime: s.closedAt,
        polls: 0,
        status: 'DONE',
        processingStartTime: s.closedAt,
        processingEndTime: s.closedAt,
        reportDocumentId,
        fatal: null,
        fatalDocument: false,
      };
    });
}

/** A report of the seller (created, or a settlement), or 404. */
function find(ctx: SpContext, store: ReportStore, documents: DocumentStore, reportId: string): FakeReport {
  const report =
    store.reports(ctx.seller.sellerId).find((r) => r.reportId === reportId) ??
    settlementReports(ctx, documents).find((r) => r.reportId === reportId);
  if (!report) throw new SpError(404, 'NotFound', `Report ${reportId} not found.`);
  return report;
}

/** createReport: the request validated as the model and §2.4 say; 202 with a numeric id. */
function createReport(ctx: SpContext, store: ReportStore, types: ReadonlySet<string>) {
  const parsed = createBody.safeParse(ctx.body);
  if (!parsed.success)
    throw invalidInput(`Invalid input: ${parsed.error.issues[0]!.path.join('.')}: ${parsed.error.issues[0]!.message}`);
  const body = parsed.data;
  Object.assign(ctx.detail, {
    reportType: body.reportType,
    dataStartTime: body.dataStartTime ?? null,
    dataEndTime: body.dataEndTime ?? null,
  });
  if (settlementTypes.has(body.reportType))
    throw invalidInput(
      `Request for report type ${reportIdOf[body.reportType] ?? body.reportType} is not allowed at this time.`,
    );
  if (!types.has(body.reportType)) throw invalidInput(`Invalid report type ${body.reportType}.`);
  if (body.marketplaceIds.some((m) => m !== ctx.seller.marketplaceId))
    throw invalidInput(`Invalid marketplaceIds: the seller does not sell in ${body.marketplaceIds.join(', ')}.`);
  const start = body.dataStartTime ? Date.parse(body.dataStartTime) : ctx.at;
  const end = body.dataEndTime ? Date.parse(body.dataEndTime) : ctx.at;
  if (start > ctx.at || end > ctx.at) throw invalidInput('dataStartTime and dataEndTime cannot be in the future.');
  if (start > end) throw invalidInput('dataStartTime cannot be after dataEndTime.');
  const switches = ctx.state.switches.get('createReport');
  const request = {
    reportType: body.reportType,
    marketplaceIds: body.marketplaceIds,
    dataStartTime: body.dataStartTime ?? null,
    dataEndTime: body.dataEndTime ?? null,
  };
  const limit = store.fbaLimit(ctx.seller.sellerId, request, ctx.at, switches.strictFbaLimits);
  const fatal =
    limit ??
    (ctx.state.switches.draw(switches.fatalRate)
      ? 'The report could not be generated because of an internal error.'
      : null);
  const report = store.create(ctx.seller as FakeSeller, {
    ...request,
    reportOptions: body.reportOptions ?? {},
    createdTime: ctx.at,
    fatal,
    fatalDocument: fatal !== null && switches.fatalWithDocument,
  });
  ctx.detail.reportId = report.reportId;
  return { status: 202, body: { reportId: report.reportId } };
}

/**
 * getReports: the filters, newest first, pages of pageSize; a nextToken must come alone (docs/design/live-apis.md
 * §2.2).
 */
function getReports(ctx: SpContext, store: ReportStore, documents: DocumentStore) {
  let filters = {
    reportTypes: listParam(ctx, 'reportTypes'),
    statuses: listParam(ctx, 'processingStatuses'),
    marketplaceIds: listParam(ctx, 'marketplaceIds'),
    pageSize: ctx.query.pageSize,
    since: ctx.query.createdSince,
    until: ctx.query.createdUntil,
    offset: 0,
  };
  if (ctx.query.nextToken !== undefined) {
    if ([...ctx.rawQuery.keys()].some((k) => k !== 'nextToken'))
      throw invalidInput('When nextToken is given, no other parameter may be given.');
    filters = JSON.parse(Buffer.from(ctx.query.nextToken, 'base64url').toString('utf8'));
  } else if (filters.reportTypes.length === 0) throw invalidInput('Either reportTypes or nextToken is required.');
  else if (filters.reportTypes.length > 10) throw invalidInput('At most 10 reportTypes.');
  const pageSize = filters.pageSize === undefined ? 10 : Number(filters.pageSize);
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 100)
    throw invalidInput('pageSize must be between 1 and 100.');
  const since = filters.since ? Date.parse(filters.since) : ctx.at - 90 * DAY;
  if (!(since >= ctx.at - 90 * DAY)) throw invalidInput('createdSince cannot be more than 90 days in the past.');
  const until = filters.until ? Date.parse(filters.until) : ctx.at;
  const all = [...store.reports(ctx.seller.sellerId), ...settlementReports(ctx, documents)]
    .filter(
      (r) =>
        filters.reportTypes.includes(r.reportType) &&
        (filters.statuses.length === 0 || filters.statuses.includes(r.status)),
    )
    .filter(
      (r) => filters.marketplaceIds.length === 0 || r.marketplaceIds.some((m) => filters.marketplaceIds.includes(m)),
    )
    .filter((r) => r.createdTime >= since && r.createdTime <= until && r.createdTime > ctx.at - 90 * DAY)
    .sort((a, b) => b.createdTime - a.createdTime || (a.reportId < b.reportId ? 1 : -1));
  const page = all.slice(filters.offset, filters.offset + pageSize);
  const more = filters.offset + pageSize < all.length;
  const nextToken = more
    ? Buffer.from(JSON.stringify({ ...filters, offset: filters.offset + pageSize })).toString('base64url')
    : undefined;
  return { status: 200, body: { reports: page.map((r) => store.view(r)), ...(nextToken ? { nextToken } : {}) } };
}

/** The Reports API 2021-06-30 operations. */
export function reportRoutes(
  store: ReportStore,
  documents: DocumentStore,
  types: ReadonlySet<string> = requestableTypes,
): SpRoute[] {
  const base = '/reports/2021-06-30';
  return [
    {
      method: 'POST',
      pattern: new RegExp(`^${base}/reports$`),
      operation: 'createReport',
      handler: (ctx) => createReport(ctx, store, types),
    },
    {
      method: 'GET',
      pattern: new RegExp(`^${base}/reports$`),
      operation: 'getReports',
      handler: (ctx) => getReports(ctx, store, documents),
    },
    {
      method: 'GET',
      pattern: new RegExp(`^${base}/reports/([^/]+)$`),
      operation: 'getReport',
      handler: (ctx) => {
        ctx.detail.reportId = ctx.params[0];
        const report = store.poll(
          ctx.seller,
          find(ctx, store, documents, ctx.params[0]!),
          ctx.state.switches.get('getReport').stuck || ctx.state.switches.get('createReport').stuck,
        );
        ctx.detail.processingStatus = report.status;
        return { status: 200, body: store.view(report) };
      },
    },
    {
      method: 'GET',
      pattern: new RegExp(`^${base}/documents/([^/]+)$`),
      operation: 'getReportDocument',
      handler: (ctx) => {
        const id = ctx.params[0]!;
        ctx.detail.reportDocumentId = id;
        const mine = [...store.reports(ctx.seller.sellerId), ...settlementReports(ctx, documents)].some(
          (r) => r.reportDocumentId === id,
        );
        if (!mine || !documents.has(id)) throw new SpError(404, 'NotFound', `Report document ${id} not found.`);
        const expiry = ctx.state.switches.get('getReportDocument').linkExpiryMs || 300_000;
        return {
          status: 200,
          body: {
            reportDocumentId: id,
            url: documents.link(ctx.base, id, Math.round(expiry / 1000)),
            compressionAlgorithm: 'GZIP',
          },
        };
      },
    },
  ];
}
