import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { z } from 'zod';
import { demoFixtures } from './demo-fixtures.ts';
import type { Home } from '../../src/home.ts';
import { withSnapshot } from '../../src/publish/open-snapshot.ts';

const fixtureConnections = z.array(
  z.object({
    key: z.string(),
    id: z.string().uuid(),
    name: z.string(),
    marketplaceId: z.string(),
    sellerId: z.string(),
  }),
);

/** A connection of the scale tests: the demo's US or DE seller's files under a connection id of its own. */
export interface ScaleConnection {
  id: string;
  name: string;
  marketplaceId: string;
  sellerId: string;
  key: string;
}

/** `count` connections, alternately holding the bundled US and DE demo files, with ids that sort in their order. */
export function scaleConnections(count: number): ScaleConnection[] {
  const demo = fixtureConnections.parse(JSON.parse(readFileSync(join(demoFixtures, 'connections.json'), 'utf8')));
  return Array.from({ length: count }, (_, i) => {
    const c = demo[i % demo.length]!;
    return {
      id: `00000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`,
      name: `${c.name} #${i + 1}`,
      marketplaceId: c.marketplaceId,
      sellerId: `${c.sellerId}${i + 1}`,
      key: c.key,
    };
  });
}

/** Copies each connection's demo files (every source, and its unit costs as the `cogs` source) into `landing/<id>/`. */
export function dropDemoFiles(landing: string, connections: ScaleConnection[], sources?: string[]): void {
  for (const c of connections) {
    const folder = join(demoFixtures, c.key);
    const present = readdirSync(folder, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
    for (const source of present.filter((s) => !sources || sources.includes(s)))
      cpSync(join(folder, source), join(landing, c.id, source), { recursive: true });
    mkdirSync(join(landing, c.id, 'cogs'), { recursive: true });
    cpSync(join(folder, 'cogs.csv'), join(landing, c.id, 'cogs', 'cogs.csv'));
  }
}

/** A `mktdata` child process with its output collected. */
export interface Child {
  child: ChildProcess;
  output(): string;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
}

export function startMktdata(args: string[], env: NodeJS.ProcessEnv): Child {
  const child = spawn('node', ['bin/mktdata.js', ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  for (const stream of [child.stdout, child.stderr])
    stream.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
  const exited = once(child, 'exit').then(() => child.exitCode);
  return { child, output: () => text, exited };
}

/** Runs `mktdata ...args` to its end; its exit code and output. */
export async function mktdata(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; output: string }> {
  const c = startMktdata(args, env);
  const code = await c.exited;
  return { code, output: c.output() };
}

/**
 * Per published table of a single home: its rows, and the rows only in it and only in the union of the shards'
 * snapshots (except all, both ways), and the union's duplicated rows. `last_seen_at` (when a home saw a row) differs
 * between any two homes and is left out.
 */
export async function compareWithShards(
  single: Home,
  shared: Home,
): Promise<{ table: string; rows: number; onlySingle: number; onlyShards: number }[]> {
  const instance = await DuckDBInstance.create(single.published, { access_mode: 'READ_ONLY' });
  const a = await instance.connect();
  const tables = (
    await a.runAndReadAll(`select table_name from information_schema.tables where table_schema = 'main' order by 1`)
  )
    .getRowsJson()
    .map(([t]) => String(t));
  a.closeSync();
  instance.closeSync();
  return withSnapshot(shared, async (sql) => {
    await sql.run(`attach '${single.published}' as single (read_only)`);
    const count = async (query: string) => Number((await sql.runAndReadAll(query)).getRowsJson()[0]![0]);
    const cols = `columns(c -> c not in ('last_seen_at'))`;
    const out = [];
    for (const table of tables) {
      out.push({
        table,
        rows: await count(`select count(*) from single.${table}`),
        onlySingle: await count(
          `select count(*) from (select ${cols} from single.${table} except all select ${cols} from memory.main.${table})`,
        ),
        onlyShards: await count(
          `select count(*) from (select ${cols} from memory.main.${table} except all select ${cols} from single.${table})`,
        ),
      });
    }
    return out;
  });
}
