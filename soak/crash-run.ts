// Crash safety of `mktdata run` and `mktdata build`: killed (SIGKILL) at random points while the run lands new unit
// costs and rebuilds what they change (or the build rebuilds after `mktdata cogs import` landed them), the published
// snapshot must stay wholly the previous one or wholly the new one, and one rerun of the same command must converge
// to the uninterrupted result without losing a landed or waiting file.
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { resolveHome } from '../src/home.ts';
import {
  demo,
  demoConnections,
  dropDemoFiles,
  dropFile,
  fingerprints,
  makeDemoHome,
  mktdata,
  startMktdata,
} from './homes.ts';

export interface CrashRunReport {
  trials: number;
  /** Trials whose snapshot after the kill was wholly the previous or wholly the new one. */
  consistent: number;
  /** Trials whose first rerun exited 0 with the uninterrupted result. */
  converged: number;
  /** Trials where a file that waited in landing/ was neither landed nor still waiting after the rerun. */
  lost: number;
  failures: string[];
  runMs: number;
}

/** The demo unit costs with every item cost one unit higher from 2026-09-01: a change every profit table sees. */
function newerCosts(key: string): string {
  const lines = readFileSync(join(demo, key, 'cogs.csv'), 'utf8')
    .trim()
    .split('\n');
  const later = lines.slice(1).map((line) => {
    const f = line.split(',');
    f[3] = '2026-09-01';
    f[4] = (Number(f[4]) + 1).toFixed(4);
    return f.join(',');
  });
  return [lines[0], ...later].join('\n') + '\n';
}

const same = (a: Map<string, string> | null, b: Map<string, string> | null) =>
  JSON.stringify([...(a ?? [])]) === JSON.stringify([...(b ?? [])]);
async function landedCount(home: string): Promise<number> {
  const instance = await DuckDBInstance.create(resolveHome(home).warehouse, { access_mode: 'READ_ONLY' });
  try {
    const sql = await instance.connect();
    const count = Number((await sql.runAndReadAll('select count(*) from control.landed_files')).getRowsJson()[0]![0]);
    sql.closeSync();
    return count;
  } finally {
    instance.closeSync();
  }
}
const waiting = (home: string) =>
  readdirSync(join(home, 'landing'), { recursive: true, withFileTypes: true }).filter(
    (d) => d.isFile() && !d.name.startsWith('.'),
  ).length;

export async function crashRun(
  workDir: string,
  options: { trials: number; log: (line: string) => void; command?: 'run' | 'build' },
): Promise<CrashRunReport> {
  const command = options.command ?? 'run';
  const base = join(workDir, 'base');
  await makeDemoHome(base);
  for (const c of demoConnections) dropDemoFiles(base, c);
  const first = await mktdata(['run', '--home', base]);
  if (first.code !== 0) throw new Error(`the first run failed: ${first.stderr}`);
  // The run under test lands new unit costs for both connections.
  for (const c of demoConnections) {
    if (command === 'run') dropFile(base, c, 'cogs', 'cogs-2026-09.csv', newerCosts(c.key));
    else {
      const file = join(workDir, `cogs-${c.key}.csv`);
      writeFileSync(file, newerCosts(c.key));
      const imported = await mktdata(['cogs', 'import', '--connection', c.id, file, '--home', base]);
      if (imported.code !== 0) throw new Error(`cogs import failed: ${imported.stderr}`);
    }
  }
  const before = await fingerprints(base);

  const reference = join(workDir, 'reference');
  cpSync(base, reference, { recursive: true });
  const started = performance.now();
  const uninterrupted = await mktdata([command, '--home', reference]);
  const runMs = performance.now() - started;
  if (uninterrupted.code !== 0) throw new Error(`the uninterrupted ${command} failed: ${uninterrupted.stderr}`);
  const after = await fingerprints(reference);
  const landedAfter = await landedCount(reference);
  options.log(
    `crash ${command}: the uninterrupted ${command} takes ${(runMs / 1000).toFixed(1)} s; killing it ${options.trials} times at random points`,
  );

  const report: CrashRunReport = { trials: options.trials, consistent: 0, converged: 0, lost: 0, failures: [], runMs };
  for (let trial = 1; trial <= options.trials; trial++) {
    const home = mkdtempSync(join(workDir, 'trial-'));
    rmSync(home, { recursive: true });
    cpSync(base, home, { recursive: true });
    // Every other trial is killed in the run's last fifth (or just after it), where it publishes.
    const killAt = trial % 2 === 1 ? Math.random() * runMs : runMs * (0.8 + 0.25 * Math.random());
    const run = startMktdata([command, '--home', home]);
    const timer = setTimeout(() => run.child.kill('SIGKILL'), killAt);
    const ended = await run.ended;
    clearTimeout(timer);
    const snapshot = await fingerprints(home);
    const which = same(snapshot, before) ? 'previous' : same(snapshot, after) ? 'new' : null;
    if (which) report.consistent++;
    else {
      cpSync(home, `${home}-killed`, { recursive: true });
      const mixed = [...(after ?? [])]
        .filter(([t, f]) => snapshot?.get(t) !== f && before?.get(t) !== f)
        .map(([t]) => t);
      report.failures.push(
        `trial ${trial} (killed at ${killAt.toFixed(0)} ms): the snapshot is neither the previous nor the new one: ${mixed.join(', ')}`,
      );
    }
    const rerun = await mktdata([command, '--home', home]);
    const final = await fingerprints(home);
    const converged = rerun.code === 0 && same(final, after);
    if (!converged)
      options.log(
        `    differ: ${[...(after ?? [])]
          .filter(([t, f]) => final?.get(t) !== f)
          .map(([t, f]) => `${t} ${final?.get(t)} vs ${f}`)
          .join('; ')}`,
      );
    if (converged) report.converged++;
    else
      report.failures.push(
        `trial ${trial} (killed at ${killAt.toFixed(0)} ms, ${ended.code === null ? 'killed' : `exited ${ended.code}`}): the rerun exited ${rerun.code} ${rerun.code === 0 ? 'with other tables' : rerun.stderr.trim().split('\n').slice(-2).join(' ')}`,
      );
    if ((await landedCount(home)) + waiting(home) < landedAfter) {
      report.lost++;
      report.failures.push(`trial ${trial}: files lost`);
    }
    options.log(
      `  trial ${trial}: killed at ${killAt.toFixed(0)} ms → snapshot ${which ?? 'MIXED'}, rerun ${converged ? 'converged' : 'DIFFERS'}`,
    );
    if (which && converged) rmSync(home, { recursive: true, force: true });
    else options.log(`    kept ${home}`);
  }
  return report;
}
