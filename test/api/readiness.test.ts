// `/health` and `/ready` in process (app.inject): the answer's shape, that no key, rate limit or sign-in applies, and
// each check of src/api/readiness/ on real files and a real warehouse. test/api/health.e2e.test.ts runs them on
// `mktdata serve` itself.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp, type App } from '../../src/api/app.ts';
import { controlPlaneCheck } from '../../src/api/readiness/control-plane-checks.ts';
import { diskCheck } from '../../src/api/readiness/disk-check.ts';
import { serveChecks } from '../../src/api/readiness/process-checks.ts';
import { failing, passing, readiness } from '../../src/api/readiness/ready-report.ts';
import { snapshotCheck } from '../../src/api/readiness/snapshot-check.ts';
import type { Warehouse } from '../../src/db/warehouse.ts';
import { PipelineScheduler } from '../../src/pipelines/pipeline-scheduler.ts';
import { makeHome } from '../helpers/home.ts';

describe('health and readiness', () => {
  let wh: Warehouse;
  let app: App;
  beforeAll(async () => {
    wh = (await makeHome()).wh;
    // One request per second per organization: a limit the probes would hit at once if it applied to them.
    app = await buildApp({ wh, home: wh.home, logger: false, requestsPerSecond: 1 });
  });
  afterAll(async () => {
    await app.close();
    await wh.close();
  });

  it('answers /health and /ready without a key, a rate limit or a console session, and with no data', async () => {
    for (let i = 0; i < 5; i++) {
      const health = await app.inject({ method: 'GET', url: '/health' });
      expect(health.statusCode).toBe(200);
      expect(health.json()).toEqual({ status: 'ok' });
      expect(health.headers['cache-control']).toBe('no-store');
      const ready = await app.inject({ method: 'GET', url: '/ready' });
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toEqual({
        status: 'ready',
        failing: [],
        checks: { warehouse: 'ok', snapshot: 'ok: nothing published yet', disk: 'ok' },
      });
    }
    // Under /api/v1 there is no such route: they live at the root only.
    expect((await app.inject({ method: 'GET', url: '/api/v1/health' })).statusCode).toBe(404);
  });

  it('fails the control-plane check naming a migration missing or unknown, and passes once it is back', async () => {
    const check = controlPlaneCheck(wh.db, 'the warehouse');
    expect(await check()).toEqual(passing());
    const last = '018-run-errors-and-unmetered';
    const row = (
      await sql<{ name: string; timestamp: string }>`select * from kysely_migration where name = ${last}`.execute(wh.db)
    ).rows[0]!;
    await sql`delete from kysely_migration where name = ${last}`.execute(wh.db);
    expect(await check()).toEqual(failing(`the control plane lacks 1 migration(s) of this version, from ${last}`));
    await sql`insert into kysely_migration values (${row.name}, ${row.timestamp})`.execute(wh.db);
    await sql`insert into kysely_migration values ('999-from-the-future', ${row.timestamp})`.execute(wh.db);
    expect(await check()).toEqual(
      failing('the control plane was migrated by a newer mktdata (migration 999-from-the-future is unknown here)'),
    );
    await sql`delete from kysely_migration where name = '999-from-the-future'`.execute(wh.db);
    expect(await check()).toEqual(passing());
  });

  it('checks a published snapshot: missing file, a file that is no DuckDB database, then a real one', async () => {
    const home = wh.home;
    const check = snapshotCheck(home);
    mkdirSync(home.publishedDir, { recursive: true });
    writeFileSync(join(home.publishedDir, 'manifest.json'), JSON.stringify({ snapshotId: 's1', tables: [] }));
    expect(await check()).toEqual(failing('published/warehouse.duckdb is missing (its manifest names snapshot s1)'));
    writeFileSync(home.published, 'not a database');
    const broken = await check();
    expect(broken.ok).toBe(false);
    expect(broken.text).toMatch(/^published\/warehouse\.duckdb does not open read-only: /);
    expect(broken.text).not.toContain(home.root);
    // A real snapshot (a new file, so a new inode: opened anew rather than the cached failure reused).
    writeFileSync(join(home.publishedDir, 'manifest.json'), JSON.stringify({ snapshotId: 's2', tables: [] }));
    const real = join(home.publishedDir, 'real.duckdb');
    const instance = await DuckDBInstance.create(real);
    (await instance.connect()).closeSync();
    instance.closeSync();
    renameSync(real, home.published);
    expect(await check()).toEqual(passing());
  });

  it('fails the disk check below the threshold, saying how much is free and the threshold', async () => {
    expect(await diskCheck(wh.home.root, 'the home', 0)()).toEqual(passing());
    // 1000 TB = 1e15 bytes: more than this machine's disk holds.
    const short = await diskCheck(wh.home.root, 'the home', 1e15)();
    expect(short.ok).toBe(false);
    expect(short.text).toMatch(
      /^\d+(\.\d)? (MB|GB|TB) free on the disk of the home, below MKTDATA_MIN_FREE_DISK \(1000 TB\)$/,
    );
  });

  it('refuses a threshold that is no size when the checks are made', () => {
    vi.stubEnv('MKTDATA_MIN_FREE_DISK', 'lots');
    try {
      expect(() => serveChecks(wh)).toThrow('MKTDATA_MIN_FREE_DISK: "lots" is not a size such as 2GB or 1536MiB');
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('reports the scheduler alive once started, stale when no tick ended for 150 s, stopped after stop, off without pipelines', async () => {
    const scheduler = new PipelineScheduler(wh, [], () => {});
    expect(scheduler.liveness()).toBe('the scheduler has not started');
    scheduler.start();
    expect(scheduler.liveness()).toBeNull();
    // 151 s on, with no tick ended since the start (the cron ticks each minute: two and a half missed).
    expect(scheduler.liveness(Date.now() + 151_000)).toMatch(/^no scheduling tick ended for 15\d s$/);
    await scheduler.stop();
    expect(scheduler.liveness()).toBe('the scheduler is stopped (the server is stopping)');
    const off = await readiness(serveChecks(wh, 'off'))();
    expect(off.checks.scheduler).toBe('off');
  });

  it('answers 503 naming a check that fails, throws or hangs, with the others still reported', async () => {
    let calls = 0;
    const ready = readiness(
      {
        fine: async () => (calls++, passing()),
        broken: async () => failing('it is broken'),
        throws: async () => {
          throw new Error(`no such file ${wh.home.root}/x.duckdb\nsecond line`);
        },
        hangs: () => new Promise(() => {}),
      },
      { timeoutMs: 50, cacheMs: 60_000, root: wh.home.root },
    );
    const report = await ready();
    expect(report).toEqual({
      status: 'unavailable',
      failing: ['broken', 'throws', 'hangs'],
      checks: {
        fine: 'ok',
        broken: 'it is broken',
        throws: 'no such file x.duckdb',
        hangs: 'did not answer within 0.05 s',
      },
    });
    // Within cacheMs the same report is reused: the checks ran once for both calls.
    await ready();
    expect(calls).toBe(1);
  });
});
