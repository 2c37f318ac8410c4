// Scale-out end to end (issue: beyond one machine): a real PostgreSQL, 3 `mktdata worker` processes and 2 API
// replicas (`mktdata serve` on the same control plane) on loopback, 60 connections holding the bundled demo files.
// Every published table equals a single home's build of the same files; a worker killed with SIGKILL mid-run has its
// shards finished by the others with no window lost or applied twice; an export created on one replica is served by
// the other; the rate limit holds across the replicas; a worker added takes shards over from their checkpoints; the
// webhook events the shards derive are delivered by the replicas, each once, as a single home derives them.
// `npm run test:scale` runs this file alone.
import { mkdtempSync, readdirSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addConnection } from '../../src/control/connections/connections.ts';
import { createApiKey } from '../../src/control/organizations.ts';
import { openPostgresControl, type ControlStore } from '../../src/db/control-store.ts';
import { openWarehouse } from '../../src/db/warehouse.ts';
import { resolveHome } from '../../src/home.ts';
import { scaleConfig, sharedHome } from '../../src/scale/scale-config.ts';
import { shardOf } from '../../src/control/shard-assignment.ts';
import { createSubscription } from '../../src/webhooks/subscriptions.ts';
import { postgresMissing, startPostgres } from '../helpers/postgres.ts';
import {
  compareWithShards,
  dropDemoFiles,
  mktdata,
  scaleConnections,
  startMktdata,
  type Child,
} from '../helpers/scale.ts';
import { call, httpClient } from '../helpers/mcp-home.ts';
import { startServe, type ServeProcess } from '../helpers/serve.ts';

if (postgresMissing) console.warn(postgresMissing);

const CONNECTIONS = 60;

/** Today in UTC and in the connections' marketplace timezones: what a run's windows are planned from. */
const planningDates = () =>
  ['UTC', 'America/Los_Angeles', 'Europe/Berlin']
    .map((timeZone) => new Date().toLocaleDateString('en-CA', { timeZone }))
    .join(' ');
const SHARDS = 6;
const PIPELINE = 'profit';
/** The demo files each connection holds: its orders (and its unit costs), from which every profit table is computed. */
const SOURCES = ['GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL'];
/** Data lines of fixtures/demo/us/cogs.csv (one unit cost per SKU). */
const COGS_LINES_US = 44;

