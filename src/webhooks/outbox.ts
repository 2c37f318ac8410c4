import { randomUUID } from 'node:crypto';
import type { DuckDBConnection } from '@duckdb/node-api';
import { sql as kysql } from 'kysely';
import { Webhook } from 'standardwebhooks';
import { loadMarketplaces } from '../control/marketplaces.ts';
import type { Warehouse } from '../db/warehouse.ts';
import { postWebhook, type Networks } from './address.ts';
import { matches, subscriptionSecret } from './subscriptions.ts';

/** An event to record: what every receiver gets as the body, and how it is routed and ordered. */
export interface NewEvent {
  organizationId: string;
  connectionId: string | null;
  messageType: string;
  summary: Record<string, unknown>;
  details: Record<string, unknown>;
  /** When the change happened upstream (ISO 8601). */
  occurredAt: string;
  /** Deliveries of one key (an order id) go out one after the other, in emission order. */
  orderingKey?: string | null;
  /** An upstream id (a notification id): an event with a key the organization already has is not recorded again. */
  dedupeKey?: string | null;
}

/** The JSON body of a delivery (the envelope around a spec-document-002 message). */
export const envelope = (e: Pick<NewEvent, 'messageType' | 'summary' | 'details' | 'occurredAt'>) =>
  JSON.stringify({ messageType: e.messageType, summary: e.summary, details: e.details, occurredAt: e.occurredAt });

/**
 * SQL that appends events, given as a query `events` of (organization_id, connection_id, message_type, ordering_key,
 * dedupe_key, body, occurred_at), and a delivery for each subscription that receives each: run inside
 * the transaction that commits the change, so that an event exists if and only if its change was committed.
 * Only events some live subscription receives are kept: without subscribers, emission costs a lookup.
 */
