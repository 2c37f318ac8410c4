// Crash safety of `mktdata run` while it fetches: the first load of the demo sellers' profit pipeline through the
// fake marketplace (in this process, on a clock 500× real time, every trial on its own fake and home starting at
// the same clock time), killed (SIGKILL) at a random point, then run again to its end. The rerun must exit 0 having
// requested no report twice (the killed run's reports resumed, not created again, and what it had fetched not asked
// again), and end with the published tables of an uninterrupted first load (on the days before SETTLED_BEFORE).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { realNow, scaledClock } from '../src/time/clock.ts';
import { demoSellers, fakeMarketplaceEnv, startFakeMarketplace, type FakeMarketplace } from '@mktdata/fake-marketplace';
import { connectAll, demoHome } from '../test/helpers/live.ts';
import { fingerprints } from './homes.ts';

export interface CrashFetchReport {
  trials: number;
  /** Trials whose rerun exited 0 with the uninterrupted tables. */
  converged: number;
  /** Report creates made twice, over all trials. */
  duplicates: number;
  failures: string[];
}

const SPEED = 500;
const START = '2026-11-20T18:30:00Z';
const OPENED_ON = '2026-09-01';
/**
 * Tables are compared on the days before this one: the last days' orders and traffic still move on the fake's
 * clock (statuses, late data), and every run reads that clock a little later than the last.
 */
const SETTLED_BEFORE = '2026-11-17';

/** A report create the fake accepted: its API, seller, type and window. */
const creates = (fake: FakeMarketplace) =>
  fake.log
    .filter((e) => e.operation === 'createReport' && (e.status === 202 || (e.api === 'ads' && e.status === 200)))
    .map((e) =>
      JSON.stringify([
        e.api,
        e.sellerId,
        e.detail.reportType ?? e.detail.reportTypeId,
        e.detail.dataStartTime ?? e.detail.startDate,
        e.detail.dataEndTime ?? e.detail.endDate,
      ]),
    );

/** A fresh fake at START and a home connected to it; `run()` starts `mktdata run --pipeline profit` on both. */
async function setting() {
  const realStart = realNow();
  const fake = await startFakeMarketplace({
    sellers: demoSellers(OPENED_ON),
    clock: scaledClock(SPEED, Date.parse(START), realStart),
  });
  const { home, wh } = await demoHome('mktdata-soak-fetch-');
  await connectAll(wh, fake, demoSellers(OPENED_ON));
  await wh.close();
  const env = { ...process.env, ...fakeMarketplaceEnv(fake, { speed: SPEED, start: Date.parse(START), realStart }) };
  const run = () => {
    const child = spawn('node', ['bin/mktdata.js', 'run', '--home', home.root, '--pipeline', 'profit'], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c) => (output += c));
    child.stderr.on('data', (c) => (output += c));
    const ended = once(child, 'exit').then(([code]) => ({ code: code as number | null, output }));
    return { child, ended };
  };
  return {
    fake,
    home: home.root,
    run,
    dispose: async () => {
      await fake.close();
      rmSync(dirname(home.root), { recursive: true, force: true });
    },
  };
}

export async function crashFetch(
  workDir: string,
  options: { trials: number; log: (line: string) => void },
): Promise<CrashFetchReport> {
  void workDir;
  const reference = await setting();
  const started = performance.now();
  const whole = await reference.run().ended;
  const runMs = performance.now() - started;
  if (whole.code !== 0) throw new Error(`the uninterrupted first load failed:\n${whole.output}`);
  const expected = await fingerprints(reference.home, SETTLED_BEFORE);
  await reference.dispose();
  options.log(
    `crash fetch: the uninterrupted first load takes ${(runMs / 1000).toFixed(1)} s; killing it ${options.trials} times at random points`,
  );

  const report: CrashFetchReport = { trials: options.trials, converged: 0, duplicates: 0, failures: [] };
  for (let trial = 1; trial <= options.trials; trial++) {
    const t = await setting();
    try {
      const killAt = Math.random() * runMs;
      const killed = t.run();
      const timer = setTimeout(() => killed.child.kill('SIGKILL'), killAt);
      await killed.ended;
      clearTimeout(timer);
      const before = creates(t.fake).length;
      const rerun = await t.run().ended;
      const all = creates(t.fake);
      const twice = all.filter((c, i) => all.indexOf(c) !== i);
      report.duplicates += twice.length;
      const final = await fingerprints(t.home, SETTLED_BEFORE);
      const differ = [...(expected ?? [])].filter(([table, f]) => final?.get(table) !== f).map(([table]) => table);
      const ok = rerun.code === 0 && twice.length === 0 && differ.length === 0;
      if (ok) report.converged++;
      else
        report.failures.push(
          `trial ${trial} (killed at ${killAt.toFixed(0)} ms): rerun exited ${rerun.code}; ${twice.length} report(s) created twice ${twice.slice(0, 3).join(' ')}; tables differing: ${differ.join(', ') || 'none'}${rerun.code !== 0 ? `\n${rerun.output.trim().split('\n').slice(-3).join('\n')}` : ''}`,
        );
      options.log(
        `  trial ${trial}: killed at ${killAt.toFixed(0)} ms after ${before} report create(s) → rerun ${rerun.code === 0 ? 'exited 0' : `exited ${rerun.code}`}, ${twice.length} created twice, ${differ.length === 0 ? 'converged' : `${differ.length} table(s) DIFFER`}`,
      );
    } finally {
      await t.dispose();
    }
  }
  return report;
}
