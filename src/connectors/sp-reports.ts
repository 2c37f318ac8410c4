import type { SpApiClient } from './sp-api.ts';

/** A report as getReport and getReports answer it (Reports API 2021-06-30). */
export interface Report {
  reportId: string;
  reportType: string;
  marketplaceIds?: string[];
  dataStartTime?: string;
  dataEndTime?: string;
  createdTime: string;
  processingStatus: 'IN_QUEUE' | 'IN_PROGRESS' | 'DONE' | 'CANCELLED' | 'FATAL';
  processingStartTime?: string;
  processingEndTime?: string;
  reportDocumentId?: string;
}

const base = '/reports/2021-06-30';

/** createReport: the new report's id (202). */
export async function createReport(
  sp: SpApiClient,
  body: {
    reportType: string;
    marketplaceIds: string[];
    dataStartTime?: string;
    dataEndTime?: string;
    reportOptions?: Record<string, string>;
  },
): Promise<string> {
  const { body: answer } = await sp.request<{ reportId: string }>('createReport', {
    method: 'POST',
    path: `${base}/reports`,
    body,
  });
  return answer.reportId;
}

/** getReport: a report's state. */
export async function getReport(sp: SpApiClient, reportId: string): Promise<Report> {
  return (
    await sp.request<Report>('getReport', { method: 'GET', path: `${base}/reports/${encodeURIComponent(reportId)}` })
  ).body;
}

/** getReports filters (each list comma-separated upstream). */
export interface ReportFilters {
  reportTypes: string[];
  processingStatuses?: string[];
  marketplaceIds?: string[];
  pageSize?: number;
  createdSince?: string;
  createdUntil?: string;
}

/** getReports, every page, newest first: the filters on the first page, `nextToken` alone after (else 400). */
export async function* listReports(sp: SpApiClient, filters: ReportFilters): AsyncGenerator<Report> {
  let query: Record<string, string | undefined> = {
    reportTypes: filters.reportTypes.join(','),
    processingStatuses: filters.processingStatuses?.join(','),
    marketplaceIds: filters.marketplaceIds?.join(','),
    pageSize: filters.pageSize === undefined ? undefined : String(filters.pageSize),
    createdSince: filters.createdSince,
    createdUntil: filters.createdUntil,
  };
  for (;;) {
    const { body } = await sp.request<{ reports?: Report[]; nextToken?: string }>('getReports', {
      method: 'GET',
      path: `${base}/reports`,
      query,
    });
    yield* body.reports ?? [];
    if (!body.nextToken) return;
    query = { nextToken: body.nextToken };
  }
}

/** getReportDocument: the pre-signed link of a document (valid 5 minutes: ask right before downloading). */
export async function getReportDocument(
  sp: SpApiClient,
  reportDocumentId: string,
): Promise<{ reportDocumentId: string; url: string; compressionAlgorithm?: string }> {
  return (
    await sp.request<{ reportDocumentId: string; url: string; compressionAlgorithm?: string }>('getReportDocument', {
      method: 'GET',
      path: `${base}/documents/${encodeURIComponent(reportDocumentId)}`,
    })
  ).body;
}
