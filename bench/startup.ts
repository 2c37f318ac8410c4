// `npm run bench -- startup`: how long a command takes to start, on the built `bin` (issue: a real package). Each
// is run 10 times in a row, the median taken: `mktdata --help`, `mktdata query "select 1"` on a published demo-sized
// home, and beside them a bare `node -e 0` and a bare DuckDB open of the same snapshot (node with @duckdb/node-api);
// then `mktdata plan` with and without the model-graph cache.
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
