// `npm run bench -- webhooks` (issue: webhook events, "10,000 events: delivery throughput and outbox latency"): a home
// with one subscription to MKT_ORDER_UPDATE aimed at a receiver on loopback that answers 204 at once. 10,000 order
// events (2,000 orders, 5 versions each) are recorded in 20 transactions of 500, as 20 landed files would; then a
// WebhookDeliverer works through the outbox. Reported: events recorded per second, deliveries per second until the
// last one arrived, and the outbox latency of each event (its arrival at the receiver − the commit of its batch).
// The bench checks that every event arrived exactly once and, per order, in emission order.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { addConnection } from '../src/control/connections/connections.ts';
import { createOrganization } from '../src/control/organizations.ts';
import { openWarehouse } from '../src/db/warehouse.ts';
import { resolveHome } from '../src/home.ts';
import { allowedNetworks } from '../src/webhooks/address.ts';
import { WebhookDeliverer } from '../src/webhooks/deliverer.ts';
import { recordEvents, type ConnectionContext } from '../src/webhooks/outbox.ts';
import { createSubscription } from '../src/webhooks/subscriptions.ts';
import { batchEvents, BATCH, BATCHES, EVENTS, ORDERS, VERSIONS } from './webhook-events.ts';

const CONCURRENCY = 8;
const INTERVAL_MS = 200;
/** How long the deliveries may take before the bench gives up. */
const DELIVERY_TIMEOUT_MS = 10 * 60_000;

const CONNECTION = {
  id: '00000000-0000-4000-8000-0000000b0001',
  name: 'Bench US',
  marketplace_id: 'ATVPDKIKX0DER',
  seller_id: 'SELLERBENCH',
};

export interface WebhooksBenchResult {
  events: number;
  orders: number;
  batches: number;
  concurrency: number;
  intervalMs: number;
  /** wall time of the 20 transactions that record the events (begin, recordEvents, commit) */
  recordMs: number;
  /** from the deliverer's start to the arrival of the last event at the receiver */
  deliverMs: number;
  /** arrival at the receiver − commit of the event's batch, in ms */
  latency: { median: number; p95: number; max: number };
  /** bytes of one event body, on average */
  bodyBytes: number;
}

/** The value at quantile q (0..1) of sorted numbers (nearest rank). */
const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;

