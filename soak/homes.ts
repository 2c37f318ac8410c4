// Homes for the soak: a demo home made through the CLI as a user makes one, copied per trial.
import { execFile, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { DuckDBInstance } from '@duckdb/node-api';

const root = resolve(fileURLToPath(import.meta.url), '../..');
export const demo = join(root, 'fixtures/demo');
const run = promisify(execFile);

/** `mktdata ARGS` to its end: exit code and output. */
export async function mktdata(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run('node', [join(root, 'bin/mktdata.js'), ...args], {
      env: { ...env, NO_COLOR: '1' },
      maxBuffer: 64 << 20,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: typeof e.code === 'number' ? e.code : 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

/** Starts `mktdata ARGS` and resolves when it ends or is killed: exit code (null when killed) and its output. */
export function startMktdata(args: string[], env: NodeJS.ProcessEnv = process.env) {
  const child = spawn('node', [join(root, 'bin/mktdata.js'), ...args], {
    env: { ...env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const ended = new Promise<{ code: number | null; output: string }>((done) =>
    child.once('exit', (code) => done({ code, output })),
  );
  return { child, ended, output: () => output };
}

export interface DemoConnection {
  key: string;
  id: string;
  marketplaceId: string;
}

/** The demo's two connections (fixtures/demo/connections.json). */
export const demoConnections: DemoConnection[] = JSON.parse(readFileSync(join(demo, 'connections.json'), 'utf8'));

/** Copies a connection's demo files into landing/ as a user drops them (`cogs.csv` with the unit costs). */
export function dropDemoFiles(home: string, connection: DemoConnection): void {
  for (const source of readdirSync(join(demo, connection.key), { withFileTypes: true }).filter((d) =>
    d.isDirectory(),
  )) {
    cpSync(join(demo, connection.key, source.name), join(home, 'landing', connection.id, source.name), {
      recursive: true,
    });
  }
  dropFile(home, connection, 'cogs', 'cogs.csv', readFileSync(join(demo, connection.key, 'cogs.csv')));
}

/** Writes one file into landing/<connection>/<source>/. */
export function dropFile(
  home: string,
  connection: DemoConnection,
  source: string,
  name: string,
  bytes: Buffer | string,
): void {
  const dir = join(home, 'landing', connection.id, source);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, name), bytes);
}

/** Makes a demo home through the CLI: init, an organization, the two connections; returns the organization's id. */
export async function makeDemoHome(home: string): Promise<string> {
  const h = ['--home', home];
  const step = async (args: string[]) => {
    const result = await mktdata([...args, ...h]);
    if (result.code !== 0) throw new Error(`mktdata ${args.join(' ')} failed: ${result.stderr}`);
    return result.stdout.trim().split('\n').at(-1)!;
  };
  await step(['init']);
  const org = await step(['org', 'create', '--name', 'Soak org', '--tokens', '1000000']);
  for (const c of demoConnections)
    await step([
      'connections',
      'add',
      '--org',
      org,
      '--name',
      `Soak ${c.key}`,
      '--marketplace',
      c.marketplaceId,
      '--id',
      c.id,
    ]);
  return org;
}

/**
 * A demo home whose demo files one `mktdata run` has landed, built and published; its organization, and `cli`,
 * which runs `mktdata ARGS --home HOME`, fails on a non-zero exit and returns the last line printed (an id, a key).
 */
export async function publishedDemoHome(
  home: string,
): Promise<{ org: string; cli: (args: string[]) => Promise<string> }> {
  const org = await makeDemoHome(home);
  for (const c of demoConnections) dropDemoFiles(home, c);
  const first = await mktdata(['run', '--home', home]);
  if (first.code !== 0) throw new Error(`the demo run failed: ${first.stderr}`);
  const cli = async (args: string[]) => {
    const r = await mktdata([...args, '--home', home]);
    if (r.code !== 0) throw new Error(`mktdata ${args.join(' ')}: ${r.stderr}`);
    return r.stdout.trim().split('\n').at(-1)!;
  };
  return { org, cli };
}

/**
 * Per-table fingerprints of a published snapshot (rows and an order-free hash of every row), opened read-only as an
 * analyst opens it; null when there is none. With `before`, a table with a `date` column counts only the rows of
 * earlier days (what a later clock cannot have changed).
 */
export async function fingerprints(home: string, before?: string): Promise<Map<string, string> | null> {
  const file = join(home, 'published', 'warehouse.duckdb');
  if (!existsSync(file)) return null;
  const instance = await DuckDBInstance.create(file, { access_mode: 'READ_ONLY' });
  try {
    const sql = await instance.connect();
    const tables = (
      await sql.runAndReadAll(`select table_name from information_schema.tables where table_schema = 'main' order by 1`)
    )
      .getRowsJson()
      .map(([t]) => String(t));
    const result = new Map<string, string>();
    const dated = new Set(
      (
        await sql.runAndReadAll(
          `select table_name from information_schema.columns where table_schema = 'main' and column_name = 'date'`,
        )
      )
        .getRowsJson()
        .map(([t]) => String(t)),
    );
    for (const table of tables) {
      const where = before && dated.has(table) ? ` where date < date '${before}'` : '';
      // mkt_cogs.updated_at is when the unit costs were uploaded: a fact of the run, not of the data.
      const [row] = (
        await sql.runAndReadAll(
          `select count(*)::varchar, coalesce(sum(hash(t::varchar)), 0)::varchar from (select * exclude (updated_at) from main.${table}${where}) as t`.replace(
            ' exclude (updated_at)',
            table === 'mkt_cogs' ? ' exclude (updated_at)' : '',
          ),
        )
      ).getRowsJson();
      result.set(table, `${row![0]} rows #${row![1]}`);
    }
    sql.closeSync();
    return result;
  } finally {
    instance.closeSync();
  }
}
