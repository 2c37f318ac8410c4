// The control plane's two stores (issue: scale-out, "Seams"): the same migrations build the same tables in the
// warehouse's DuckDB and in PostgreSQL (Debian's, started by the test), and the same control-plane operations
// behave the same on both: organizations and keys, a conditional token debit that two racing operations cannot
// both pass, the actions queue with its access rule and live-action limit, SQP lists, exports and their schedules,
// the webhook outbox worked by two API processes at once.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIVE_ACTION_LIMIT, listActions, startAction } from '../../src/actions/actions.ts';
import { setActionsBeta, setActionTypes, setConnectionAccess } from '../../src/actions/settings.ts';
import { SharedRateLimiter } from '../../src/api/rate-limit.ts';
import { addConnection } from '../../src/control/connections/connections.ts';
import { acquireShard, holdsFence, renewShard } from '../../src/control/shard-leases.ts';
import { rebalance } from '../../src/control/shard-assignment.ts';
import { createApiKey, createOrganization } from '../../src/control/organizations.ts';
import { changeSqpList, sqpList } from '../../src/control/sqp-asins.ts';
import { charged, tokenBalance } from '../../src/control/tokens.ts';
import { openPostgresControl, type ControlStore } from '../../src/db/control-store.ts';
import { createExport, requireExport } from '../../src/exports/export-jobs.ts';
import { EXPORT_LEASE_MS, ExportWorker } from '../../src/exports/export-worker.ts';
import { ScheduleRunner } from '../../src/exports/schedule-runner.ts';
import { exportRequestSchema } from '../../src/exports/export-request.ts';
import { createSchedule, requireSchedule } from '../../src/exports/export-schedules.ts';
import { resolveHome } from '../../src/home.ts';
import { WebhookDeliverer } from '../../src/webhooks/deliverer.ts';
import { allowedNetworks } from '../../src/webhooks/address.ts';
import { createSubscription, replay } from '../../src/webhooks/subscriptions.ts';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { makeHome } from '../helpers/home.ts';
import { postgresMissing, startPostgres } from '../helpers/postgres.ts';

if (postgresMissing) console.warn(postgresMissing);

/** A store, and for PostgreSQL a second one on the same database: what another process sees. */
type Opened = ControlStore & {
  close(): Promise<void>;
  twin?: () => Promise<ControlStore & { close(): Promise<void> }>;
};
const stores: [string, () => Promise<Opened>][] = [
  ['DuckDB (the warehouse)', async () => (await makeHome()).wh],
  ...(postgresMissing
    ? []
    : ([
        [
          'PostgreSQL',
          async () => {
            const server = await startPostgres();
            const store = await openPostgresControl(server.url);
            return {
              db: store.db,
              close: async () => {
                await store.close();
                server.stop();
              },
              twin: () => openPostgresControl(server.url),
            };
          },
        ],
      ] as [string, () => Promise<Opened>][])),
];

/** Every column of schema `control`, as `table.column`, sorted: what the migrations built. */
async function columns(store: ControlStore): Promise<string[]> {
  const { rows } = await sql<{
    c: string;
  }>`select table_name || '.' || column_name as c from information_schema.columns where table_schema = 'control' order by 1`.execute(
    store.db,
  );
  return rows.map((r) => r.c);
}

let duckColumns: string[] = [];

