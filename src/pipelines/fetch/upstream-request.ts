import { addDays, isoWithOffset, localMidnight } from '../../time/zone.ts';
import type { FetchSpec } from './fetch-specs.ts';
import type { PlannedFetch } from './plan-fetches.ts';

/** A createReport body (Reports API 2021-06-30). */
export interface SpReportRequest {
  reportType: string;
  marketplaceIds: string[];
  dataStartTime?: string;
  dataEndTime?: string;
  reportOptions?: Record<string, string>;
}

/** A POST /reporting/reports body (Ads API v3). */
export interface AdsReportRequest {
  name: string;
  startDate: string;
  endDate: string;
  configuration: {
    adProduct: string;
    reportTypeId: string;
    groupBy: string[];
    columns: string[];
    timeUnit: 'DAILY';
    format: 'GZIP_JSON';
    filters?: { field: string; values: string[] }[];
  };
}

/** What a fetch request sends upstream, persisted with it so that a resumed or retried request sends the same. */
export type UpstreamRequest =
  | { kind: 'report'; body: SpReportRequest }
  | { kind: 'settlements'; reportType: string; createdSince: string }
  | {
      kind: 'settlement';
      reportType: string;
      reportId: string;
      reportDocumentId: string;
      dataStartTime: string;
      dataEndTime: string;
    }
  | { kind: 'ads-report'; body: AdsReportRequest }
  | { kind: 'operation'; operation: string; marketplaceId: string; from: string | null; to: string | null };

/** Reports' windows may not reach into the future; the marketplace lags a little anyway. */
const END_MARGIN_MS = 2 * 60_000;

/**
 * The upstream request of a planned fetch, in the marketplace's time zone: a timestamped report from the local
 * midnight of `from` to the end of `to` (never later than two minutes ago), a dated one by its dates; Ads reports
 * by date; settlements listed from 89 days back (the oldest the Reports API lists).
 */
export function upstreamRequest(
  spec: FetchSpec,
  fetch: PlannedFetch,
  connection: { marketplaceId: string; timezone: string },
  now: number,
): UpstreamRequest {
  const { from, to } = fetch;
  if (spec.kind === 'settlements')
    return {
      kind: 'settlements',
      reportType: spec.reportType,
      createdSince: new Date(now - 89 * 86_400_000).toISOString(),
    };
  if (spec.kind === 'operation')
    return { kind: 'operation', operation: spec.operation, marketplaceId: connection.marketplaceId, from, to };
  if (spec.kind === 'ads-report') {
    return {
      kind: 'ads-report',
      body: {
        name: `mktdata ${spec.reportTypeId} ${from}..${to}`,
        startDate: from!,
        endDate: to!,
        configuration: {
          adProduct: spec.adProduct,
          reportTypeId: spec.reportTypeId,
          groupBy: spec.groupBy,
          columns: spec.columns,
          timeUnit: 'DAILY',
          format: 'GZIP_JSON',
        },
      },
    };
  }
  const body: SpReportRequest = { reportType: spec.reportType, marketplaceIds: [connection.marketplaceId] };
  if (spec.reportOptions) body.reportOptions = spec.reportOptions;
  if (spec.window !== 'none' && from !== null && to !== null) {
    const end = Math.min(localMidnight(addDays(to, 1), connection.timezone) - 1000, now - END_MARGIN_MS);
    body.dataStartTime = isoWithOffset(localMidnight(from, connection.timezone), connection.timezone);
    body.dataEndTime = isoWithOffset(end, connection.timezone);
  }
  return { kind: 'report', body };
}