/** A receiver on loopback: answers 204 as soon as a request is read, and records when each `webhook-id` arrived. */
async function receiver() {
  const arrivals: { id: string; at: number }[] = [];
  let waiting: { count: number; done: () => void } | null = null;
  const server: Server = createServer((req, res) => {
    const at = performance.now();
    arrivals.push({ id: String(req.headers['webhook-id']), at });
    if (waiting && arrivals.length >= waiting.count) waiting.done();
    req.resume().on('end', () => {
      res.statusCode = 204;
      res.end();
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    arrivals,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    /** Resolves when `count` requests have arrived, or rejects after `timeoutMs`. */
    until(count: number, timeoutMs: number) {
      return new Promise<void>((resolve, reject) => {
        if (arrivals.length >= count) return resolve();
        const timer = setTimeout(
          () => reject(new Error(`${arrivals.length} of ${count} webhooks arrived in ${timeoutMs / 1000} s`)),
          timeoutMs,
        );
        waiting = { count, done: () => (clearTimeout(timer), resolve()) };
      });
    },
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

export async function benchWebhooks(workDir: string, log: (message: string) => void): Promise<WebhooksBenchResult> {
  const home = resolveHome(join(workDir, 'home'));
  const wh = await openWarehouse(home, 'bench', { create: true });
  const hook = await receiver();
  const deliverer = new WebhookDeliverer(wh, {
    networks: allowedNetworks('127.0.0.1'),
    concurrency: CONCURRENCY,
    intervalMs: INTERVAL_MS,
    log,
  });
  try {
    const organizationId = await createOrganization(wh, { name: 'Bench webhooks', tokens: 0 });
    const connection: ConnectionContext = { ...CONNECTION, organization_id: organizationId };
    await addConnection(wh, {
      organizationId,
      id: connection.id,
      name: connection.name,
      marketplaceId: connection.marketplace_id,
      sellerId: CONNECTION.seller_id,
    });
    await createSubscription(wh, organizationId, { url: hook.url, messageTypes: ['MKT_ORDER_UPDATE'] });

    // Recording: one transaction per batch, as a landed file's events are recorded with its rows.
    const base = Date.parse('2026-11-20T08:00:00Z');
    const batches = Array.from({ length: BATCHES }, (_, b) => batchEvents(connection, b, base));
    const bodyBytes =
      batches
        .flat()
        .reduce(
          (sum, e) => sum + Buffer.byteLength(JSON.stringify(e.summary)) + Buffer.byteLength(JSON.stringify(e.details)),
          0,
        ) / EVENTS;
    /** Per batch: the `at` it was recorded with (its events' emitted_at) and when its transaction committed. */
    const committed: { at: number; commit: number }[] = [];
    log(
      `webhooks: recording ${EVENTS.toLocaleString('en-US')} events (${ORDERS.toLocaleString('en-US')} orders × ${VERSIONS}) in ${BATCHES} transactions of ${BATCH}…`,
    );
    const recordStart = performance.now();
    for (let b = 0; b < BATCHES; b++) {
      const at = new Date(Math.max(Date.now(), (committed.at(-1)?.at ?? 0) + 1));
      await wh.sql.run('begin transaction');
      try {
        const recorded = await recordEvents(wh.sql, batches[b]!, at);
        if (recorded !== BATCH) throw new Error(`batch ${b}: ${recorded} events recorded, expected ${BATCH}`);
        await wh.sql.run('commit');
      } catch (error) {
        await wh.sql.run('rollback');
        throw error;
      }
      committed.push({ at: at.getTime(), commit: performance.now() });
    }
    const recordMs = performance.now() - recordStart;
    log(
      `  recorded in ${recordMs.toFixed(0)} ms (${Math.round((EVENTS * 1000) / recordMs).toLocaleString('en-US')} events/s)`,
    );

    log(`webhooks: delivering (concurrency ${CONCURRENCY}, interval ${INTERVAL_MS} ms)…`);
    const progress = setInterval(
      () => log(`  ${hook.arrivals.length.toLocaleString('en-US')} delivered`),
      5_000,
    ).unref();
    const deliverStart = performance.now();
    deliverer.start();
    try {
      await hook.until(EVENTS, DELIVERY_TIMEOUT_MS);
    } finally {
      clearInterval(progress);
    }
    const deliverMs = hook.arrivals.at(-1)!.at - deliverStart;
    await deliverer.stop();
    log(
      `  delivered in ${deliverMs.toFixed(0)} ms (${Math.round((EVENTS * 1000) / deliverMs).toLocaleString('en-US')}/s)`,
    );

    // Checks: each event exactly once, per order in emission (seq) order, every delivery DELIVERED.
    const events = (
      await wh.sql.runAndReadAll(
        `select id, ordering_key, seq::double as seq, epoch_ms(emitted_at)::double as emitted from control.webhook_events`,
      )
    ).getRowObjects() as { id: string; ordering_key: string; seq: number; emitted: number }[];
    if (events.length !== EVENTS) throw new Error(`${events.length} events in the outbox, expected ${EVENTS}`);
    const byId = new Map(events.map((e) => [e.id, e]));
    const commitOf = new Map(committed.map((c) => [c.at, c.commit]));
    const seen = new Set<string>();
    const lastSeq = new Map<string, number>();
    const latencies: number[] = [];
    for (const a of hook.arrivals) {
      const e = byId.get(a.id);
      if (!e) throw new Error(`an unknown webhook-id arrived: ${a.id}`);
      if (seen.has(a.id)) throw new Error(`${a.id} arrived more than once`);
      seen.add(a.id);
      if ((lastSeq.get(e.ordering_key) ?? -Infinity) > e.seq)
        throw new Error(
          `order ${e.ordering_key}: event ${e.seq} arrived after a later one (${lastSeq.get(e.ordering_key)})`,
        );
      lastSeq.set(e.ordering_key, e.seq);
      const commit = commitOf.get(e.emitted);
      if (commit === undefined)
        throw new Error(`${a.id}: no batch was recorded at ${new Date(e.emitted).toISOString()}`);
      latencies.push(a.at - commit);
    }
    if (hook.arrivals.length !== EVENTS)
      throw new Error(`${hook.arrivals.length} webhooks arrived, expected ${EVENTS}`);
    if (lastSeq.size !== ORDERS) throw new Error(`${lastSeq.size} ordering keys arrived, expected ${ORDERS}`);
    const pending = (
      await wh.sql.runAndReadAll(
        `select count(*)::integer as n from control.webhook_deliveries where status <> 'DELIVERED'`,
      )
    ).getRowObjects()[0]!.n;
    if (pending !== 0) throw new Error(`${String(pending)} deliveries are not DELIVERED`);
    latencies.sort((a, b) => a - b);
    return {
      events: EVENTS,
      orders: ORDERS,
      batches: BATCHES,
      concurrency: CONCURRENCY,
      intervalMs: INTERVAL_MS,
      recordMs,
      deliverMs,
      latency: { median: quantile(latencies, 0.5), p95: quantile(latencies, 0.95), max: latencies.at(-1)! },
      bodyBytes,
    };
  } finally {
    await deliverer.stop();
    await hook.close();
    await wh.close();
  }
}
