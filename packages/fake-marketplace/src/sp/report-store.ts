import type { FakeSeller } from '../data/sellers.ts';
import type { FakeState } from '../state.ts';
import type { DocumentStore } from '../documents.ts';

export type ProcessingStatus = 'IN_QUEUE' | 'IN_PROGRESS' | 'DONE' | 'CANCELLED' | 'FATAL';

/** A report a seller created (or a settlement report the marketplace generated). */
export interface FakeReport {
  reportId: string;
  reportType: string;
  marketplaceIds: string[];
  dataStartTime: string | null;
  dataEndTime: string | null;
  reportOptions: Record<string, string>;
  createdTime: number;
  polls: number;
  status: ProcessingStatus;
  processingStartTime: number | null;
  processingEndTime: number | null;
  reportDocumentId: string | null;
  /** Decided at creation: the report will end FATAL (switch, or the FBA generation limit). */
  fatal: string | null;
  /** A FATAL report points to an error document. */
  fatalDocument: boolean;
}

/** Near real-time FBA reports regenerate at most every 30 minutes, daily ones every 4 hours; All Orders are exempt. */
export const fbaLimits: Record<string, number> = {
  GET_AMAZON_FULFILLED_SHIPMENTS_DATA_GENERAL: 30 * 60_000,
  GET_FBA_FULFILLMENT_REMOVAL_ORDER_DETAIL_DATA: 30 * 60_000,
  GET_FBA_FULFILLMENT_REMOVAL_SHIPMENT_DETAIL_DATA: 30 * 60_000,
  GET_STRANDED_INVENTORY_UI_DATA: 30 * 60_000,
  GET_FBA_FULFILLMENT_CUSTOMER_RETURNS_DATA: 4 * 60 * 60_000,
  GET_FBA_RECOMMENDED_REMOVAL_DATA: 4 * 60 * 60_000,
};

const iso = (ms: number | null) =>
  ms === null ? undefined : new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+00:00');
/**
 * A window as the marketplace echoes it: in UTC with `+00:00`; sales and traffic windows reduced to their dates, as
 * date-times (the Report model's format), at UTC midnight.
 */
const echo = (report: FakeReport, value: string | null) =>
  value === null
    ? undefined
    : report.reportType === 'GET_SALES_AND_TRAFFIC_REPORT'
      ? `${value.slice(0, 10)}T00:00:00+00:00`
      : iso(Date.parse(value));

/** The reports of every seller, their processing over successive polls, and their documents. */
export class ReportStore {
  readonly #bySeller = new Map<string, FakeReport[]>();
  #next = 600_000_000_000;

  constructor(
    private readonly state: FakeState,
    private readonly documents: DocumentStore,
    private readonly polls: { inQueue: number; inProgress: number },
  ) {}

  reports(sellerId: string): FakeReport[] {
    let list = this.#bySeller.get(sellerId);
    if (!list) this.#bySeller.set(sellerId, (list = []));
    return list;
  }

  /** A new report; it ends FATAL when `fatal` says why (decided now, as generation would fail). */
  create(
    seller: FakeSeller,
    request: Omit<
      FakeReport,
      'reportId' | 'polls' | 'status' | 'processingStartTime' | 'processingEndTime' | 'reportDocumentId'
    >,
  ): FakeReport {
    const report: FakeReport = {
      ...request,
      reportId: String(this.#next++),
      polls: 0,
      status: 'IN_QUEUE',
      processingStartTime: null,
      processingEndTime: null,
      reportDocumentId: null,
    };
    this.reports(seller.sellerId).push(report);
    return report;
  }

  /** Why a new report of this request would end FATAL under the FBA generation limits, if it would. */
  fbaLimit(
    sellerId: string,
    request: { reportType: string; marketplaceIds: string[]; dataStartTime: string | null; dataEndTime: string | null },
    at: number,
    strict: boolean,
  ): string | null {
    const cooldown = fbaLimits[request.reportType];
    if (!cooldown) return null;
    const key = (r: {
      reportType: string;
      marketplaceIds: string[];
      dataStartTime: string | null;
      dataEndTime: string | null;
    }) =>
      strict
        ? r.reportType
        : JSON.stringify([r.reportType, [...r.marketplaceIds].sort(), r.dataStartTime, r.dataEndTime]);
    const recent = this.reports(sellerId).some(
      (r) => key(r) === key(request) && r.fatal === null && at - r.createdTime < cooldown,
    );
    return recent
      ? 'The report could not be generated: this report type was requested too recently. Try again later.'
      : null;
  }

  /** One poll: the report moves through IN_QUEUE and IN_PROGRESS, then ends (its document generated once). */
  poll(seller: FakeSeller, report: FakeReport, stuck: boolean): FakeReport {
    if (report.status === 'DONE' || report.status === 'CANCELLED' || report.status === 'FATAL' || stuck) return report;
    report.polls++;
    const now = this.state.clock.now();
    if (report.polls <= this.polls.inQueue) return report;
    report.processingStartTime ??= now;
    if (report.polls <= this.polls.inQueue + this.polls.inProgress) {
      report.status = 'IN_PROGRESS';
      return report;
    }
    report.processingEndTime = now;
    if (report.fatal !== null) {
      report.status = 'FATAL';
      if (report.fatalDocument) {
        report.reportDocumentId = `amzn1.spdoc.1.4.na.${report.reportId}.error`;
        this.documents.put(report.reportDocumentId, {
          body: Buffer.from(JSON.stringify({ errorDetails: report.fatal })),
          contentType: 'application/json',
        });
      }
      return report;
    }
    const document = this.state.data.report(seller, {
      reportType: report.reportType,
      dataStartTime: report.dataStartTime ?? new Date(report.createdTime).toISOString(),
      dataEndTime: report.dataEndTime ?? new Date(report.createdTime).toISOString(),
      reportOptions: report.reportOptions,
      asOf: this.state.dataAt(report.createdTime),
    });
    if (!document) {
      report.status = 'CANCELLED';
      return report;
    }
    report.reportDocumentId = `amzn1.spdoc.1.4.na.${report.reportId}.T${Math.floor(now / 1000)}`;
    this.documents.put(report.reportDocumentId, document);
    report.status = 'DONE';
    return report;
  }

  /** A report as getReport answers it. */
  view(report: FakeReport) {
    return {
      reportId: report.reportId,
      reportType: report.reportType,
      marketplaceIds: report.marketplaceIds,
      dataStartTime: echo(report, report.dataStartTime),
      dataEndTime: echo(report, report.dataEndTime),
      createdTime: iso(report.createdTime),
      processingStatus: report.status,
      processingStartTime: iso(report.processingStartTime),
      processingEndTime: iso(report.processingEndTime),
      reportDocumentId: report.reportDocumentId ?? undefined,
    };
  }
}
