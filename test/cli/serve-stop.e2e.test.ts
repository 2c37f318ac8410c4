// `mktdata serve` stopped (SIGTERM) while a pipeline run it was handed is still building, with a grace period too
// short for it: the server says what it left unfinished and exits 1, the command that asked for the run says it did
// not complete, and the run stays recorded as running, never done (the next start records it failed, interrupted:
// test/api/health.e2e.test.ts).
import { existsSync, readdirSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { openWarehouse } from '../../src/db/warehouse.ts';
import { latestRuns } from '../../src/pipelines/pipeline-runs.ts';
import { DE, makeHome, US } from '../helpers/home.ts';
import { dropDemoFiles, startMktdata } from '../helpers/scale.ts';
import { startServe } from '../helpers/serve.ts';

/** Whether any document has been landed yet (moved from landing/ to landed/<connection>/<source>/). */
const anyLanded = (landed: string) =>
  existsSync(landed) && readdirSync(landed, { recursive: true, withFileTypes: true }).some((entry) => entry.isFile());

describe('mktdata serve stopping with a run in progress', () => {
  it('exits 1 after --grace-seconds naming the unfinished run, which stays recorded as running', async () => {
    const { home, wh } = await makeHome();
    await wh.close();
    // Every bundled demo document of both sellers: landing them and building every model takes many seconds.
    dropDemoFiles(home.landing, [
      { ...US, name: 'Test US', sellerId: 'SELLERUS', key: 'us' },
      { ...DE, name: 'Test DE', sellerId: 'SELLERDE', key: 'de' },
    ]);
    const server = await startServe(home.root, ['--grace-seconds', '1', '--no-pipelines']);
    // One pipeline, so one run: `mktdata run` alone runs each pipeline in turn, and a quick one may end before the stop.
    const run = startMktdata(['run', '--pipeline', 'profit', '--home', home.root], {});
    try {
      // The run has started (it records itself running first, then lands) once a document is in landed/.
      for (const started = Date.now(); !anyLanded(home.landed); await delay(50))
        if (Date.now() - started > 60_000) throw new Error(`no document landed:\n${run.output()}\n${server.output()}`);
    } finally {
      // (Killed after 60 s if it does not exit by itself, its output then shown.)
      expect(await server.stop(60_000), server.output()).toBe(1);
    }
    expect(server.output()).toContain(
      'stopping: the pipeline run or command in progress not done after the 1 s grace period (--grace-seconds): exiting now; the work of a command handed to the server (such as `mktdata run`) is unfinished: a run stays recorded as running until the next start records it failed (interrupted), and the next run plans its windows again',
    );
    // The command that asked for the run is told, in one line, that it did not complete.
    expect(await run.exited, run.output()).toBe(1);
    expect(run.output()).toContain(
      `mktdata: the server holding ${home.root} stopped before the command finished, so it did not complete (a pipeline run it started is recorded failed, interrupted, when the server starts again): run it again then`,
    );

    const after = await openWarehouse(home, 'test');
    try {
      const runs = await latestRuns(after.db, { limit: 10 });
      expect(runs.map((r) => ({ status: r.status, finished_at: r.finished_at }))).toEqual([
        { status: 'running', finished_at: null },
      ]);
    } finally {
      await after.close();
    }
  });
});
