// `/ready` of a scaled-out install (issue 58's acceptance): an API replica (`mktdata serve` on the shared control
// plane) and a worker's own listener (`mktdata worker --port`) answer 200, then 503 naming `control-plane` while
// PostgreSQL is stopped (both processes still answer `/health`), and 200 again once it is back; a worker keeps running
// on SIGHUP.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReadyReport } from '../../src/api/readiness/ready-report.ts';
import { postgresMissing, startPostgres } from '../helpers/postgres.ts';
import { startMktdata, type Child } from '../helpers/scale.ts';
import { startServe, type ServeProcess } from '../helpers/serve.ts';

if (postgresMissing) console.warn(postgresMissing);

/**
 * Waits for `check` to hold, polling every 100 ms, for at most 180 s (a hang guard: beside two other copies of the
 * suite, a replica took more than 30 s to notice PostgreSQL stopped); the processes' output in the failure.
 */
async function until<T>(what: string, check: () => Promise<T | undefined>, output: () => string): Promise<T> {
  for (const started = Date.now(); ; await delay(100)) {
    const value = await check().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() - started > 180_000) throw new Error(`${what}: not after 180 s\n${output()}`);
  }
}

describe.skipIf(postgresMissing !== null)('health and readiness, scaled out', () => {
  let server: Awaited<ReturnType<typeof startPostgres>>;
  let replica: ServeProcess;
  let worker: Child;
  let workerUrl = '';
  const root = mkdtempSync(join(tmpdir(), 'mktdata-health-'));
  const output = () => `--- replica\n${replica?.output()}\n--- worker\n${worker?.output()}`;
  /** `/ready` of `base` once it answers `status`. */
  const readyWhen = (base: string, status: number) =>
    until(
      `${base}/ready answering ${status}`,
      async () => {
        const response = await fetch(`${base}/ready`);
        const body = (await response.json()) as ReadyReport;
        return response.status === status ? body : undefined;
      },
      output,
    );

  beforeAll(async () => {
    server = await startPostgres();
    const env = {
      MKTDATA_DATABASE_URL: server.url,
      MKTDATA_SHARED_DIR: join(root, 'shared'),
      MKTDATA_SHARDS: '2',
      MKTDATA_QUIET: '1',
    };
    replica = await startServe(join(root, 'shared'), [], { env });
    worker = startMktdata(
      [
        'worker',
        '--work-dir',
        join(root, 'w1'),
        '--id',
        'w1',
        '--lease-seconds',
        '10',
        '--no-pipelines',
        '--port',
        '0',
      ],
      env,
    );
    workerUrl = await until(
      'the worker listening',
      async () => /\/health and \/ready on (http:\/\/127\.0\.0\.1:\d+)/.exec(worker.output())?.[1],
      output,
    );
  });

  afterAll(async () => {
    if (worker && worker.child.exitCode === null) worker.child.kill('SIGKILL');
    await replica?.stop(20_000);
    server?.stop();
  });

  it('answers 503 naming control-plane while PostgreSQL is stopped, and 200 once it is back', async () => {
    const api = replica.base.replace(/\/api\/v1$/, '');
    expect(await readyWhen(api, 200)).toEqual({
      status: 'ready',
      failing: [],
      checks: { 'control-plane': 'ok', snapshot: 'ok: nothing published yet', disk: 'ok' },
    });
    expect(await readyWhen(workerUrl, 200)).toEqual({
      status: 'ready',
      failing: [],
      checks: { 'control-plane': 'ok', disk: 'ok', 'shard-loop': 'ok' },
    });
    // The worker's listener serves its metrics too (loopback may scrape): its shard runs are counted there, and the
    // /ready answers it just gave (at least the one 200 above) by route pattern.
    const scraped = await fetch(`${workerUrl}/metrics`);
    expect(scraped.status).toBe(200);
    const exposition = await scraped.text();
    expect(exposition).toContain('# TYPE mktdata_pipeline_runs_total counter');
    expect(exposition).toMatch(/^mktdata_http_requests_total\{method="GET",route="\/ready",status="200"\} [1-9]/m);

    server.pause();
    for (const base of [api, workerUrl]) {
      const down = await readyWhen(base, 503);
      expect(down.status).toBe('unavailable');
      expect(down.failing).toContain('control-plane');
      // The server's address is left out (a refused connection is named by its code).
      expect(down.checks['control-plane']).toMatch(/^PostgreSQL does not answer: /);
      expect(down.checks['control-plane']).not.toContain(new URL(server.url).host);
      expect(down.checks.disk).toBe('ok');
      // The process itself still answers (an idle connection the server closed does not end it).
      expect((await fetch(`${base}/health`)).status).toBe(200);
    }

    server.resume();
    expect((await readyWhen(api, 200)).failing).toEqual([]);
    expect((await readyWhen(workerUrl, 200)).failing).toEqual([]);

    worker.child.kill('SIGHUP');
    await until(
      'the SIGHUP line',
      async () => worker.output().includes('does not reload its configuration') || undefined,
      output,
    );
    expect((await fetch(`${workerUrl}/health`)).status).toBe(200);
    expect(worker.child.exitCode).toBeNull();
    worker.child.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
    expect(await replica.stop(20_000)).toBe(0);
  });
});
