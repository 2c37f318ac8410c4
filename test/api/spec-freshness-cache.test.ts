import { mkdirSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/api/app.ts';
import { findPipeline, loadPipelines } from '../../src/pipelines/pipeline-config.ts';
import { runPipeline } from '../../src/pipelines/run-pipeline.ts';
import { makeHome, US, writeOrders } from '../helpers/home.ts';
import { orderLine } from '../helpers/profit.ts';

describe('the keyless catalog endpoints', () => {
  it('answer from a cached freshness that a publish in the same process renews at once', async () => {
    const { home, wh } = await makeHome();
    const app = await buildApp({ wh, home, logger: false, requestsPerSecond: 100 });
    const freshness = async () => {
      const scheme = (
        await app.inject({ method: 'GET', url: '/api/v1/spec/data-scheme?query=mkt_profit_by_date' })
      ).json();
      return scheme.sources.find((s: { tableName: string }) => s.tableName === 'mkt_profit_by_date').freshness;
    };
    // Never refreshed, and asked twice: the second answer comes from the cache.
    expect((await freshness()).lastRefreshedAt).toBeNull();
    expect((await freshness()).lastRefreshedAt).toBeNull();
    const folder = join(home.landing, US.id, 'GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL');
    mkdirSync(folder, { recursive: true });
    writeOrders(folder, 'orders.tsv', [
      orderLine({
        'amazon-order-id': 'A-1',
        'purchase-date': '2026-11-10T19:00:00+00:00',
        'last-updated-date': '2026-11-10T19:00:00+00:00',
      }),
    ]);
    const run = await runPipeline(wh, findPipeline(loadPipelines(), 'profit'), {
      now: new Date('2026-11-20T18:30:00Z'),
    });
    expect(run.published).toBe(true);
    // Within the 5 s the cache could otherwise last: the publish renewed it.
    expect((await freshness()).lastRefreshedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    await app.close();
    await wh.close();
  });

  it('are sent gzipped to clients that accept gzip, the same document once unzipped, and as they are to the others', async () => {
    const { home, wh } = await makeHome();
    const app = await buildApp({ wh, home, logger: false, requestsPerSecond: 100 });
    for (const url of [
      '/spec/data-scheme',
      '/spec/data-scheme?query=profit',
      '/spec/data-scheme.md',
      '/spec/data-scheme/mkt_profit_by_date.md',
      '/spec/webhook-scheme',
      '/spec/service_api.md',
    ]) {
      const plain = await app.inject({ method: 'GET', url: `/api/v1${url}` });
      const zipped = await app.inject({
        method: 'GET',
        url: `/api/v1${url}`,
        headers: { 'accept-encoding': 'gzip, deflate, br' },
      });
      const refused = await app.inject({
        method: 'GET',
        url: `/api/v1${url}`,
        headers: { 'accept-encoding': 'gzip;q=0, identity' },
      });
      expect(plain.statusCode, url).toBe(200);
      expect(plain.headers['content-encoding'], url).toBeUndefined();
      expect(zipped.headers['content-encoding'], url).toBe('gzip');
      expect(zipped.headers.vary, url).toBe('accept-encoding');
      expect(zipped.headers['content-type'], url).toBe(plain.headers['content-type']);
      expect(gunzipSync(zipped.rawPayload).toString('utf8'), url).toBe(plain.body);
      expect(refused.headers['content-encoding'], url).toBeUndefined();
      expect(refused.body, url).toBe(plain.body);
    }
    await app.close();
    await wh.close();
  });
});
