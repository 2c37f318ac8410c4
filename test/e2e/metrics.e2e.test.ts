// Issue 58, acceptance: `mktdata serve` scraped before and after a pipeline run, an export and webhook deliveries; every
// counter and histogram count moved by what the test did, worked out below, and the exposition passes promtool.
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/control/organizations.ts';
import { cli, makeHome, US, writeOrders, type OrderLine } from '../helpers/home.ts';
import { hasPromtool, parseExposition, promtoolComplaints, valueOf, type Sample } from '../helpers/metrics.ts';
import { startServe } from '../helpers/serve.ts';

const ORDERS = 'GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL';

const line = (order: string): OrderLine => ({
  'amazon-order-id': order,
  'purchase-date': '2026-11-20T10:00:00+00:00',
  'last-updated-date': '2026-11-20T12:00:00+00:00',
  'order-status': 'Shipped',
  'fulfillment-channel': 'Amazon',
  sku: `SKU-${order}`,
  asin: 'B000000001',
  quantity: '1',
  currency: 'USD',
  'item-price': '20.00',
});

/** A webhook receiver on loopback that answers 200 and counts what it got. */
async function receiver() {
  let received = 0;
  const server: Server = createServer((req, res) => {
    req.resume().on('end', () => {
      received += 1;
      res.end();
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received: () => received,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

/** Polls `probe` every 200 ms until it holds; fails naming `what` after `ms` of real time (a hang guard). */
async function until(what: string, ms: number, probe: () => Promise<boolean>): Promise<void> {
  for (const started = Date.now(); !(await probe()); await delay(200))
    if (Date.now() - started > ms) throw new Error(`${what}: not within ${ms / 1000} s`);
}

describe('GET /metrics on mktdata serve', () => {
  it('moves the run, landing, export, webhook and HTTP counters by exactly what was done, in an exposition promtool accepts', async () => {
    const { home, wh } = await makeHome();
    const org = (await wh.db.selectFrom('control.organizations').select('id').executeTakeFirstOrThrow()).id;
    const key = await createApiKey(wh, org);
    await wh.close();
    const hook = await receiver();
    // No scheduled runs (a refresh time falling inside the test would add one): the run is the test's own.
    const server = await startServe(home.root, ['--no-pipelines', '--requests-per-second', '100'], {
      env: { MKTDATA_WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1' },
    });
    try {
      const origin = server.base.replace(/\/api\/v1$/, '');
      const scrape = async () => {
        const res = await fetch(`${origin}/metrics`);
        expect(res.status).toBe(200);
        return res.text();
      };
      const api = async (method: string, path: string, body?: unknown) => {
        const res = await fetch(`${server.base}${path}`, {
          method,
          headers: { 'service-api-key': key, ...(body ? { 'content-type': 'application/json' } : {}) },
          body: body ? JSON.stringify(body) : undefined,
        });
        return { status: res.status, json: (await res.json()) as Record<string, unknown> };
      };
      const subscribed = await api('POST', '/webhooks', { url: hook.url, messageTypes: ['MKT_ORDER_UPDATE'] });
      expect(subscribed.status).toBe(201);
      const before = parseExposition(await scrape());

      // Two orders files dropped in landing/, one order line each, and one run of the profit pipeline handed to the
      // server: 2 documents and 2 rows landed, 2 orders created, so 2 MKT_ORDER_UPDATE events for the subscription.
      const folder = join(home.landing, US.id, ORDERS);
      mkdirSync(folder, { recursive: true });
      writeOrders(folder, 'orders-1.tsv', [line('111-0000001-0000001')]);
      writeOrders(folder, 'orders-2.tsv', [line('111-0000002-0000002')]);
      const run = await cli(['run', '--pipeline', 'profit', '--home', home.root]);
      expect(run.code, run.stderr).toBe(0);
      // Each window the run rebuilt is a line `success profit <table> ...` of its output.
      const rebuilt = run.stdout.split('\n').filter((l) => l.startsWith('success profit ')).length;
      expect(rebuilt).toBeGreaterThan(0);

      // One export of the published order lines, read until it is done: 1 POST and `reads` GETs of the export.
      const created = await api('POST', '/exports', {
        sellerOrVendorIds: [US.id],
        tableName: 'mkt_order_items_with_cogs',
        from: '2026-11-20',
        to: '2026-11-20',
      });
      expect(created.status).toBe(202);
      let reads = 0;
      await until('the export', 60_000, async () => {
        reads += 1;
        const read = await api('GET', `/exports/${String(created.json.id)}`);
        expect(read.status).toBe(200);
        expect(read.json.status).not.toBe('ERROR');
        return read.json.status === 'COMPLETED';
      });
      await until('the two webhook deliveries', 60_000, async () => {
        const now = parseExposition(await scrape());
        return hook.received() >= 2 && valueOf(now, 'mktdata_webhook_deliveries_total', { outcome: 'delivered' }) >= 2;
      });

      const text = await scrape();
      const after = parseExposition(text);
      const moved = (name: string, labels: Record<string, string> = {}) =>
        valueOf(after, name, labels) - valueOf(before, name, labels);
      expect(hook.received()).toBe(2);
      expect(moved('mktdata_pipeline_runs_total', { pipeline: 'profit', outcome: 'success' })).toBe(1);
      expect(sum(after, 'mktdata_pipeline_runs_total') - sum(before, 'mktdata_pipeline_runs_total')).toBe(1);
      expect(moved('mktdata_pipeline_run_duration_seconds_count', { pipeline: 'profit' })).toBe(1);
      expect(moved('mktdata_windows_rebuilt_total', { pipeline: 'profit' })).toBe(rebuilt);
      expect(moved('mktdata_documents_landed_total', { source: ORDERS })).toBe(2);
      expect(moved('mktdata_rows_landed_total', { source: ORDERS })).toBe(2);
      expect(moved('mktdata_export_duration_seconds_count', { outcome: 'completed' })).toBe(1);
      expect(moved('mktdata_export_duration_seconds_count', { outcome: 'error' })).toBe(0);
      expect(moved('mktdata_webhook_deliveries_total', { outcome: 'delivered' })).toBe(2);
      expect(moved('mktdata_webhook_deliveries_total', { outcome: 'retrying' })).toBe(0);
      expect(moved('mktdata_webhook_delivery_lag_seconds_count')).toBe(2);
      expect(moved('mktdata_http_requests_total', { method: 'POST', route: '/api/v1/exports', status: '202' })).toBe(1);
      expect(
        moved('mktdata_http_requests_total', { method: 'GET', route: '/api/v1/exports/:exportId', status: '200' }),
      ).toBe(reads);
      expect(
        moved('mktdata_http_request_duration_seconds_count', { method: 'GET', route: '/api/v1/exports/:exportId' }),
      ).toBe(reads);
      // No live connectors: nothing fetched.
      expect(sum(after, 'mktdata_fetch_requests_total')).toBe(0);
      // The state: nothing waits; 10 tokens less the export's 2; the run's order lines are seconds old.
      expect(valueOf(after, 'mktdata_export_queue_depth')).toBe(0);
      expect(valueOf(after, 'mktdata_organization_tokens', { organization: org })).toBe(8);
      const age = valueOf(after, 'mktdata_table_data_age_seconds', {
        table: 'mkt_order_items_with_cogs',
        connection: US.id,
      });
      expect(age).toBeGreaterThanOrEqual(0);
      expect(age).toBeLessThan(600);
      expect(valueOf(after, 'mktdata_file_size_bytes', { file: 'snapshot' })).toBeGreaterThan(0);
      if (hasPromtool()) expect(promtoolComplaints(text)).toEqual([]);
      else
        console.warn('promtool is not installed (Debian package prometheus): the exposition was checked line by line');
    } finally {
      await server.stop(10_000);
      await hook.close();
    }
  });
});

/** The sum of every sample of a metric. */
const sum = (samples: Sample[], name: string) =>
  samples.filter((s) => s.name === name).reduce((total, s) => total + s.value, 0);
