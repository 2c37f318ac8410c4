import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/api/app.ts';
import { isLoopback, metricsRoutes } from '../../src/api/routes/metrics.ts';
import type { Warehouse } from '../../src/db/warehouse.ts';
import type { Home } from '../../src/home.ts';
import { Metrics, metricsEnabled, serverMetrics } from '../../src/metrics/metrics.ts';
import { refreshIntervalSeconds } from '../../src/metrics/state-gauges.ts';
import { loadPipelines } from '../../src/pipelines/pipeline-config.ts';
import { makeHome } from '../helpers/home.ts';
import { hasPromtool, parseExposition, promtoolComplaints, valueOf } from '../helpers/metrics.ts';

describe('GET /metrics', () => {
  let home: Home;
  let wh: Warehouse;
  let app: App;
  let off: App;
  beforeAll(async () => {
    ({ home, wh } = await makeHome());
    const metrics = serverMetrics({ wh, home, pipelines: loadPipelines() }, true);
    app = await buildApp({ wh, home, logger: false, runActions: false, metrics });
    off = await buildApp({ wh, home, logger: false, runActions: false });
  });
  afterAll(async () => {
    await app?.close();
    await off?.close();
    await wh?.close();
  });

  it('answers loopback callers without an API key, in the Prometheus text format, and refuses others with 403 naming MKTDATA_METRICS_TOKEN', async () => {
    for (const remoteAddress of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1']) {
      const res = await app.inject({ url: '/metrics', remoteAddress });
      expect(res.statusCode, remoteAddress).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    }
    for (const remoteAddress of ['10.1.2.3', '192.168.0.7', '::ffff:10.0.0.1', '2001:db8::1']) {
      const res = await app.inject({ url: '/metrics', remoteAddress });
      expect(res.statusCode, remoteAddress).toBe(403);
      expect(res.json()).toMatchObject({ code: 'ERR_METRICS_LOOPBACK_ONLY' });
      expect(res.json().message).toContain('set MKTDATA_METRICS_TOKEN');
    }
    expect(isLoopback(undefined)).toBe(false);
  });

  it('counts each answer by route pattern and status (never the raw URL), and the state gauges of the home', async () => {
    const before = parseExposition((await app.inject({ url: '/metrics' })).body);
    await app.inject({ url: '/api/v1/spec/data-scheme/mkt_returns.md' });
    await app.inject({ url: '/api/v1/spec/data-scheme/mkt_profit_by_date.md' });
    await app.inject({ url: '/api/v1/no/such/thing' });
    await app.inject({ url: '/api/v1/util/organization' }); // no key: 401
    const text = (await app.inject({ url: '/metrics' })).body;
    const after = parseExposition(text);
    const moved = (labels: Record<string, string>) =>
      valueOf(after, 'mktdata_http_requests_total', labels) - valueOf(before, 'mktdata_http_requests_total', labels);
    // Two tables' pages (<table>.md) through one route pattern; the unknown path as "unmatched"; the keyless call as its 401.
    expect(moved({ method: 'GET', route: '/api/v1/spec/data-scheme/:file', status: '200' })).toBe(2);
    expect(moved({ method: 'GET', route: 'unmatched', status: '404' })).toBe(1);
    expect(moved({ method: 'GET', route: '/api/v1/util/organization', status: '401' })).toBe(1);
    expect(after.some((s) => s.labels.route?.includes('mkt_returns'))).toBe(false);
    const count = (s: typeof after) =>
      valueOf(s, 'mktdata_http_request_duration_seconds_count', {
        method: 'GET',
        route: '/api/v1/spec/data-scheme/:file',
      });
    expect(count(after) - count(before)).toBe(2);
    // makeHome: one organization with 10 tokens, no export waiting, no action; the home's warehouse file exists,
    // nothing is published yet.
    const org = (await wh.db.selectFrom('control.organizations').select('id').executeTakeFirstOrThrow()).id;
    expect(valueOf(after, 'mktdata_organization_tokens', { organization: org })).toBe(10);
    expect(valueOf(after, 'mktdata_export_queue_depth')).toBe(0);
    expect(valueOf(after, 'mktdata_actions', { status: 'PENDING' })).toBe(0);
    expect(valueOf(after, 'mktdata_file_size_bytes', { file: 'warehouse' })).toBeGreaterThan(0);
    expect(after.some((s) => s.name === 'mktdata_file_size_bytes' && s.labels.file === 'snapshot')).toBe(false);
    expect(valueOf(after, 'mktdata_disk_free_bytes')).toBeGreaterThan(0);
    expect(valueOf(after, 'mktdata_process_resident_memory_bytes')).toBeGreaterThan(0);
    // profit refreshes at 10:00 and 16:00 local: the longest gap is 16:00 → 10:00, 18 hours.
    expect(valueOf(after, 'mktdata_table_refresh_interval_seconds', { table: 'mkt_profit_by_date' })).toBe(64_800);
    if (hasPromtool()) expect(promtoolComplaints(text)).toEqual([]);
    else console.warn('promtool is not installed (Debian package prometheus): the exposition was checked line by line');
  });

  it('with MKTDATA_METRICS_TOKEN, answers any address presenting it as a bearer token and 401 otherwise, on any Fastify instance', async () => {
    const bare = Fastify();
    await metricsRoutes(bare, new Metrics(), { token: 's3cret-token' });
    try {
      const get = (remoteAddress: string, authorization?: string) =>
        bare.inject({ url: '/metrics', remoteAddress, headers: authorization ? { authorization } : {} });
      expect((await get('10.1.2.3', 'Bearer s3cret-token')).statusCode).toBe(200);
      expect((await get('127.0.0.1', 'Bearer s3cret-token')).statusCode).toBe(200);
      expect((await get('127.0.0.1')).statusCode).toBe(401); // loopback too, once a token is set
      expect((await get('10.1.2.3', 'Bearer wrong')).statusCode).toBe(401);
      expect((await get('10.1.2.3', 's3cret-token')).statusCode).toBe(401); // not a bearer credential
      expect((await get('10.1.2.3')).statusCode).toBe(401);
    } finally {
      await bare.close();
    }
  });

  it('is switched off by MKTDATA_METRICS=off: no metrics, and /metrics is a 404', async () => {
    expect(metricsEnabled({ MKTDATA_METRICS: 'off' })).toBe(false);
    expect(metricsEnabled({})).toBe(true);
    expect(serverMetrics({ wh, home, pipelines: [] }, metricsEnabled({ MKTDATA_METRICS: 'off' }))).toBeUndefined();
    const res = await off.inject({ url: '/metrics' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'ERR_ROUTE_NOT_FOUND' });
  });

  it('takes the longest gap between refresh times around the clock as the refresh interval', () => {
    expect(refreshIntervalSeconds([420])).toBe(86_400); // once a day
    expect(refreshIntervalSeconds([600, 960])).toBe(64_800); // 10:00 and 16:00: 16:00 → 10:00 is 18 h
    expect(refreshIntervalSeconds([0, 360, 720, 1080])).toBe(21_600); // every 6 h
  });
});