export async function appendEvents(sql: DuckDBConnection, events: string, params: Record<string, string>, at: Date): Promise<number> {
  const batch = `b${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  const inserted = await sql.runAndReadAll(
    `insert into control.webhook_events
     select 'msg_' || replace(uuid()::varchar, '-', ''),
            coalesce((select max(seq) from control.webhook_events), 0) + row_number() over (order by occurred_at, ordering_key),
            organization_id, connection_id, message_type, ordering_key, dedupe_key, body, occurred_at, $at::timestamptz, $batch
     from (select organization_id::varchar as organization_id, connection_id::varchar as connection_id, message_type::varchar as message_type,
                  ordering_key::varchar as ordering_key, dedupe_key::varchar as dedupe_key, body::varchar as body, occurred_at::timestamptz as occurred_at
           from (${events})) as e
     where (dedupe_key is null or not exists (select 1 from control.webhook_events x where x.dedupe_key = e.dedupe_key and x.organization_id = e.organization_id))
       and exists (select 1 from control.webhook_subscriptions s where ${matches})
     qualify dedupe_key is null or row_number() over (partition by dedupe_key order by occurred_at) = 1
     returning 1`,
    { ...params, at: at.toISOString(), batch },
  );
  await sql.run(
    `insert into control.webhook_deliveries
     select uuid()::varchar, e.id, s.id, s.url, 'PENDING', 0, $at::timestamptz, $at::timestamptz, null, null, null, null
     from control.webhook_events e join control.webhook_subscriptions s on ${matches}
     where e.batch = $batch`,
    { at: at.toISOString(), batch },
  );
  return inserted.currentRowCount;
}

/** A connection as a message's summary names it (the context fields of spec document 002). */
export interface ConnectionContext {
  id: string;
  organization_id: string;
  name: string;
  marketplace_id: string;
  seller_id: string | null;
}

let marketplaces: ReturnType<typeof loadMarketplaces> | undefined;
/** The summary fields every message starts with: marketplace, connection and seller id (optional ones when known). */
export function summaryContext(c: ConnectionContext): Record<string, string> {
  const marketplace = (marketplaces ??= loadMarketplaces()).get(c.marketplace_id);
  return {
    marketplaceId: c.marketplace_id,
    ...(marketplace ? { marketplaceCountryCode: marketplace.countryCode, marketplaceCountryName: marketplace.countryName } : {}),
    sellerOrVendorId: c.id,
    sellerOrVendorName: c.name,
    ...(c.seller_id ? { marketplaceSellerId: c.seller_id } : {}),
  };
}

/** Appends events made in TypeScript (notifications, export schedule runs); see `appendEvents`. */
export function recordEvents(sql: DuckDBConnection, events: NewEvent[], at = new Date()): Promise<number> {
  if (events.length === 0) return Promise.resolve(0);
  const rows = events.map((e) => ({
    organization_id: e.organizationId,
    connection_id: e.connectionId,
    message_type: e.messageType,
    ordering_key: e.orderingKey ?? null,
    dedupe_key: e.dedupeKey ?? null,
    body: envelope(e),
    occurred_at: e.occurredAt,
  }));
  return appendEvents(
    sql,
    `select j->>'organization_id' as organization_id, j->>'connection_id' as connection_id, j->>'message_type' as message_type,
            j->>'ordering_key' as ordering_key, j->>'dedupe_key' as dedupe_key, j->>'body' as body, (j->>'occurred_at')::timestamptz as occurred_at
     from (select unnest(from_json($events::json, '["JSON"]')) as j)`,
    { events: JSON.stringify(rows) },
    at,
  );
}

/** An export schedule's run: one event, delivered (unsigned, as before the outbox) to each of its integration URLs. */
export async function recordScheduleRun(wh: Warehouse, organizationId: string, body: string, urls: string[], at = new Date()): Promise<void> {
  if (urls.length === 0) return;
  const event = `msg_${randomUUID().replaceAll('-', '')}`;
  await wh.db.transaction().execute(async (trx) => {
    const { seq } = await trx.selectFrom('control.webhook_events').select((eb) => eb.fn.max('seq').as('seq')).executeTakeFirstOrThrow();
    await trx.insertInto('control.webhook_events').values({
      id: event, seq: Number(seq ?? 0) + 1, organization_id: organizationId, connection_id: null, message_type: 'EXPORT_SCHEDULE_RUN_FINISHED',
      ordering_key: null, dedupe_key: null, body, occurred_at: at.toISOString(), emitted_at: at.toISOString(), batch: null,
    }).execute();
    await trx.insertInto('control.webhook_deliveries').values(urls.map((url) => ({
      id: randomUUID(), event_id: event, subscription_id: null, url, status: 'PENDING', attempts: 0, next_attempt_at: at.toISOString(),
      created_at: at.toISOString(), last_attempt_at: null, last_status: null, last_error: null, delivered_at: null,
    }))).execute();
  });
}

/** How long deliveries of an event are retried before they are given up (and their subscription disabled). */
export const retryWindowMs = 24 * 3_600_000;

/** The wait before attempt `attempts + 1`: exponential from 5 s, at most an hour, with ±50 % jitter. */
export const backoffMs = (attempts: number, random = Math.random()) => Math.min(5_000 * 2 ** (attempts - 1), 3_600_000) * (0.5 + random);

interface Due {
  id: string;
  event_id: string;
  subscription_id: string | null;
  url: string;
  attempts: number;
  created_at: string;
  body: string;
}

/** What an attempt came to: the delivery's new state. */
interface Outcome {
  delivery: Due;
  row: {
    id: string;
    status: 'PENDING' | 'DELIVERED' | 'FAILED';
    attempts: number;
    last_attempt_at: string;
    last_status: number | null;
    last_error: string | null;
    next_attempt_at: string;
    delivered_at: string | null;
  };
}

export interface DelivererOptions {
  /** Where webhooks may go besides public addresses (webhooks/address.ts). */
  networks: Networks;
  now?: () => number;
  /** Deliveries in flight at once. @default 8 */
  concurrency?: number;
  /** How often the outbox is looked at. @default 1000 */
  intervalMs?: number;
  /** A 2xx within this time counts as delivered. @default 10000 */
  timeoutMs?: number;
  log?: (message: string) => void;
}

/**
 * Works through the outbox: every due PENDING delivery, at most one per (receiver, ordering key) at a time and in
 * emission order, POSTed with the Standard Webhooks headers (`webhook-id` is the event's id, the same on every
 * attempt, so receivers drop duplicates; `webhook-signature` is HMAC-SHA256 over `id.timestamp.body` with the
 * subscription's secret). A 2xx within the timeout delivers it; anything else is retried with exponential backoff
 * and jitter for 24 hours after the event, then given up, and the subscription is disabled with the reason. The state
 * lives in the warehouse, so a restart goes on where it stopped.
 */
export class WebhookDeliverer {
  private timer: NodeJS.Timeout | null = null;
  /** The pass waiting to start (callers until it starts share it) and the chain of passes, one at a time. */
  private next: Promise<number> | null = null;
  private chain: Promise<unknown> = Promise.resolve();
  private readonly now: () => number;

  constructor(
    private readonly wh: Warehouse,
    private readonly options: DelivererOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  start(): void {
    const tick = async () => {
      await this.deliverDue().catch((error) => this.options.log?.(`webhook deliveries failed: ${String(error)}`));
      if (this.timer) this.timer = setTimeout(tick, this.options.intervalMs ?? 1_000).unref();
    };
    this.timer = setTimeout(tick, 0).unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.chain;
  }

  /**
   * Attempts every delivery due now, in a pass that starts after the one running (so it sees what was committed
   * before the call); returns how many were attempted.
   */
  deliverDue(): Promise<number> {
    if (this.next) return this.next;
    const next = this.chain.then(() => {
      this.next = null;
      return this.pass();
    });
    this.next = next;
    this.chain = next.catch(() => 0);
    return next;
  }

  private async pass(): Promise<number> {
    let attempted = 0;
    for (;;) {
      const due = await this.due();
      if (due.length === 0) return attempted;
      // Each subscription's secret is read once a batch; the outcomes are written together after it.
      const secrets = new Map<string, Promise<string>>();
      const secret = (id: string) => secrets.get(id) ?? secrets.set(id, subscriptionSecret(this.wh, id)).get(id)!;
      const queue = [...due];
      const outcomes: Outcome[] = [];
      const worker = async () => {
        for (let d = queue.shift(); d; d = queue.shift()) outcomes.push(await this.attempt(d, secret));
      };
      await Promise.all(Array.from({ length: Math.min(this.options.concurrency ?? 8, queue.length) }, worker));
      await this.record(outcomes);
      attempted += due.length;
    }
  }

  private async due(): Promise<Due[]> {
    const { rows } = await kysql<Due>`
      select d.id, d.event_id, d.subscription_id, d.url, d.attempts, d.created_at::varchar as created_at, e.body
      from control.webhook_deliveries d join control.webhook_events e on e.id = d.event_id
      where d.status = 'PENDING' and d.next_attempt_at <= ${new Date(this.now()).toISOString()}::timestamptz
        and (e.ordering_key is null or not exists (
          select 1 from control.webhook_deliveries p join control.webhook_events pe on pe.id = p.event_id
          where p.status = 'PENDING' and p.url = d.url and p.subscription_id is not distinct from d.subscription_id
            and pe.ordering_key = e.ordering_key and pe.seq < e.seq))
      order by e.seq
      limit 200`.execute(this.wh.db);
    return rows;
  }

  /** One POST; the outcome to record (not yet written). */
  private async attempt(d: Due, secret: (subscriptionId: string) => Promise<string>): Promise<Outcome> {
    const at = new Date(this.now());
    let status: number | null = null;
    let error: string | null = null;
    try {
      const headers: Record<string, string> = { 'webhook-id': d.event_id, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)) };
      if (d.subscription_id) headers['webhook-signature'] = new Webhook(await secret(d.subscription_id)).sign(d.event_id, at, d.body);
      status = await postWebhook(d.url, d.body, this.options.networks, { headers, timeoutMs: this.options.timeoutMs ?? 10_000 });
      if (status < 200 || status > 299) error = `answered ${status}${status >= 300 && status < 400 ? ' (redirects are not followed)' : ''}`;
    } catch (e) {
      error = e instanceof Error ? e.message : String(e);
    }
    const attempts = d.attempts + 1;
    const next = at.getTime() + backoffMs(attempts);
    const gaveUp = error !== null && next - new Date(d.created_at).getTime() > retryWindowMs;
    return {
      delivery: d,
      row: {
        id: d.id,
        status: error === null ? 'DELIVERED' : gaveUp ? 'FAILED' : 'PENDING',
        attempts,
        last_attempt_at: at.toISOString(),
        last_status: status,
        last_error: error,
        next_attempt_at: new Date(error === null || gaveUp ? at.getTime() : next).toISOString(),
        delivered_at: error === null ? at.toISOString() : null,
      },
    };
  }

  /** Writes a batch's outcomes in one statement; a delivery given up disables its subscription. */
  private async record(outcomes: Outcome[]): Promise<void> {
    await kysql`
      update control.webhook_deliveries d
      set status = o.status, attempts = o.attempts, last_attempt_at = o.last_attempt_at::timestamptz, last_status = o.last_status,
          last_error = o.last_error, next_attempt_at = o.next_attempt_at::timestamptz, delivered_at = o.delivered_at::timestamptz
      from (select unnest(from_json(${JSON.stringify(outcomes.map((o) => o.row))},
        '[{"id":"VARCHAR","status":"VARCHAR","attempts":"INTEGER","last_attempt_at":"VARCHAR","last_status":"INTEGER","last_error":"VARCHAR","next_attempt_at":"VARCHAR","delivered_at":"VARCHAR"}]'), recursive := true)) o
      where d.id = o.id`.execute(this.wh.db);
    for (const o of outcomes.filter((o) => o.row.status === 'FAILED')) await this.giveUp(o.delivery, o.row.last_error!, new Date(o.row.last_attempt_at));
  }

  /** After 24 hours: the delivery fails for good; its subscription is disabled with the reason, its other deliveries fail too. */
  private async giveUp(d: Due, error: string, at: Date): Promise<void> {
    const reason = `deliveries to ${d.url} failed for 24 hours; the last attempt: ${error}`;
    this.options.log?.(`webhook ${d.subscription_id ?? d.url}: ${reason}`);
    if (!d.subscription_id) return;
    await this.wh.db.transaction().execute(async (trx) => {
      await trx.updateTable('control.webhook_subscriptions').set({ disabled_at: at.toISOString(), disabled_reason: reason }).where('id', '=', d.subscription_id).execute();
      await trx.updateTable('control.webhook_deliveries').set({ status: 'FAILED', last_error: 'the subscription was disabled' }).where('subscription_id', '=', d.subscription_id).where('status', '=', 'PENDING').execute();
    });
  }
}
