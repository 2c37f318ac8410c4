// Every report document the fake serves against what the marketplace publishes: JSON documents against the report
// schemas (contracts/schemas/reports), tab-separated ones' headers against the documented column lists
// (contracts/report-columns.json, from the developer-docs pages docs/design/upstream-formats.md cites).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoSellers, startFakeMarketplace, type Clock, type FakeMarketplace } from '../src/index.ts';
import { contractsDir, reportSchema } from './contracts/published-models.ts';

const HOUR = 3_600_000;
// A seller open since June, asked on 2026-11-20 (PST) for windows that hold data.
let now = Date.parse('2026-11-20T18:30:00Z');
const clock: Clock = { now: () => now, sleep: async (ms) => void (now += ms) };
const [us] = demoSellers('2026-06-01');
let fake: FakeMarketplace;
let token = '';

const documented = JSON.parse(readFileSync(join(contractsDir, 'report-columns.json'), 'utf8')) as Record<
  string,
  { columns: string[] | null; source: string }
>;

beforeAll(async () => {
  // An access token for the whole test: the clock moves on by hours and days.
  fake = await startFakeMarketplace({ sellers: [us!], clock, throttling: false, accessTokenSeconds: 400 * 86_400 });
  const answer = await fetch(`${fake.url}/auth/o2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'refresh_token',
      refresh_token: fake.grant(us!.sellerId, 'sp-api'),
      client_id: fake.spApp.clientId,
      client_secret: fake.spApp.clientSecret,
    }),
  });
  token = ((await answer.json()) as { access_token: string }).access_token;
});
afterAll(() => fake.close());

const sp = async <T>(path: string, init: RequestInit = {}): Promise<T> => {
  const answer = await fetch(`${fake.url}/sp/na${path}`, {
    ...init,
    headers: { 'x-amz-access-token': token, 'content-type': 'application/json' },
  });
  expect(answer.status, path).toBeLessThan(300);
  return (await answer.json()) as T;
};

async function documentText(reportDocumentId: string): Promise<string> {
  const document = await sp<{ url: string; compressionAlgorithm?: string }>(
    `/reports/2021-06-30/documents/${reportDocumentId}`,
  );
  const bytes = Buffer.from(await (await fetch(document.url)).arrayBuffer());
  return (document.compressionAlgorithm === 'GZIP' ? gunzipSync(bytes) : bytes).toString('latin1');
}

/**
 * A report of `reportType` over the days before the clock's, through to its document (sales and traffic: one day by
 * date and child ASIN, two days back, when its figures show; removals, rarer: two months).
 */
async function requested(reportType: string): Promise<string | null> {
  const salesAndTraffic = reportType === 'GET_SALES_AND_TRAFFIC_REPORT';
  const days = /REMOVAL_(ORDER|SHIPMENT)/.test(reportType) ? 60 : 7;
  const { reportId } = await sp<{ reportId: string }>('/reports/2021-06-30/reports', {
    method: 'POST',
    body: JSON.stringify({
      reportType,
      marketplaceIds: [us!.marketplaceId],
      dataStartTime: salesAndTraffic
        ? '2026-11-17T00:00:00-08:00'
        : new Date(Date.parse('2026-11-20T00:00:00-08:00') - days * 24 * HOUR).toISOString(),
      dataEndTime: salesAndTraffic ? '2026-11-17T23:59:59-08:00' : '2026-11-19T23:59:59-08:00',
      ...(salesAndTraffic && { reportOptions: { dateGranularity: 'DAY', asinGranularity: 'CHILD' } }),
    }),
  });
  let report: { processingStatus: string; reportDocumentId?: string } = { processingStatus: 'IN_QUEUE' };
  for (let poll = 0; poll < 5 && /IN_/.test(report.processingStatus); poll++) {
    now += HOUR;
    report = await sp(`/reports/2021-06-30/reports/${reportId}`);
  }
  if (report.processingStatus === 'CANCELLED') return null;
  expect(report.processingStatus, reportType).toBe('DONE');
  return documentText(report.reportDocumentId!);
}

describe('the report documents the fake serves', () => {
  it('match the published sales and traffic schema', async () => {
    const text = await requested('GET_SALES_AND_TRAFFIC_REPORT');
    expect(text).not.toBeNull();
    expect(reportSchema('sellerSalesAndTrafficReport.json')(JSON.parse(text!))).toEqual([]);
  });

  const tabSeparated = Object.entries(documented).filter(([type]) => !type.startsWith('GET_V2_SETTLEMENT'));
  it.each(tabSeparated)('%s: the documented header', async (reportType, { columns }) => {
    const text = await requested(reportType);
    expect(text, `${reportType} ended CANCELLED for a seller with data`).not.toBeNull();
    const header = text!.split(/\r?\n/)[0]!.split('\t');
    if (columns) expect(header).toEqual(columns);
    else expect(header.length).toBeGreaterThan(0); // no published column list: nothing to hold it to
  });

  it('GET_V2_SETTLEMENT_REPORT_DATA_FLAT_FILE_V2: the documented header', async () => {
    now += 40 * 24 * HOUR; // settlements close every two weeks
    const { reports } = await sp<{ reports: { reportDocumentId: string }[] }>(
      '/reports/2021-06-30/reports?reportTypes=GET_V2_SETTLEMENT_REPORT_DATA_FLAT_FILE_V2',
    );
    expect(reports.length).toBeGreaterThan(0);
    const header = (await documentText(reports[0]!.reportDocumentId)).split(/\r?\n/)[0]!.split('\t');
    expect(header).toEqual(documented.GET_V2_SETTLEMENT_REPORT_DATA_FLAT_FILE_V2!.columns);
  });
});
