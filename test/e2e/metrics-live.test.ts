// The fetch side of the metrics (issue 58): a first load through the fake marketplace, counted by a `Metrics` wired as
// `mktdata serve` wires it (the connectors' log, the fetcher's callbacks), against what the control plane recorded.
import { afterEach, describe, expect, it } from 'vitest';
import type { FakeMarketplace } from '@mktdata/fake-marketplace';
import { Connectors } from '../../src/connectors/connectors.ts';
import type { Warehouse } from '../../src/db/warehouse.ts';
import { Metrics } from '../../src/metrics/metrics.ts';
import { connectorFetcher } from '../../src/pipelines/fetch/connector-fetcher.ts';
import { findPipeline, loadPipelines } from '../../src/pipelines/pipeline-config.ts';
import { runPipeline } from '../../src/pipelines/run-pipeline.ts';
import { contractViolations } from '../helpers/contracts.ts';
import { connectAll, demoHome, fakeConfig, liveMarketplace, START } from '../helpers/live.ts';
import { parseExposition, valueOf } from '../helpers/metrics.ts';

describe('the metrics of a live run', () => {
  let fake: FakeMarketplace | undefined;
  let wh: Warehouse | undefined;
  afterEach(async () => {
    await wh?.close();
    await fake?.close();
  });

  it('count each fetch request by source and outcome, the documents and rows landed, and the reports processed, as the control plane recorded them', async () => {
    const a = await demoHome('mktdata-metrics-live-');
    wh = a.wh;
    const live = await liveMarketplace({ start: START, openedOn: '2026-11-01' });
    fake = live.fake;
    await connectAll(a.wh, live.fake, live.sellers);
    const metrics = new Metrics();
    const connectors = new Connectors(fakeConfig(live.fake), live.clock, metrics.connectorLog);
    const fetcher = connectorFetcher(connectors, {
      onFetched: (e) => metrics.fetched(e),
      onDocumentLanded: (r) => metrics.landed(r),
    });
    const summary = await runPipeline(a.wh, findPipeline(loadPipelines(), 'fba'), {
      now: new Date(live.clock.now()),
      fetcher,
    });
    expect(summary.status).toBe('success');
    const s = parseExposition(await metrics.registry.metrics());

    const requests = await a.wh.db.selectFrom('control.fetch_requests').select(['source', 'status']).execute();
    expect(requests.length).toBeGreaterThan(0);
    const bySourceAndStatus = new Map<string, number>();
    for (const r of requests)
      bySourceAndStatus.set(`${r.source} ${r.status}`, (bySourceAndStatus.get(`${r.source} ${r.status}`) ?? 0) + 1);
    for (const [key, count] of bySourceAndStatus) {
      const [operation, outcome] = key.split(' ') as [string, string];
      expect(valueOf(s, 'mktdata_fetch_requests_total', { operation, outcome }), key).toBe(count);
    }
    const landed = await a.wh.db.selectFrom('control.landed_files').select(['source', 'row_count']).execute();
    for (const source of new Set(landed.map((f) => f.source))) {
      const files = landed.filter((f) => f.source === source);
      expect(valueOf(s, 'mktdata_documents_landed_total', { source }), source).toBe(files.length);
      expect(valueOf(s, 'mktdata_rows_landed_total', { source }), source).toBe(
        files.reduce((sum, f) => sum + Number(f.row_count), 0),
      );
    }
    // Every SP-API report that landed was timed by the marketplace's stamps; operations (inbound shipments) were not.
    const reports = (
      await a.wh.db.selectFrom('control.fetch_requests').select(['source', 'status', 'request']).execute()
    )
      .filter((r) => r.status === 'landed')
      .map((r) => ({ source: r.source, kind: (JSON.parse(String(r.request)) as { kind: string }).kind }));
    expect(reports.some((r) => r.kind === 'report')).toBe(true);
    for (const source of new Set(reports.map((r) => r.source))) {
      const timed = reports.filter((r) => r.source === source && r.kind === 'report').length;
      expect(valueOf(s, 'mktdata_report_processing_seconds_count', { report_type: source }), source).toBe(timed);
    }
    // createReport allows a burst of 15, then one a minute (docs/design/live-apis.md): a first load of two sellers'
    // FBA reports asks for more, so its calls waited at least one token's minute on the clock.
    expect(valueOf(s, 'mktdata_rate_limit_wait_seconds_total', { operation: 'createReport' })).toBeGreaterThan(60);
    expect(contractViolations(live.fake)).toEqual([]);
  });
});