describe.each(stores)('the control plane in %s', (_name, open) => {
  let store: Opened;
  let org: string;
  const connection = '00000000-0000-4000-8000-0000000c0001';

  beforeAll(async () => {
    store = await open();
    org = await createOrganization(store, { name: 'Agency', tokens: 1 });
    await addConnection(store, {
      organizationId: org,
      id: connection,
      name: 'Acme US',
      marketplaceId: 'ATVPDKIKX0DER',
      sellerId: 'A3ACMEUS0SELLER',
    });
  });
  afterAll(async () => {
    await store?.close();
  });

  it('has the tables and columns of every migration', async () => {
    const built = await columns(store);
    expect(built).toContain('actions.next_check_at'); // the last migration's
    expect(built).toContain('organizations.token_balance');
    if (duckColumns.length === 0) duckColumns = built;
    else expect(built).toEqual(duckColumns); // PostgreSQL runs second: the same columns as DuckDB
  });

  it('debits the last token once when two operations race for it', async () => {
    const usage = {
      usageType: 'ACTIONS' as const,
      specificUsageType: 'ACTIONS_API_STANDARD' as const,
      tokens: 1,
      resourceId: null,
    };
    const outcomes = await Promise.allSettled(
      [0, 1].map(() => charged(store, org, usage, new Date('2026-11-26T12:00:00Z'), async () => 'done')),
    );
    expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(await tokenBalance(store, org)).toBe(0);
    const records = await store.db
      .selectFrom('control.usage_records')
      .select(['tokens', 'specific_usage_type'])
      .where('organization_id', '=', org)
      .execute();
    expect(records.map((r) => [Number(r.tokens), r.specific_usage_type])).toEqual([[1, 'ACTIONS_API_STANDARD']]);
  });

  it('keeps the actions queue: access rule, live-action limit, history filters', async () => {
    await store.db.updateTable('control.organizations').set({ token_balance: 10 }).where('id', '=', org).execute();
    const key = await createApiKey(store, org);
    expect(key).toMatch(/\S{20,}/);
    await setActionsBeta(store, org, true);
    const request = {
      type: 'MKT_LISTINGS_PRICING_UPDATE',
      sellerOrVendorId: connection,
      dryRun: false,
      details: { sku: 'ACM-PACK-DAY-BLK', price: { amount: 47.99, currency: 'USD' } },
    };
    await expect(startAction(store, org, request)).rejects.toMatchObject({ code: 'ERR_ACTION_TYPE_DISABLED' });
    await setActionTypes(store, org, ['MKT_LISTINGS_PRICING_UPDATE'], true);
    await expect(startAction(store, org, request)).rejects.toMatchObject({ code: 'ERR_ACTION_ACCESS_LEVEL' });
    await setConnectionAccess(store, connection, 'READ_AND_WRITE');
    const dry = await startAction(store, org, { ...request, dryRun: true });
    expect(dry.body).toEqual({ actionId: null, status: 'VALIDATED', validation: { valid: true, issues: [] } });
    for (let i = 0; i < LIVE_ACTION_LIMIT; i++) expect((await startAction(store, org, request)).status).toBe(202);
    await expect(startAction(store, org, request)).rejects.toMatchObject({ code: 'ERR_LIVE_ACTION_LIMIT' });
    const page = await listActions(store, org, {
      page: 1,
      pageSize: 2,
      statuses: ['PENDING'],
      types: ['MKT_LISTINGS_PRICING_UPDATE'],
      createdAtFrom: '2000-01-01T00:00:00Z',
    });
    expect(page).toMatchObject({ page: 1, pageSize: 2, totalCount: LIVE_ACTION_LIMIT });
    expect(page.items).toHaveLength(2);
    expect(page.items[0]).toMatchObject({
      status: 'PENDING',
      creator: 'API',
      sellerOrVendorId: connection,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
  });

  it('keeps an SQP list and its lock', async () => {
    const at = new Date('2026-11-26T12:00:00Z');
    await changeSqpList(store, org, connection, 'add', ['B0NB0P6V0A', 'B0D8SM9EZR'], at);
    const list = await sqpList(store, org, connection, at);
    expect(list).toMatchObject({ asins: ['B0D8SM9EZR', 'B0NB0P6V0A'] });
    await expect(changeSqpList(store, org, connection, 'remove', ['B0D8SM9EZR'], at)).rejects.toMatchObject({
      code: expect.stringMatching(/LOCK/),
    });
  });

  it('accepts an export (charged, PENDING) or keeps it BLOCKED_NO_TOKENS, and keeps a schedule', async () => {
    await store.db.updateTable('control.organizations').set({ token_balance: 2 }).where('id', '=', org).execute();
    const request = exportRequestSchema.parse({
      tableName: 'mkt_order_items_with_cogs',
      sellerOrVendorIds: [connection],
      from: '2026-11-01',
      to: '2026-11-25',
      outputType: 'PARQUET',
    });
    const at = new Date('2026-11-26T12:00:00Z');
    const paid = await createExport(store, org, request, { kind: 'API' }, at);
    expect(paid).toMatchObject({
      status: 'PENDING',
      tokens: 2,
      output_type: 'PARQUET',
      table_name: 'mkt_order_items_with_cogs',
    });
    const blocked = await createExport(store, org, request, { kind: 'API' }, at); // 2 tokens an export, none left
    expect(blocked).toMatchObject({ status: 'BLOCKED_NO_TOKENS', tokens: 0 });
    expect(await requireExport(store, org, paid.id)).toMatchObject({
      id: paid.id,
      status: 'PENDING',
      seller_or_vendor_ids: JSON.stringify([connection]),
    });
    await expect(
      requireExport(store, await createOrganization(store, { name: 'Other', tokens: 0 }), paid.id),
    ).rejects.toMatchObject({ code: 'ERR_EXPORT_NOT_FOUND' });

    const { from: _f, to: _t, ...query } = request;
    const schedule = await createSchedule(
      store,
      org,
      {
        ...query,
        name: 'Nightly orders',
        cron: '0 6 * * *',
        timezone: 'America/Los_Angeles',
        active: true,
        relativePeriod: { lastDays: 7 },
        integrations: [],
      },
      at,
      [],
    );
    expect(await requireSchedule(store, org, schedule.id)).toMatchObject({
      id: schedule.id,
      name: 'Nightly orders',
      cron: '0 6 * * *',
      active: true,
    });
  });

  it('lets a second process take over an export only once the lease of its writer ran out', async () => {
    await store.db.updateTable('control.organizations').set({ token_balance: 2 }).where('id', '=', org).execute();
    const request = exportRequestSchema.parse({
      tableName: 'mkt_order_items_with_cogs',
      sellerOrVendorIds: [connection],
      from: '2026-11-01',
      to: '2026-11-25',
    });
    let clock = Date.parse('2026-11-26T12:00:00Z');
    const row = await createExport(store, org, request, { kind: 'API' }, new Date(clock));
    // Another process took it a moment ago and is writing it: IN_PROGRESS under a live lease.
    await store.db
      .updateTable('control.exports')
      .set({ status: 'IN_PROGRESS', lease_until: new Date(clock + EXPORT_LEASE_MS).toISOString() })
      .where('id', '=', row.id)
      .execute();
    const other = new ExportWorker(store, resolveHome(join(tmpdir(), `replica-${row.id}`)), { now: () => clock });
    await other.reclaim();
    expect((await requireExport(store, org, row.id)).status).toBe('IN_PROGRESS');
    clock += EXPORT_LEASE_MS + 1; // its writer died: nothing renewed the lease
    await other.reclaim();
    expect(await requireExport(store, org, row.id)).toMatchObject({ status: 'PENDING', lease_until: null });
  });

  it('fires a schedule once per slot across two processes', async () => {
    await store.db.updateTable('control.organizations').set({ token_balance: 10 }).where('id', '=', org).execute();
    const clock = Date.parse('2026-11-27T14:00:00Z');
    const query = {
      tableName: 'mkt_order_items_with_cogs',
      sellerOrVendorIds: [connection],
      outputType: 'CSV' as const,
      sendToAllOrganizationMembers: false,
    };
    const schedule = await createSchedule(
      store,
      org,
      {
        ...query,
        name: 'Morning orders',
        cron: '0 6 * * *',
        timezone: 'America/Los_Angeles',
        active: true,
        relativePeriod: { lastDays: 1 },
        integrations: [],
      },
      new Date(clock),
      [],
    );
    // Two API replicas, each with its own timer: both fire for 06:00 Los Angeles time on Nov 27.
    const replicas = [0, 1].map(
      () =>
        new ScheduleRunner(
          store,
          new ExportWorker(store, resolveHome(join(tmpdir(), `replica-${schedule.id}`)), { now: () => clock }),
          [],
          () => {},
        ),
    );
    const slot = new Date('2026-11-27T14:00:00Z');
    const fired = await Promise.all(replicas.map((r) => r.fire(schedule.id, slot)));
    expect(fired.filter((f) => f !== null)).toHaveLength(1);
    expect(await replicas[0]!.fire(schedule.id, slot)).toBeNull(); // a late timer of either gets nothing either
    expect(await replicas[1]!.fire(schedule.id, new Date('2026-11-28T14:00:00Z'))).not.toBeNull(); // the next day's slot
    const exports = await store.db
      .selectFrom('control.exports')
      .select('id')
      .where('schedule_id', '=', schedule.id)
      .execute();
    expect(exports).toHaveLength(2);
  });

  it('delivers each event of the webhook outbox once across two processes, one order id in order, and replays it', async () => {
    // A receiver on loopback that answers 200 after a moment (so both processes are at work at once).
    const received: { id: string; body: string; signed: boolean }[] = [];
    const receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () =>
        setTimeout(() => {
          received.push({
            id: String(req.headers['webhook-id']),
            body,
            signed: /^v1,/.test(String(req.headers['webhook-signature'])),
          });
          res.end();
        }, 20),
      );
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      const home = resolveHome(join(tmpdir(), `webhooks-${org}`)); // the signing key's home (the shared folder when scaled out)
      const wh = { ...store, home, sql: undefined as never };
      const subscription = await createSubscription(wh, org, { url, messageTypes: ['MKT_ORDER_UPDATE'] });
      // Five events: three of order A (in this order), two of order B; one delivery each.
      const at = '2026-11-27T10:00:00.000Z';
      const events = ['A:Pending', 'B:Pending', 'A:Unshipped', 'B:Shipped', 'A:Shipped'].map((v, i) => ({
        id: `msg_${org.slice(0, 8)}${i}`,
        seq: 1000 + i,
        organization_id: org,
        connection_id: connection,
        message_type: 'MKT_ORDER_UPDATE',
        ordering_key: v.split(':')[0]!,
        dedupe_key: null,
        body: JSON.stringify({ order: v }),
        occurred_at: at,
        emitted_at: at,
        batch: null,
      }));
      await store.db.insertInto('control.webhook_events').values(events).execute();
      await store.db
        .insertInto('control.webhook_deliveries')
        .values(
          events.map((e) => ({
            id: `d-${e.id}`,
            event_id: e.id,
            subscription_id: subscription.id,
            url,
            status: 'PENDING' as const,
            attempts: 0,
            next_attempt_at: at,
            created_at: at,
            last_attempt_at: null,
            last_status: null,
            last_error: null,
            delivered_at: null,
          })),
        )
        .execute();
      const other = store.twin ? await store.twin() : store;
      const clock = Date.parse('2026-11-27T10:00:01Z');
      const options = { networks: allowedNetworks('127.0.0.1'), now: () => clock };
      const deliverers = [
        new WebhookDeliverer(wh, options),
        new WebhookDeliverer({ ...other, home, sql: undefined as never, close: async () => {} }, options),
      ];
      // A pass sends at most one delivery of an order id at a time: three rounds of both processes empty the outbox.
      for (let round = 0; round < 3; round++) await Promise.all(deliverers.map((d) => d.deliverDue()));
      expect(received.map((r) => r.id).sort()).toEqual(events.map((e) => e.id).sort()); // each once
      expect(received.every((r) => r.signed)).toBe(true);
      const orderA = received.filter((r) => r.body.includes('"A:')).map((r) => JSON.parse(r.body).order);
      expect(orderA).toEqual(['A:Pending', 'A:Unshipped', 'A:Shipped']);
      const states = await store.db
        .selectFrom('control.webhook_deliveries')
        .select(['status', 'attempts'])
        .where('subscription_id', '=', subscription.id)
        .execute();
      expect(states).toEqual(events.map(() => ({ status: 'DELIVERED', attempts: 1 })));
      // Replayed: the same five webhook ids again, once each.
      // Replayed on the deliverers' clock: at the real time of day it would not be due before tomorrow's 10:00.
      expect(await replay(wh, subscription.id, new Date('2026-11-27T00:00:00Z'), new Date(clock))).toBe(5);
      received.length = 0;
      for (let round = 0; round < 3; round++) await Promise.all(deliverers.map((d) => d.deliverDue()));
      expect(received.map((r) => r.id).sort()).toEqual(events.map((e) => e.id).sort());
      if (other !== store) await other.close();
    } finally {
      receiver.close();
    }
  });

  it('holds the API rate limit across two processes sharing the buckets', async () => {
    let clock = Date.parse('2026-11-26T12:00:00Z');
    const replicas = [0, 1].map(() => new SharedRateLimiter(store, 2, () => clock));
    // 2 requests a second, a burst of 2: of 4 requests at once, spread over both replicas, 2 pass.
    const answers = await Promise.all([0, 1, 2, 3].map((i) => replicas[i % 2]!.take(org)));
    expect(answers.filter((a) => a === null)).toHaveLength(2);
    expect(answers.filter((a) => a !== null)).toEqual([1, 1]); // wait a second: (1 - 0 tokens) / 2 a second, rounded up
    clock += 500; // half a second: one token back
    expect(await replicas[1]!.take(org)).toBeNull();
    expect(await replicas[0]!.take(org)).toBe(1);
    expect(await replicas[0]!.take('another organization')).toBeNull(); // a bucket per organization
  });

  it('leases a shard to one worker at a time, with a fencing token a late worker fails', async () => {
    const ttl = 30_000;
    let now = Date.parse('2026-11-26T12:00:00Z');
    const at = () => new Date(now);
    const first = await acquireShard(store, 'shard-1', 'worker-a', ttl, at());
    expect(first).toMatchObject({ shard: 'shard-1', owner: 'worker-a', token: 1 });
    expect(await acquireShard(store, 'shard-1', 'worker-b', ttl, at())).toBeNull(); // a's lease runs
    now += 20_000;
    expect(await renewShard(store, first!, ttl, at())).toBe(true); // until 12:00:50
    now += 31_000; // a froze: nothing renewed since 12:00:20
    const second = await acquireShard(store, 'shard-1', 'worker-b', ttl, at());
    expect(second).toMatchObject({ owner: 'worker-b', token: 2 });
    // a wakes up: its renewal and its publish are refused; b's publish goes through.
    expect(await renewShard(store, first!, ttl, at())).toBe(false);
    expect(await store.db.transaction().execute((trx) => holdsFence(trx, first!))).toBe(false);
    expect(await store.db.transaction().execute((trx) => holdsFence(trx, second!))).toBe(true);
    // b again: same token
    expect(await acquireShard(store, 'shard-1', 'worker-b', ttl, at())).toMatchObject({ token: 2 });
  });

  it('lets one of two changes of an SQP list at once win the lock (two processes on PostgreSQL, one on DuckDB)', async () => {
    const other = store.twin ? await store.twin() : store; // one DuckDB warehouse has one writer process

    try {
      const second = '00000000-0000-4000-8000-0000000c0002';
      await addConnection(store, {
        organizationId: org,
        id: second,
        name: 'Acme US 2',
        marketplaceId: 'ATVPDKIKX0DER',
      });
      const at = new Date('2026-11-26T12:00:00Z');
      const outcomes = await Promise.allSettled([
        changeSqpList(store, org, second, 'add', ['B0NB0P6V0A'], at),
        changeSqpList(other, org, second, 'add', ['B0D8SM9EZR'], at),
      ]);
      expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
      expect((outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult).reason).toMatchObject({
        code: 'ERR_SQP_LIST_LOCKED',
      });
      expect((await sqpList(store, org, second, at)).asins).toHaveLength(1);
    } finally {
      if (other !== store) await other.close();
    }
  });

  it('assigns 60 connections to shards and moves only what a new or removed shard changes', async () => {
    const agency = await createOrganization(store, { name: 'Sixty', tokens: 0 });
    const ids = Array.from({ length: 60 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
    for (const id of ids)
      await addConnection(store, {
        organizationId: agency,
        id,
        name: `Shop ${id.slice(-2)}`,
        marketplaceId: 'ATVPDKIKX0DER',
      });
    const at = new Date('2026-11-26T12:00:00Z');
    // and those of the tests above
    const total = (await store.db.selectFrom('control.connections').select('id').execute()).length;
    expect(total).toBeGreaterThan(ids.length);
    const first = await rebalance(store, ['shard-a', 'shard-b', 'shard-c'], at);
    expect(first).toHaveLength(total);
    expect(first.every((m) => m.from === null)).toBe(true);
    const shardOfNow = async () =>
      new Map(
        (await store.db.selectFrom('control.connection_shards').select(['connection_id', 'shard']).execute()).map(
          (r) => [r.connection_id, r.shard],
        ),
      );
    const before = await shardOfNow();
    expect(new Set(before.values())).toEqual(new Set(['shard-a', 'shard-b', 'shard-c']));
    expect(await rebalance(store, ['shard-a', 'shard-b', 'shard-c'], at)).toEqual([]); // nothing changed, nothing moves

    const added = await rebalance(store, ['shard-a', 'shard-b', 'shard-c', 'shard-d'], at);
    expect(added.length).toBeGreaterThan(0);
    expect(added.every((m) => m.to === 'shard-d')).toBe(true); // only connections the new shard wins move
    const removed = await rebalance(store, ['shard-a', 'shard-c', 'shard-d'], at);
    const after = await shardOfNow();
    expect(removed.map((m) => m.from).every((from) => from === 'shard-b')).toBe(true); // only shard-b's connections move
    expect([...after.values()].filter((s) => s === 'shard-b')).toEqual([]);
    expect(after.size).toBe(total); // every connection still has exactly one shard
  });
});
