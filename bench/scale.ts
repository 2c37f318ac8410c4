// `npm run bench -- scale`: a scaled-out install on this machine (a real PostgreSQL, `mktdata worker` processes, a
// shared folder). Many small connections get a first load, then a daily run (one new small orders document per
// connection) is timed with 1, 2 and 3 workers.
import { availableParallelism } from 'node:os';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import { addConnection } from '../src/control/connections/connections.ts';
import { createOrganization } from '../src/control/organizations.ts';
import { openPostgresControl } from '../src/db/control-store.ts';
import { startPostgres } from '../test/helpers/postgres.ts';
import { demoFixtures } from '../test/helpers/demo-fixtures.ts';
import { mktdata, scaleConnections, startMktdata, type Child } from '../test/helpers/scale.ts';

const SHARDS = 12;
const ORDERS = 'GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL';

/** A timed daily run with `workers` workers. */
export interface ScaleRound {
  workers: number;
  /** the run that follows a change of workers: shards restored from their checkpoints, nothing new landed */
  settleMs: number;
  /** the daily run: one new orders document per connection */
  dailyMs: number;
}

export interface ScaleBenchResult {
  connections: number;
  cores: number;
  firstLoadMs: number;
  rounds: ScaleRound[];
}

/** The demo US orders file's header and its lines `from`..`from + count` (a small document of real format). */
function ordersSlice(from: number, count: number): string {
  const [header, ...lines] = readFileSync(join(demoFixtures, 'us', ORDERS, 'orders-2026-08-01_2026-09-15.tsv'), 'utf8')
    .trimEnd()
    .split('\n');
  return [header, ...lines.slice(from, from + count)].join('\n') + '\n';
}

export async function benchScale(
  workDir: string,
  log: (message: string) => void,
  options: { connections?: number; workers?: number[] } = {},
): Promise<ScaleBenchResult> {
  const count = options.connections ?? 600;
  const server = await startPostgres();
  const shared = join(workDir, 'shared');
  const env = {
    MKTDATA_DATABASE_URL: server.url,
    MKTDATA_SHARED_DIR: shared,
    MKTDATA_SHARDS: String(SHARDS),
    MKTDATA_QUIET: '1',
  };
  const store = await openPostgresControl(server.url);
  const workers: Child[] = [];
  try {
    const organizationId = await createOrganization(store, { name: 'Agency', tokens: 0 });
    const connections = scaleConnections(count).map((c) => ({ ...c, marketplaceId: 'ATVPDKIKX0DER', key: 'us' }));
    for (const c of connections)
      await addConnection(store, {
        organizationId,
        id: c.id,
        name: c.name,
        marketplaceId: c.marketplaceId,
        sellerId: c.sellerId,
      });
    const drop = (round: number) => {
      for (const c of connections) {
        const folder = join(shared, 'landing', c.id, ORDERS);
        mkdirSync(folder, { recursive: true });
        writeFileSync(join(folder, `orders-${round}.tsv`), ordersSlice(round * 10, 10));
      }
    };
    const run = async (what: string) => {
      const started = performance.now();
      const r = await mktdata(['run', '--pipeline', 'profit'], env);
      if (r.code !== 0) throw new Error(`${what} failed:\n${r.output}`);
      const ms = performance.now() - started;
      log(`${what}: ${(ms / 1000).toFixed(1)} s`);
      return ms;
    };
    const startWorkers = async (n: number) => {
      for (const w of workers.splice(0)) {
        w.child.kill('SIGTERM');
        await w.exited;
      }
      for (let i = 1; i <= n; i++)
        workers.push(
          startMktdata(
            [
              'worker',
              '--work-dir',
              join(workDir, `worker-${i}`),
              '--id',
              `worker-${i}`,
              '--lease-seconds',
              '5',
              '--poll-seconds',
              '1',
              '--no-pipelines',
            ],
            env,
          ),
        );
      for (const started = Date.now(); ; await delay(250)) {
        const held = await store.db
          .selectFrom('control.shard_leases')
          .select('owner')
          .where('expires_at', '>', new Date().toISOString())
          .execute();
        if (held.length === SHARDS && new Set(held.map((h) => h.owner)).size === n) break;
        if (Date.now() - started > 120_000)
          throw new Error(`the ${n} workers did not share the shards:\n${workers.map((w) => w.output()).join('\n')}`);
      }
    };

    drop(0);
    await startWorkers(3);
    const firstLoadMs = await run(`first load of ${count} connections, 3 workers`);
    const rounds: ScaleRound[] = [];
    for (const [i, n] of (options.workers ?? [1, 2, 3]).entries()) {
      await startWorkers(n);
      const settleMs = await run(`${n} worker(s): run after the shards moved`);
      drop(i + 1);
      rounds.push({ workers: n, settleMs, dailyMs: await run(`${n} worker(s): daily run`) });
    }
    return { connections: count, cores: availableParallelism(), firstLoadMs, rounds };
  } finally {
    for (const w of workers) {
      w.child.kill('SIGTERM');
      await w.exited;
    }
    await store.close();
    server.stop();
  }
}
