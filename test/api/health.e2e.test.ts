// `/health` and `/ready` on `mktdata serve` itself (issue 58's acceptance): 503 naming `warehouse` while the
// warehouse file is moved away and 200 once it is back, 503 naming `disk` over MKTDATA_MIN_FREE_DISK; SIGHUP keeps
// the server running with one line; a run a killed server left recorded as running is recorded failed at the next
// start. The scaled-out checks are in test/scale/health.test.ts.
import { renameSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { openWarehouse } from '../../src/db/warehouse.ts';
import { recordRunStarted, runById } from '../../src/pipelines/pipeline-runs.ts';
import type { ReadyReport } from '../../src/api/readiness/ready-report.ts';
import { makeHome } from '../helpers/home.ts';
import { startServe, type ServeProcess } from '../helpers/serve.ts';

/** GET `/ready`: its status and body. */
async function ready(server: ServeProcess): Promise<{ status: number; body: ReadyReport }> {
  const response = await fetch(server.base.replace(/\/api\/v1$/, '/ready'));
  return { status: response.status, body: (await response.json()) as ReadyReport };
}

/** Polls `/ready` (its answer is reused for a second) until it answers `status`, for at most 15 s. */
async function readyWhen(server: ServeProcess, status: number) {
  for (const started = Date.now(); ; await delay(100)) {
    const answer = await ready(server);
    if (answer.status === status) return answer;
    if (Date.now() - started > 15_000) throw new Error(`/ready still ${JSON.stringify(answer)} after 15 s`);
  }
}

describe('health and readiness of mktdata serve', () => {
  it('fails /ready naming the warehouse while its file is away, the disk below the threshold; SIGHUP keeps it running', async () => {
    const { home, wh } = await makeHome();
    const runId = '00000000-0000-4000-8000-0000000000aa';
    // A run a server killed mid-run left behind (recorded running, never finished).
    await recordRunStarted(wh.db, {
      id: runId,
      pipeline: 'profit',
      trigger: 'schedule',
      clock: '2026-11-20T09:00:00.000Z',
      started_at: '2026-11-20T09:00:01.000Z',
      finished_at: null,
      status: 'running',
      backfill_from: null,
      backfill_to: null,
      error: null,
    });
    await wh.close();

    const server = await startServe(home.root);
    let exitCode: number | null;
    try {
      const root = server.base.replace(/\/api\/v1$/, '');
      const health = await fetch(`${root}/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ status: 'ok' });
      expect(await readyWhen(server, 200)).toEqual({
        status: 200,
        body: {
          status: 'ready',
          failing: [],
          checks: { warehouse: 'ok', snapshot: 'ok: nothing published yet', scheduler: 'ok', disk: 'ok' },
        },
      });

      renameSync(home.warehouse, `${home.warehouse}.away`);
      const away = await readyWhen(server, 503);
      expect(away.body.status).toBe('unavailable');
      expect(away.body.failing).toEqual(['warehouse']);
      expect(away.body.checks.warehouse).toBe(
        'warehouse.duckdb is missing from the home (moved or removed while this process has it open)',
      );
      expect(away.body.checks.disk).toBe('ok');
      // The process itself still answers.
      expect((await fetch(`${root}/health`)).status).toBe(200);
      renameSync(`${home.warehouse}.away`, home.warehouse);
      expect((await readyWhen(server, 200)).body.failing).toEqual([]);

      server.child.kill('SIGHUP');
      for (const started = Date.now(); !server.output().includes('does not reload its configuration'); await delay(50))
        if (Date.now() - started > 15_000) throw new Error(`no SIGHUP line:\n${server.output()}`);
      expect(server.output()).toContain(
        'SIGHUP received: mktdata does not reload its configuration (mktdata.config, the environment, the pipelines); it keeps running as it is, and a restart applies changes',
      );
      expect(server.child.exitCode).toBeNull();
      expect((await fetch(`${root}/health`)).status).toBe(200);
    } finally {
      exitCode = await server.stop(30_000);
    }
    expect(exitCode, server.output()).toBe(0);
    // The run the earlier server left is recorded failed now (the start recorded it; no run has run since).
    const after = await openWarehouse(home, 'test');
    try {
      expect(await runById(after.db, runId)).toMatchObject({ status: 'failed', error: 'interrupted' });
    } finally {
      await after.close();
    }

    // 1000 TB = 1e15 bytes free asked for: more than this machine's disk holds.
    const short = await startServe(home.root, ['--no-pipelines'], { env: { MKTDATA_MIN_FREE_DISK: '1000TB' } });
    try {
      const answer = await readyWhen(short, 503);
      expect(answer.body.failing).toEqual(['disk']);
      expect(answer.body.checks.disk).toMatch(
        /^\d+(\.\d)? (MB|GB|TB) free on the disk of the home, below MKTDATA_MIN_FREE_DISK \(1000 TB\)$/,
      );
      expect(answer.body.checks.scheduler).toBe('off');
    } finally {
      expect(await short.stop(30_000)).toBe(0);
    }
  });
});
