// Resources: a full build of the two-year bench data set under a 2 GB DuckDB memory limit (a child process with
// MKTDATA_MEMORY_LIMIT and MKTDATA_TEMP_DIRECTORY set, its spill directory measured while it runs), and a run whose
// publish meets a full disk (published/ on a small tmpfs in a private mount namespace: `unshare`, root or
// unprivileged user namespaces), which must keep the previous snapshot and its manifest, leave nothing behind, say
// so, and publish on the next run once there is space.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { onFullDisk } from '../test/helpers/full-disk.ts';
import { demoConnections, dropDemoFiles, dropFile, makeDemoHome, mktdata } from './homes.ts';

export interface ResourcesReport {
  memory: {
    completed: boolean;
    memoryLimit: string;
    buildS: number;
    spilledMb: number;
    maxRssMb: number;
    profitRows: number;
    failed: string[];
  };
  diskFull: { keptPrevious: boolean; saidSo: boolean; leftNothing: boolean; nextRunPublished: boolean; output: string };
  failures: string[];
}

const root = join(import.meta.dirname, '..');
const MEMORY_LIMIT = '2GB';

/** Size of a directory tree in bytes (0 when absent). */
function treeBytes(dir: string): number {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((d) => d.isFile())
      .reduce((sum, d) => sum + statSync(join(d.parentPath, d.name)).size, 0);
  } catch {
    return 0;
  }
}

async function memoryBuild(workDir: string, log: (line: string) => void): Promise<ResourcesReport['memory']> {
  const spill = join(workDir, 'spill');
  const child = spawn('node', [join(root, 'bin/run-ts.js'), join(root, 'soak/memory-build.ts'), workDir], {
    env: { ...process.env, MKTDATA_MEMORY_LIMIT: MEMORY_LIMIT, MKTDATA_TEMP_DIRECTORY: spill },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (err += c));
  let spilled = 0;
  const sampler = setInterval(() => (spilled = Math.max(spilled, treeBytes(spill))), 1000);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  clearInterval(sampler);
  const result = /^\{.*\}$/m.exec(out)?.[0];
  if (code !== 0 || !result) {
    log(`resources: the build under ${MEMORY_LIMIT} exited ${code}: ${err.trim().split('\n').slice(-3).join(' ')}`);
    return {
      completed: false,
      memoryLimit: MEMORY_LIMIT,
      buildS: 0,
      spilledMb: spilled / 2 ** 20,
      maxRssMb: 0,
      profitRows: 0,
      failed: [err.trim().split('\n').at(-1) ?? `exit ${code}`],
    };
  }
  const r = JSON.parse(result) as {
    memoryLimit: string;
    failed: string[];
    buildMs: number;
    profitRows: number;
    maxRssMb: number;
  };
  return {
    completed: r.failed.length === 0 && r.profitRows > 0,
    memoryLimit: r.memoryLimit,
    buildS: r.buildMs / 1000,
    spilledMb: spilled / 2 ** 20,
    maxRssMb: r.maxRssMb,
    profitRows: r.profitRows,
    failed: r.failed,
  };
}

export async function diskFullPublish(workDir: string): Promise<ResourcesReport['diskFull']> {
  const home = join(workDir, 'home');
  await makeDemoHome(home);
  for (const c of demoConnections) dropDemoFiles(home, c);
  const first = await mktdata(['run', '--home', home]);
  if (first.code !== 0) throw new Error(`the first run failed: ${first.stderr}`);
  const manifest = readFileSync(join(home, 'published', 'manifest.json'), 'utf8');
  // New unit costs: the next run changes every profit table and publishes.
  for (const c of demoConnections) {
    const lines = readFileSync(join(root, 'fixtures/demo', c.key, 'cogs.csv'), 'utf8')
      .trim()
      .split('\n');
    dropFile(
      home,
      c,
      'cogs',
      'cogs-later.csv',
      [
        lines[0],
        ...lines.slice(1).map((l) =>
          l
            .split(',')
            .map((f, i) => (i === 3 ? '2026-09-01' : i === 4 ? (Number(f) + 1).toFixed(4) : f))
            .join(','),
        ),
      ].join('\n') + '\n',
    );
  }
  const snapshotKb = Math.ceil(statSync(join(home, 'published', 'warehouse.duckdb')).size / 1024);
  const full = await onFullDisk(
    home,
    Math.ceil(snapshotKb * 1.5),
    ['run', '--home', home],
    'mkt_profit_by_date',
    'count(*)',
  );
  const again = await mktdata(['run', '--home', home]);
  const after = readFileSync(join(home, 'published', 'manifest.json'), 'utf8');
  return {
    keptPrevious: full.manifest === manifest && full.lines.length === 1,
    saidSo:
      full.code === 1 &&
      /publishing stopped, the disk of .* is full .*; the previous snapshot \(published .*\) is still the one served/.test(
        full.output,
      ),
    leftNothing: JSON.stringify(full.files) === JSON.stringify(['manifest.json', 'warehouse.duckdb']),
    nextRunPublished: again.code === 0 && after !== manifest,
    output: full.output.trim().split('\n').slice(-2).join(' '),
  };
}

export async function resources(workDir: string, options: { log: (line: string) => void }): Promise<ResourcesReport> {
  const failures: string[] = [];
  options.log('resources: a run whose publish meets a full disk');
  const diskFull = await diskFullPublish(join(workDir, 'disk-full'));
  if (!(diskFull.keptPrevious && diskFull.saidSo && diskFull.leftNothing && diskFull.nextRunPublished))
    failures.push(`disk full: ${JSON.stringify(diskFull)}`);
  options.log(
    `resources: generating the two-year bench data and building every model under a ${MEMORY_LIMIT} memory limit`,
  );
  const memory = await memoryBuild(join(workDir, 'memory'), options.log);
  if (!memory.completed) failures.push(`build under ${MEMORY_LIMIT}: ${memory.failed.join('; ')}`);
  return { memory, diskFull, failures };
}
