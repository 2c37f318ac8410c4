import { randomUUID } from 'node:crypto';
import type { DuckDBConnection } from '@duckdb/node-api';
import { loadMarketplaces } from '../control/marketplaces.ts';
import { sql as kysql, type Kysely, type Transaction } from 'kysely';
import type { ControlPlane } from '../db/control-plane.ts';
import type { ControlStore } from '../db/control-store.ts';
import { matches } from './subscription-matches.ts';
import { queueBatchDeliveries, queueDeliveries } from './deliveries.ts';

// control.webhook_events, every event emitted, numbered in emission order: every query on it is in this file
// (test/db/control-table-modules.test.ts).

type Db = Kysely<ControlPlane>;
/** An event's row. */
export type EventRow = ControlPlane['control.webhook_events'];

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
export async function appendEvents(
  sql: DuckDBConnection,
  events: string,
  params: Record<string, string>,
  at: Date,
): Promise<number> {
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
  await queueBatchDeliveries(sql, batch, at);
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
    ...(marketplace
      ? { marketplaceCountryCode: marketplace.countryCode, marketplaceCountryName: marketplace.countryName }
      : {}),
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

/** The number of the last event, 0 when there is none. */
async function lastEventSeq(db: Db): Promise<number> {
  const { seq } = await db
    .selectFrom('control.webhook_events')
    .select((eb) => eb.fn.max('seq').as('seq'))
    .executeTakeFirstOrThrow();
  return Number(seq ?? 0);
}

/** An export schedule's run: one event, delivered (unsigned, as before the outbox) to each of its integration URLs. */
export async function recordScheduleRun(
  wh: ControlStore,
  organizationId: string,
  body: string,
  urls: string[],
  at = new Date(),
): Promise<void> {
  if (urls.length === 0) return;
  const event = `msg_${randomUUID().replaceAll('-', '')}`;
  await wh.db.transaction().execute(async (trx) => {
    const seq = await lastEventSeq(trx);
    await trx
      .insertInto('control.webhook_events')
      .values({
        id: event,
        seq: seq + 1,
        organization_id: organizationId,
        connection_id: null,
        message_type: 'EXPORT_SCHEDULE_RUN_FINISHED',
        ordering_key: null,
        dedupe_key: null,
        body,
        occurred_at: at.toISOString(),
        emitted_at: at.toISOString(),
        batch: null,
      })
      .execute();
    await queueDeliveries(
      trx,
      urls.map((url) => ({
        id: randomUUID(),
        event_id: event,
        subscription_id: null,
        url,
        status: 'PENDING',
        attempts: 0,
        next_attempt_at: at.toISOString(),
        created_at: at.toISOString(),
        last_attempt_at: null,
        last_status: null,
        last_error: null,
        delivered_at: null,
      })),
    );
  });
}

// A shard's outbox holds the events its runs derived until the worker relays them to the shared control plane
// (scale/relay-events.ts), where they are numbered after every event there.

/** The ids of every event in the outbox. */
export async function outboxEventIds(db: Db): Promise<string[]> {
  return (await db.selectFrom('control.webhook_events').select('id').execute()).map((e) => e.id);
}

/** Which of these events the control plane has. */
export async function eventsHeld(db: Db, ids: string[]): Promise<string[]> {
  return (await db.selectFrom('control.webhook_events').select('id').where('id', 'in', ids).execute()).map((e) => e.id);
}

/** Drops these events (inside the caller's transaction when `db` is one). */
export async function dropEvents(db: Db, ids: string[]): Promise<void> {
  await db.deleteFrom('control.webhook_events').where('id', 'in', ids).execute();
}

/** Every event in the outbox, oldest first. */
export function outboxEvents(db: Db): Promise<EventRow[]> {
  return db.selectFrom('control.webhook_events').selectAll().orderBy('seq').execute();
}

/**
 * The number of the last event, the table locked until the caller's transaction (on the shared PostgreSQL) ends:
 * numbering after it needs the appends of other shards (and of export schedules) to wait.
 */
export async function lastEventSeqLocked(trx: Transaction<ControlPlane>): Promise<number> {
  await kysql`lock table control.webhook_events in share row exclusive mode`.execute(trx);
  return lastEventSeq(trx);
}

/**
 * Inserts relayed events, 500 a statement (PostgreSQL takes at most 65,535 parameters a statement); one whose id is
 * there is skipped.
 */
export async function insertRelayedEvents(db: Db, rows: EventRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 500)
    await db
      .insertInto('control.webhook_events')
      .values(rows.slice(i, i + 500))
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
}
