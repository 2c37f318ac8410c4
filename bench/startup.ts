// `npm run bench -- startup`: how long a command takes to start, on the built `bin` (issue: a real package). Each
// is run 10 times in a row, the median taken: `mktdata --help`, `mktdata query "select 1"` on a published demo-sized
// home, and beside them a bare `node -e 0` and a bare DuckDB open of the same snapshot (node with @duckdb/node-api);
// then `mktdata plan` with and without the model-graph cache.
import { log, type Benchmark } from './benchmark.ts';
import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { publishedDemoHome } from '../soak/homes.ts';

const root = resolve(fileURLToPath(import.meta.url), '../..');
const RUNS = 10;

/** The median wall time of RUNS runs of a command, in ms. */
function median(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): number {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    execFileSync(command, args, { cwd: root, env, stdio: 'ignore' });
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return (times[RUNS / 2 - 1]! + times[RUNS / 2]!) / 2;
}

export async function benchStartup(workDir: string, log: (message: string) => void) {
  const home = join(workDir, 'home');
  log('startup: a published demo home…');
  await publishedDemoHome(home);
  const env = { ...process.env, NO_COLOR: '1' };
  log('startup: timing…');
  const node = median('node', ['-e', '0']);
  const duckdb = median('node', [
    '--input-type=module',
    '-e',
    `import { DuckDBInstance } from '@duckdb/node-api'; const db = await DuckDBInstance.create(${JSON.stringify(join(home, 'published', 'warehouse.duckdb'))}, { access_mode: 'READ_ONLY' }); await (await db.connect()).run('select 1');`,
  ]);
  const help = median('node', ['bin/mktdata.js', '--help'], env);
  const query = median('node', ['bin/mktdata.js', 'query', 'select 1', '--home', home], env);
  // `plan` opens the warehouse and loads the model graph: from the cache, and without one (a cache folder that
  // cannot exist, so every run parses the .yml files as the first run after a change does).
  const plan = median('node', ['bin/mktdata.js', 'plan', '--home', home], env);
  const planUncached = median('node', ['bin/mktdata.js', 'plan', '--home', home], {
    ...env,
    MKTDATA_CACHE_DIR: '/dev/null/no-cache',
  });
  return { node, duckdb, help, query, plan, planUncached };
}

/** `npm run bench -- startup`: `mktdata --help` and `mktdata query` against a bare node and DuckDB */
export const startupBenchmark: Benchmark = {
  name: 'startup',
  async run(workDir) {
    const r = await benchStartup(workDir, log);
    const bare = r.node + r.duckdb;
    const judge = (ms: number, target: number) => (ms <= target || ms <= 3 * bare ? '' : '  ← above target');
    return {
      steps: [
        { step: 'bare node -e 0 (median of 10)', ms: r.node, rows: 1 },
        { step: 'bare DuckDB open of the snapshot, select 1 (median of 10)', ms: r.duckdb, rows: 1 },
        { step: 'mktdata --help (median of 10)', ms: r.help, rows: 1 },
        { step: 'mktdata query "select 1" (median of 10)', ms: r.query, rows: 1 },
        { step: 'mktdata plan, model graph cached (median of 10)', ms: r.plan, rows: 1 },
        { step: 'mktdata plan, no cache: every .yml parsed (median of 10)', ms: r.planUncached, rows: 1 },
      ],
      summary: [
        `startup: --help ${(r.help / 1000).toFixed(2)} s (target ≤ 0.35 s, or within 3× of bare node + DuckDB open ${(bare / 1000).toFixed(2)} s)${judge(r.help, 350)}`,
        `startup: query "select 1" ${(r.query / 1000).toFixed(2)} s (target ≤ 0.6 s, or within 3× of ${(bare / 1000).toFixed(2)} s)${judge(r.query, 600)}`,
        `startup: plan ${(r.plan / 1000).toFixed(2)} s with the model-graph cache, ${(r.planUncached / 1000).toFixed(2)} s without`,
      ],
    };
  },
};
