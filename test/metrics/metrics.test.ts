import { describe, expect, it } from 'vitest';
import type { ExportRow } from '../../src/exports/export-jobs.ts';
import { Metrics } from '../../src/metrics/metrics.ts';
import type { FetchEvent } from '../../src/pipelines/fetch/execute-fetches.ts';
import type { FetchRequest } from '../../src/pipelines/fetch/fetch-requests.ts';
import { parseExposition, valueOf } from '../helpers/metrics.ts';

const REPORT = 'GET_FBA_FULFILLMENT_CUSTOMER_RETURNS_DATA';
const event = (status: FetchEvent['status'], reportProcessingMs?: number): FetchEvent => ({
  request: { source: REPORT } as FetchRequest,
  status,
  rows: 0,
  error: status === 'failed' ? '503 after retries' : null,
  reportProcessingMs,
});

describe('Metrics', () => {
  it('counts fetches by source and outcome, report processing, rate-limit waits, exports and webhook attempts', async () => {
    const m = new Metrics();
    m.fetched(event('landed', 90_000));
    m.fetched(event('landed', 30_000));
    m.fetched(event('failed'));
    m.connectorLog({ api: 'sp', operation: 'getReport', waitedMs: 1500 });
    m.connectorLog({ api: 'sp', operation: 'getReport', waitedMs: 500 });
    m.connectorLog({ api: 'sp', operation: 'createReport', waitedMs: 0 });
    const row = (status: string, started: string, completed: string) =>
      ({ status, created_at: started, started_at: started, completed_at: completed }) as unknown as ExportRow;
    m.exportFinished(row('COMPLETED', '2026-12-07 10:00:00+00', '2026-12-07 10:00:12.5+00'));
    m.exportFinished(row('ERROR', '2026-12-07T10:00:00Z', '2026-12-07T10:00:02Z'));
    m.webhookAttempt({ status: 'DELIVERED', createdAt: '2026-12-07T10:00:00Z', at: '2026-12-07T10:00:04Z' });
    m.webhookAttempt({ status: 'PENDING', createdAt: '2026-12-07T10:00:00Z', at: '2026-12-07T10:00:01Z' });
    m.webhookAttempt({ status: 'FAILED', createdAt: '2026-12-06T10:00:00Z', at: '2026-12-07T10:00:01Z' });
    m.landed({ status: 'landed', source: REPORT, rows: 7 });
    m.landed({ status: 'refused', source: REPORT });
    const s = parseExposition(await m.registry.metrics());
    expect(valueOf(s, 'mktdata_fetch_requests_total', { operation: REPORT, outcome: 'landed' })).toBe(2);
    expect(valueOf(s, 'mktdata_fetch_requests_total', { operation: REPORT, outcome: 'failed' })).toBe(1);
    // 90 s + 30 s of processing, in two reports; the failed request had none.
    expect(valueOf(s, 'mktdata_report_processing_seconds_count', { report_type: REPORT })).toBe(2);
    expect(valueOf(s, 'mktdata_report_processing_seconds_sum', { report_type: REPORT })).toBe(120);
    // 1.5 s + 0.5 s waited for getReport's tokens; createReport never waited (no sample).
    expect(valueOf(s, 'mktdata_rate_limit_wait_seconds_total', { operation: 'getReport' })).toBe(2);
    expect(s.some((x) => x.labels.operation === 'createReport')).toBe(false);
    // 12.5 s to complete, 2 s to fail.
    expect(valueOf(s, 'mktdata_export_duration_seconds_sum', { outcome: 'completed' })).toBe(12.5);
    expect(valueOf(s, 'mktdata_export_duration_seconds_sum', { outcome: 'error' })).toBe(2);
    // One delivered 4 s after its event; one to retry; one given up.
    for (const outcome of ['delivered', 'retrying', 'failed'])
      expect(valueOf(s, 'mktdata_webhook_deliveries_total', { outcome })).toBe(1);
    expect(valueOf(s, 'mktdata_webhook_delivery_lag_seconds_count')).toBe(1);
    expect(valueOf(s, 'mktdata_webhook_delivery_lag_seconds_sum')).toBe(4);
    // The refused document is not a document landed.
    expect(valueOf(s, 'mktdata_documents_landed_total', { source: REPORT })).toBe(1);
    expect(valueOf(s, 'mktdata_rows_landed_total', { source: REPORT })).toBe(7);
  });

  it('keeps one registry per instance: two apps in one process count apart', async () => {
    const [a, b] = [new Metrics(), new Metrics()];
    a.httpRequest('GET', '/metrics', 200, 0.001);
    const count = async (m: Metrics) =>
      valueOf(parseExposition(await m.registry.metrics()), 'mktdata_http_requests_total', {
        method: 'GET',
        route: '/metrics',
        status: '200',
      });
    expect(await count(a)).toBe(1);
    expect(await count(b)).toBe(0);
  });
});
