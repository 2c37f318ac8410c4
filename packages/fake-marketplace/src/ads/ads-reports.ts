import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { FakeSeller } from '../data/sellers.ts';
import type { DocumentStore } from '../documents.ts';
import type { FakeState } from '../state.ts';

/**
 * Report types of Ads API v3 reporting: ad product, allowed groupings, longest range and days kept
 * (docs/design/live-apis.md §4).
 */
export const adsReportTypes: Record<
  string,
  { adProduct: string; groupBy: string[]; maxDays: number; retentionDays: number }
> = {
  spAdvertisedProduct: { adProduct: 'SPONSORED_PRODUCTS', groupBy: ['advertiser'], maxDays: 31, retentionDays: 95 },
  spTargeting: { adProduct: 'SPONSORED_PRODUCTS', groupBy: ['targeting'], maxDays: 31, retentionDays: 95 },
  spSearchTerm: { adProduct: 'SPONSORED_PRODUCTS', groupBy: ['searchTerm'], maxDays: 31, retentionDays: 95 },
  sbCampaigns: { adProduct: 'SPONSORED_BRANDS', groupBy: ['campaign'], maxDays: 31, retentionDays: 60 },
  sbPurchasedProduct: { adProduct: 'SPONSORED_BRANDS', groupBy: ['purchasedAsin'], maxDays: 731, retentionDays: 731 },
  sdAdvertisedProduct: { adProduct: 'SPONSORED_DISPLAY', groupBy: ['advertiser'], maxDays: 31, retentionDays: 65 },
  sdPurchasedProduct: { adProduct: 'SPONSORED_DISPLAY', groupBy: ['asin'], maxDays: 31, retentionDays: 65 },
  stCampaigns: { adProduct: 'SPONSORED_TELEVISION', groupBy: ['campaign', 'adGroup'], maxDays: 31, retentionDays: 95 },
  dspCampaign: {
    adProduct: 'DEMAND_SIDE_PLATFORM',
    groupBy: ['campaign', 'ad', 'creative'],
    maxDays: 31,
    retentionDays: 95,
  },
};

/** A create request's body as the fake keeps it. */
export interface AdsBody {
  name?: string;
  startDate: string;
  endDate: string;
  configuration: {
    adProduct: string;
    reportTypeId: string;
    groupBy: string[];
    columns: string[];
    filters?: { field: string; values: string[] }[];
    timeUnit: 'DAILY' | 'SUMMARY';
    format: string;
  };
}

/** An Ads report and its progress over polls. */
export interface FakeAdsReport {
  reportId: string;
  sellerId: string;
  body: AdsBody;
  status: 'PENDING' | 'PROCESSING' | 'COMPLETED' | 'FAILED';
  polls: number;
  createdAt: number;
  updatedAt: number;
  failed: boolean;
  generatedAt: number | null;
  fileSize: number | null;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The reports of every advertiser, their processing, and their downloads. */
export class AdsReportStore {
  readonly reports = new Map<string, FakeAdsReport>();

  constructor(
    private readonly state: FakeState,
    private readonly documents: DocumentStore,
    private readonly polls: { pending: number; processing: number },
  ) {}

  /** An identical (or, with twins on, same type and dates) report still generating for this advertiser. */
  duplicateOf(sellerId: string, body: AdsBody, twins: boolean): FakeAdsReport | undefined {
    const key = (b: AdsBody, twin: boolean) =>
      JSON.stringify([b.startDate, b.endDate, twin ? b.configuration.reportTypeId : b.configuration]);
    return [...this.reports.values()].find(
      (r) =>
        r.sellerId === sellerId &&
        (r.status === 'PENDING' || r.status === 'PROCESSING') &&
        (key(r.body, false) === key(body, false) || (twins && key(r.body, true) === key(body, true))),
    );
  }

  create(sellerId: string, body: AdsBody, at: number, failed: boolean): FakeAdsReport {
    const report: FakeAdsReport = {
      reportId: randomUUID(),
      sellerId,
      body,
      status: 'PENDING',
      polls: 0,
      createdAt: at,
      updatedAt: at,
      failed,
      generatedAt: null,
      fileSize: null,
    };
    this.reports.set(report.reportId, report);
    return report;
  }

  /** One poll: PENDING, then PROCESSING, then COMPLETED (rows generated once, as of creation) or FAILED. */
  poll(seller: FakeSeller, report: FakeAdsReport, stuck: boolean): FakeAdsReport {
    if (report.status === 'COMPLETED' || report.status === 'FAILED' || stuck) return report;
    report.polls++;
    const now = this.state.clock.now();
    if (report.polls <= this.polls.pending) return report;
    report.updatedAt = now;
    if (report.polls <= this.polls.pending + this.polls.processing) {
      report.status = 'PROCESSING';
      return report;
    }
    if (report.failed) {
      report.status = 'FAILED';
      return report;
    }
    const { configuration, startDate, endDate } = report.body;
    const rows = this.state.data.adsReport(seller, {
      ...configuration,
      filters: configuration.filters ?? [],
      startDate,
      endDate,
      asOf: this.state.dataAt(report.createdAt),
    });
    const body = Buffer.from(JSON.stringify(rows));
    this.documents.put(`ads.${report.reportId}`, { body, contentType: 'application/json' });
    report.fileSize = gzipSync(body).length;
    report.generatedAt = now;
    report.status = 'COMPLETED';
    return report;
  }

  /** A report as the API answers it: the request echoed with its state (a fresh one-hour link once completed). */
  view(report: FakeAdsReport, base: string) {
    const completed = report.status === 'COMPLETED';
    return {
      ...report.body,
      reportId: report.reportId,
      status: report.status,
      createdAt: iso(report.createdAt),
      updatedAt: iso(report.updatedAt),
      url: completed ? this.documents.link(base, `ads.${report.reportId}`, 3600) : null,
      urlExpiresAt: completed ? iso(this.state.clock.now() + 3_600_000) : null,
      fileSize: report.fileSize,
      generatedAt: iso(report.generatedAt),
      failureReason:
        report.status === 'FAILED' ? 'Report generation failed due to an internal error. Please retry.' : null,
    };
  }
}