describe.skipIf(postgresMissing !== null)('scale-out: PostgreSQL, 3 workers, 2 API replicas, 60 connections', () => {
  let server: Awaited<ReturnType<typeof startPostgres>>;
  let store: ControlStore & { close(): Promise<void> };
  const root = mkdtempSync(join(tmpdir(), 'mktdata-scale-'));
  const shared = join(root, 'shared');
  const single = resolveHome(join(root, 'single'));
  const connections = scaleConnections(CONNECTIONS);
  const workers = new Map<string, Child>();
  const replicas: ServeProcess[] = [];
  let env: NodeJS.ProcessEnv;
  let key = '';
  // A webhook receiver on loopback: what the API replicas deliver.
  const received: { id: string; body: string }[] = [];
  const receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push({ id: String(req.headers['webhook-id']), body });
      res.end();
    });
  });

  const startWorker = (id: string) => {
    const worker = startMktdata(
      [
        'worker',
        '--work-dir',
        join(root, id),
        '--id',
        id,
        '--lease-seconds',
        // Long enough that a worker slowed by a busy machine keeps its shards; a killed one's are taken after it.
        '10',
        '--poll-seconds',
        '1',
        '--no-pipelines',
      ],
      env,
    );
    workers.set(id, worker);
    return worker;
  };
  const heldBy = async () => {
    const rows = await store.db
      .selectFrom('control.shard_leases')
      .select(['shard', 'owner'])
      .where('expires_at', '>', new Date().toISOString())
      .execute();
    return new Map(rows.map((r) => [r.shard, r.owner]));
  };
  const waitFor = async (what: string, check: () => Promise<boolean>, ms = 180_000) => {
    for (const started = Date.now(); !(await check()); await delay(200)) {
      if (Date.now() - started > ms)
        throw new Error(
          `${what}: not after ${ms} ms\n${[...workers].map(([id, w]) => `--- ${id}\n${w.output()}`).join('\n')}`,
        );
    }
  };

  beforeAll(async () => {
    server = await startPostgres();
    env = {
      MKTDATA_DATABASE_URL: server.url,
      MKTDATA_SHARED_DIR: shared,
      MKTDATA_SHARDS: String(SHARDS),
      MKTDATA_QUIET: '1',
    };
    // The organization through the CLI, as an operator would; the 60 connections directly (60 processes would be slow).
    const created = await mktdata(['org', 'create', '--name', 'Agency', '--tokens', '1000'], env);
    expect(created.code, created.output).toBe(0);
    const organizationId = created.output.trim().split('\n').at(-1)!;
    store = await openPostgresControl(server.url);
    key = await createApiKey(store, organizationId);
    const wh = await openWarehouse(single, 'test', { create: true });
    await wh.db
      .insertInto('control.organizations')
      .values(await store.db.selectFrom('control.organizations').selectAll().executeTakeFirstOrThrow())
      .execute();
    for (const c of connections) {
      for (const control of [store, wh])
        await addConnection(control, {
          organizationId,
          id: c.id,
          name: c.name,
          marketplaceId: c.marketplaceId,
          sellerId: c.sellerId,
        });
    }
    // One subscription on each side to the order updates of one connection of every shard (so a shard of the
    // worker killed below is among them): the single home derives the events the scaled-out install must deliver.
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const shards = scaleConfig(env)!.shards;
    const subscribed = shards.map((shard) => connections.find((c) => shardOf(c.id, shards) === shard)!.id);
    const hook = {
      url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
      messageTypes: ['MKT_ORDER_UPDATE'],
      sellerOrVendorIds: subscribed,
    };
    await createSubscription(
      { ...store, home: sharedHome({ sharedDir: shared }), sql: undefined as never, close: async () => {} },
      organizationId,
      hook,
    );
    await createSubscription(wh, organizationId, hook);
    await wh.close();
    dropDemoFiles(single.landing, connections, SOURCES);
    dropDemoFiles(join(shared, 'landing'), connections, SOURCES);
  });

  afterAll(async () => {
    for (const w of workers.values()) if (w.child.exitCode === null) w.child.kill('SIGKILL');
    // A replica's shutdown is not what this file tests: one that hangs is killed after 20 s, its output shown.
    await Promise.all(replicas.map((r) => r.stop(20_000)));
    receiver.close();
    await store?.close();
    server?.stop();
  });

  it('builds every table as a single home does, with a worker killed mid-run', async () => {
    // The single home builds the same files meanwhile.
    const datesBefore = planningDates();
    const alone = startMktdata(['run', '--home', single.root, '--pipeline', PIPELINE], { MKTDATA_QUIET: '1' });
    for (const id of ['worker-1', 'worker-2', 'worker-3']) startWorker(id);
    // Each worker holds its share (6 shards over 3 workers: 2 each) before the run is asked for.
    await waitFor('every shard held, two by each worker', async () => {
      const held = await heldBy();
      return (
        held.size === SHARDS &&
        [...new Set(held.values())].length === 3 &&
        [...held.values()].every((o) => [...held.values()].filter((x) => x === o).length === 2)
      );
    });
    const run = startMktdata(['run', '--pipeline', PIPELINE], env);
    // worker-1 dies while it builds one of its shards.
    await waitFor(
      'worker-1 running a shard',
      async () =>
        (
          await store.db
            .selectFrom('control.shard_runs')
            .select('id')
            .where('worker', '=', 'worker-1')
            .where('status', '=', 'running')
            .execute()
        ).length > 0,
    );
    const victim = workers.get('worker-1')!;
    victim.child.kill('SIGKILL');
    await victim.exited;
    expect(await run.exited, run.output()).toBe(0);

    // Its shards are held by the others now, and each shard's last run succeeded.
    const held = await heldBy();
    expect([...held.values()].sort()).toEqual(['worker-2', 'worker-2', 'worker-2', 'worker-3', 'worker-3', 'worker-3']);
    const runs = await store.db
      .selectFrom('control.shard_runs')
      .select(['shard', 'worker', 'status'])
      .orderBy('started_at')
      .execute();
    // The runs worker-1 had started (one per shard it held) were abandoned and run again by the new holders.
    const abandoned = runs.filter((r) => r.status === 'abandoned');
    expect(abandoned.length).toBeGreaterThanOrEqual(1);
    expect(new Set(abandoned.map((r) => r.worker))).toEqual(new Set(['worker-1']));
    for (const { shard } of abandoned)
      expect(runs.filter((r) => r.shard === shard && r.status === 'success' && r.worker !== 'worker-1')).toHaveLength(
        1,
      );
    expect(runs.filter((r) => r.status === 'success').length).toBeGreaterThanOrEqual(SHARDS);

    expect(await alone.exited, alone.output()).toBe(0);
    for (const c of await compareWithShards(single, sharedHome({ sharedDir: shared }))) {
      expect(c, c.table).toMatchObject({ onlySingle: 0, onlyShards: 0 });
    }
    // No window lost or applied twice: the shards' checkpoints together hold each window the single home ran, once.
    const windows = async (files: string[]) => {
      const instance = await DuckDBInstance.create(':memory:');
      const sql = await instance.connect();
      const rows: string[] = [];
      for (const [i, file] of files.entries()) {
        await sql.run(`attach '${file}' as w${i} (read_only)`);
        const reader = await sql.runAndReadAll(
          `select connection_id, table_name, kind, stage, date_from::varchar, date_to::varchar from w${i}.control.run_windows where status = 'success'`,
        );
        rows.push(...reader.getRowsJson().map((r) => JSON.stringify(r)));
      }
      sql.closeSync();
      instance.closeSync();
      return rows.sort();
    };
    const checkpoints = readdirSync(join(shared, 'shards')).map((s) => join(shared, 'shards', s, 'checkpoint.duckdb'));
    expect(checkpoints).toHaveLength(SHARDS);
    const fromShards = await windows(checkpoints);
    expect(fromShards.length).toBeGreaterThan(CONNECTIONS);
    // Each window once, across the shards.
    expect(new Set(fromShards).size).toBe(fromShards.length);
    // The same windows as the single home's, when both planned on the same dates: a window's dates follow the day
    // it is planned on (the marketplaces' dates and UTC's), and a run that straddles midnight plans on two days.
    if (planningDates() === datesBefore) expect(fromShards).toEqual(await windows([single.warehouse]));
    else
      expect(new Set(fromShards.map((w) => JSON.stringify((JSON.parse(w) as string[]).slice(0, 2))))).toEqual(
        new Set(
          (await windows([single.warehouse])).map((w) => JSON.stringify((JSON.parse(w) as string[]).slice(0, 2))),
        ),
      );
  }, 600_000);

  it('moves shards to a worker added and builds on them without losing or doubling a row', async () => {
    startWorker('worker-4');
    // 6 shards over 3 workers: 2 each; over 4, two hold 2 and two hold 1, so worker-4 took one from another.
    await waitFor('worker-4 holding a shard', async () => [...(await heldBy()).values()].includes('worker-4'));
    const again = await mktdata(['run', '--pipeline', PIPELINE], env);
    expect(again.code, again.output).toBe(0);
    const moved = await store.db
      .selectFrom('control.shard_runs')
      .select('shard')
      .where('worker', '=', 'worker-4')
      .where('status', '=', 'success')
      .execute();
    expect(moved.length).toBeGreaterThanOrEqual(1);
    expect(workers.get('worker-4')!.output()).toMatch(/restored from its checkpoint/);
    for (const c of await compareWithShards(single, sharedHome({ sharedDir: shared }))) {
      expect(c, c.table).toMatchObject({ onlySingle: 0, onlyShards: 0 });
    }
    // An analyst's query reads every shard; a command that needs a single home's warehouse says why it cannot run.
    const query = await mktdata(
      ['query', 'select count(distinct seller_or_vendor_id) as connections from mkt_profit_by_date', '--format', 'csv'],
      env,
    );
    expect(query.output).toBe(`connections\r\n${CONNECTIONS}\r\n`);
    const plan = await mktdata(['plan'], env);
    expect(plan.code).toBe(1);
    expect(plan.output).toMatch(
      /MKTDATA_DATABASE_URL.*`mktdata plan` works on a single home; in this scaled-out install the workers build the shards/,
    );
    // A control plane that cannot be reached is named by its variable, host and database, never its password.
    const unreachable = await mktdata(['org', 'create', '--name', 'X'], {
      ...env,
      MKTDATA_DATABASE_URL: 'postgres://mktdata:s3cret-pw@127.0.0.1:1/mktdata',
    });
    expect(unreachable.code).toBe(1);
    expect(unreachable.output).toMatch(
      /^mktdata: MKTDATA_DATABASE_URL: PostgreSQL at 127\.0\.0\.1:1\/mktdata could not be used \(connect ECONNREFUSED/,
    );
    expect(unreachable.output).not.toContain('s3cret-pw');
    // The shard count is the install's for life: a process set up with another is refused before it does anything.
    const other = await mktdata(['runs'], { ...env, MKTDATA_SHARDS: String(SHARDS + 1) });
    expect(other.code).toBe(1);
    expect(other.output).toContain(
      `mktdata: MKTDATA_SHARDS: this install spreads its connections over ${SHARDS} shards, fixed for its life (a connection's shard follows from the count): set MKTDATA_SHARDS=${SHARDS}`,
    );
  });

  it('serves an export created on one replica from the other, an MCP query over the shards, and one rate limit across both', async () => {
    for (let i = 0; i < 2; i++)
      replicas.push(
        await startServe(shared, ['--requests-per-second', '3'], {
          env: { ...env, MKTDATA_WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1' },
        }),
      );
    const [a, b] = replicas as [ServeProcess, ServeProcess];
    const headers = { 'service-api-key': key, 'content-type': 'application/json' };
    const us = connections[0]!;
    const created = await fetch(`${a.base}/exports`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        sellerOrVendorIds: [us.id, connections[2]!.id],
        tableName: 'mkt_profit_by_date',
        from: '2026-09-01T07:00:00.000Z',
        to: '2026-10-01T06:59:59.000Z',
        outputType: 'CSV',
      }),
    });
    expect(created.status, await created.clone().text()).toBe(202);
    const { id } = (await created.json()) as { id: string };
    let raw: Response;
    for (const started = Date.now(); ; await delay(400)) {
      raw = await fetch(`${b.base}/exports/${id}/raw`, { headers, redirect: 'manual' });
      if (raw.status !== 202 && raw.status !== 429) break;
      if (Date.now() - started > 150_000)
        throw new Error(`export still running after 150 s:\n${a.output()}\n${b.output()}`);
    }
    expect(raw.status).toBe(302);
    const file = await fetch(raw.headers.get('location')!);
    const lines = (await file.text()).trim().split('\r\n');
    // Two connections holding the same US files: every date of September twice, and a header.
    expect(lines.length).toBe(1 + 2 * 30);

    // The files list with a name search answers from PostgreSQL too (its SQL runs on both stores).
    const files = await fetch(`${b.base}/files?query=Report&statuses=UPLOADED`, { headers });
    expect(files.status, await files.clone().text()).toBe(200);
    expect(await files.json()).toMatchObject({ items: [] });
    // The catalog's freshness on a replica: the profit table was published by the shards' snapshots.
    const scheme = await fetch(`${b.base}/spec/data-scheme`);
    expect(scheme.status, await scheme.clone().text()).toBe(200);
    const profit = (
      (await scheme.json()) as { sources: { tableName: string; freshness?: { lastRefreshedAt: string | null } }[] }
    ).sources.find((x) => x.tableName === 'mkt_profit_by_date');
    expect(profit?.freshness?.lastRefreshedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);

    // MCP on a replica: the query tool reads the shards' snapshots, the organization's rows only (60 rows: the export's).
    const mcp = await httpClient(new URL(b.base).origin, key);
    const sql = `select count(*) as n from mkt_profit_by_date where seller_or_vendor_id in ('${us.id}', '${connections[2]!.id}') and date between '2026-09-01' and '2026-09-30'`;
    let counted: Awaited<ReturnType<typeof call>> | undefined;
    for (let attempt = 0; !counted; attempt++) {
      // (429 while the polling above has spent the organization's bucket: the tool call waits its turn.)
      counted = await call(mcp, 'query', { sql }).catch(async (error: { code?: number }) => {
        if (error.code !== 429 || attempt > 20) throw error;
        await delay(400);
        return undefined;
      });
    }
    expect(counted.value).toMatchObject({ rows: [{ n: 60 }] });
    await mcp.close();

    await delay(1500); // the bucket full again: 3 tokens for the organization, whichever replica asks
    const asked = Date.now();
    const answers = await Promise.all(
      [a, b, a, b, a, b, a, b].map((r) =>
        fetch(`${r.base}/util/sellers-and-vendors`, { headers }).then(async (res) => {
          await res.arrayBuffer();
          return res.status;
        }),
      ),
    );
    // One bucket of 3, and the 3 a second it refills while the 8 requests are answered (more on a busy machine); two
    // in-memory buckets would pass 6 at once.
    const refilled = Math.floor((3 * (Date.now() - asked)) / 1000);
    expect(answers.filter((s) => s !== 200 && s !== 429)).toEqual([]);
    expect(answers.filter((s) => s === 200).length).toBeLessThanOrEqual(3 + refilled);
  });

  it('carries a unit-cost change made through a replica into the shard that builds its connection', async () => {
    const [a] = replicas as [ServeProcess];
    const [changed, same] = [connections[0]!, connections[2]!]; // both hold the US files
    await delay(1500); // a full rate-limit bucket
    // ACM-TENT-2P-GRN costs 71.0528 + 1.8983 in the demo's cogs.csv from 2026-01-01; 80 + 2 from the same day on.
    const put = await fetch(`${a.base}/cogs`, {
      method: 'POST',
      headers: { 'service-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({
        sellerOrVendorId: changed.id,
        cogsToUpsert: [
          {
            asin: 'B08FCHRZNY',
            sku: 'ACM-TENT-2P-GRN',
            costCurrency: 'USD',
            fromDate: '2026-01-01',
            costItemValue: 80,
            costItemShippingValue: 2,
          },
        ],
      }),
    });
    expect(put.status, await put.clone().text()).toBe(200);
    const run = await mktdata(['run', '--pipeline', PIPELINE], env);
    expect(run.code, run.output).toBe(0);
    const tent = async (id: string) => {
      const sql = `select count(*) as lines, sum(quantity) as units, sum(cogs_item_value) as item, sum(cogs_shipping_value) as shipping from mkt_order_items_with_cogs where seller_or_vendor_id = '${id}' and sku = 'ACM-TENT-2P-GRN' and cogs_present`;
      const r = await mktdata(['query', sql, '--format', 'json'], env);
      return (JSON.parse(r.output) as { lines: number; units: number; item: string; shipping: string }[])[0]!;
    };
    const after = await tent(changed.id);
    expect(after.lines).toBeGreaterThan(0);
    // cogs_item_value is the unit cost as of the order date × quantity.
    expect([Number(after.item), Number(after.shipping)]).toEqual([after.units * 80, after.units * 2]);
    const other = await tent(same.id);
    expect(other.units).toBe(after.units);
    expect(Number(other.item)).toBeCloseTo(other.units * 71.0528, 2);
    // The shared control plane holds the costs the shard landed from cogs.csv too (the change replaced one of them).
    const shared = await store.db
      .selectFrom('control.cogs')
      .select(['sku', 'cost_item_value'])
      .where('connection_id', '=', changed.id)
      .execute();
    expect(shared).toHaveLength(COGS_LINES_US);
    expect(Number(shared.find((r) => r.sku === 'ACM-TENT-2P-GRN')!.cost_item_value)).toBe(80);
  });

  it('delivers the webhook events the shards derived, each once, as a single home derives them', async () => {
    // What the single home derived for the same subscription, from the same files (event ids are its own).
    const wh = await openWarehouse(single, 'test');
    const expected = (await wh.db.selectFrom('control.webhook_events').select('body').execute())
      .map((e) => e.body)
      .sort();
    await wh.close();
    // Six connections' order updates: every order of their files is new once, and changed ones again.
    expect(expected.length).toBeGreaterThan(6 * 700);
    const outbox = async () =>
      JSON.stringify(
        await store.db
          .selectFrom('control.webhook_deliveries')
          .select(['status', (eb) => eb.fn.countAll().as('n')])
          .groupBy('status')
          .execute(),
      );
    await waitFor('every event delivered', async () => received.length >= expected.length, 120_000).catch(async (e) => {
      throw new Error(
        `${received.length} of ${expected.length} received; deliveries ${await outbox()}; events ${JSON.stringify(
          await store.db
            .selectFrom('control.webhook_events')
            .select((eb) => eb.fn.countAll().as('n'))
            .execute(),
        )}\n${replicas.map((r) => r.output()).join('\n')}`,
        { cause: e },
      );
    });
    await delay(2000); // and nothing more comes: no event relayed twice by the shards, none sent twice by the replicas
    expect(new Set(received.map((r) => r.id)).size).toBe(received.length);
    expect(received.map((r) => r.body).sort()).toEqual(expected);
  });
});
