import type { DuckDBConnection } from '@duckdb/node-api';
import { sql, type Insertable, type Kysely } from 'kysely';
import type { ControlPlane } from '../db/control-plane.ts';
import { matches } from './subscription-matches.ts';

// control.webhook_deliveries, one row per event and receiver (a subscription, or an export schedule's URL) and how
// its delivery went: every query on it is in this file (test/db/control-table-modules.test.ts).

type Db = Kysely<ControlPlane>;
/** A delivery's row. */
export type DeliveryRow = ControlPlane['control.webhook_deliveries'];

/** A delivery due, with its event's body. */
export interface DueDelivery {
  id: string;
  event_id: string;
  subscription_id: string | null;
  url: string;
  attempts: number;
  created_at: string;
  body: string;
}

/** An attempt's outcome: the delivery's new state. */
export interface DeliveryOutcome {
  id: string;
  status: 'PENDING' | 'DELIVERED' | 'FAILED';
  attempts: number;
  last_attempt_at: string;
  last_status: number | null;
  last_error: string | null;
  next_attempt_at: string;
  delivered_at: string | null;
}

/** Queues deliveries (inside the caller's transaction when `db` is one), a thousand a statement. */
export async function queueDeliveries(db: Db, rows: Insertable<DeliveryRow>[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 1000)
    await db
      .insertInto('control.webhook_deliveries')
      .values(rows.slice(i, i + 1000))
      .execute();
}

/** The ids of the events since `since` that were meant for the subscription, in emission order. */
export async function eventsMeantFor(db: Db, subscriptionId: string, since: Date): Promise<string[]> {
  const events = await db
    .selectFrom('control.webhook_events')
    .select('id')
    .where('emitted_at', '>=', since.toISOString())
    .where(
      'id',
      'in',
      db.selectFrom('control.webhook_deliveries').select('event_id').where('subscription_id', '=', subscriptionId),
    )
    .orderBy('seq')
    .execute();
  return events.map((e) => e.id);
}

/** Cancels the subscription's pending deliveries (inside the caller's transaction when `db` is one). */
export async function cancelPendingDeliveries(db: Db, subscriptionId: string): Promise<void> {
  await db
    .updateTable('control.webhook_deliveries')
    .set({ status: 'CANCELED' })
    .where('subscription_id', '=', subscriptionId)
    .where('status', '=', 'PENDING')
    .execute();
}

/** Fails the subscription's pending deliveries, disabled (inside the caller's transaction when `db` is one). */
export async function failPendingDeliveries(db: Db, subscriptionId: string): Promise<void> {
  await db
    .updateTable('control.webhook_deliveries')
    .set({ status: 'FAILED', last_error: 'the subscription was disabled' })
    .where('subscription_id', '=', subscriptionId)
    .where('status', '=', 'PENDING')
    .execute();
}

/**
 * The first 1,000 due deliveries in emission order, but none behind a pending one of its receiver and ordering key:
 * pending deliveries ranked within (receiver, key) in one pass, the bodies read for those picked only.
 */
export async function dueDeliveries(db: Db, now: Date): Promise<DueDelivery[]> {
  const { rows } = await sql<DueDelivery>`
      with pending as (
        select d.id, d.event_id, d.subscription_id, d.url, d.attempts, d.created_at, d.next_attempt_at, e.seq, e.ordering_key,
               row_number() over (partition by d.url, d.subscription_id, e.ordering_key order by e.seq) as place
        from control.webhook_deliveries d join control.webhook_events e on e.id = d.event_id
        where d.status = 'PENDING'
      ),
      picked as (
        select * from pending
        where (ordering_key is null or place = 1) and next_attempt_at <= ${now.toISOString()}::timestamptz
        order by seq
        limit 1000
      )
      select p.id, p.event_id, p.subscription_id, p.url, p.attempts, p.created_at::varchar as created_at, e.body
      from picked p join control.webhook_events e on e.id = p.event_id
      order by p.seq`.execute(db);
  return rows;
}

/**
 * Claims these deliveries, if still pending and due at `now`, until `until` (another process working the same outbox
 * skips them meanwhile); returns the ids claimed.
 */
export async function claimDeliveries(db: Db, ids: string[], now: Date, until: Date): Promise<Set<string>> {
  const claimed = await db
    .updateTable('control.webhook_deliveries')
    .set({ next_attempt_at: until.toISOString() })
    .where('id', 'in', ids)
    .where('status', '=', 'PENDING')
    .where('next_attempt_at', '<=', now.toISOString())
    .returning('id')
    .execute();
  return new Set(claimed.map((c) => c.id));
}

/** Records a batch of attempts' outcomes in one statement. */
export async function recordDeliveryOutcomes(db: Db, outcomes: DeliveryOutcome[]): Promise<void> {
  // One statement over a VALUES list (both stores read it), each value cast to its column's type.
  const values = outcomes.map(
    (r) => sql`(${r.id}, ${r.status}, cast(${r.attempts} as integer), cast(${r.last_attempt_at} as timestamptz),
      cast(${r.last_status} as integer), cast(${r.last_error} as varchar), cast(${r.next_attempt_at} as timestamptz), cast(${r.delivered_at} as timestamptz))`,
  );
  await sql`
      update control.webhook_deliveries
      set status = o.status, attempts = o.attempts, last_attempt_at = o.last_attempt_at, last_status = o.last_status,
          last_error = o.last_error, next_attempt_at = o.next_attempt_at, delivered_at = o.delivered_at
      from (values ${sql.join(values)}) as o(id, status, attempts, last_attempt_at, last_status, last_error, next_attempt_at, delivered_at)
      where control.webhook_deliveries.id = o.id`.execute(db);
}

/** A page of the subscription's deliveries, newest event first, with their events' types, and how many there are. */
export async function deliveriesOf(db: Db, subscriptionId: string, page: { page: number; pageSize: number }) {
  const base = db
    .selectFrom('control.webhook_deliveries as d')
    .innerJoin('control.webhook_events as e', 'e.id', 'd.event_id')
    .where('d.subscription_id', '=', subscriptionId);
  const total = await base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  const rows = await base
    .select([
      'd.id',
      'd.event_id',
      'e.message_type',
      'd.status',
      'd.attempts',
      'd.last_status',
      'd.last_error',
      'd.next_attempt_at',
      'd.created_at',
      'd.delivered_at',
    ])
    .orderBy('e.seq', 'desc')
    .orderBy('d.created_at', 'desc')
    .orderBy('d.id')
    .limit(page.pageSize)
    .offset((page.page - 1) * page.pageSize)
    .execute();
  return { rows, total: Number(total.n) };
}

/** The latest deliveries, of one organization's events or of all, newest first (the console). */
export function latestDeliveries(db: Db, organizationId: string | undefined, limit: number) {
  let query = db
    .selectFrom('control.webhook_deliveries as d')
    .innerJoin('control.webhook_events as e', 'e.id', 'd.event_id')
    .select([
      'd.id',
      'e.organization_id',
      'e.message_type',
      'd.url',
      'd.status',
      'd.attempts',
      'd.created_at',
      'd.last_attempt_at',
      'd.last_status',
      'd.last_error',
      'd.delivered_at',
      'd.next_attempt_at',
    ]);
  if (organizationId) query = query.where('e.organization_id', '=', organizationId);
  return query.orderBy('d.created_at', 'desc').limit(limit).execute();
}

/**
 * Queues a delivery of each event of the batch to each subscription that receives it, on the warehouse's connection
 * inside the transaction that appended the events.
 */
export async function queueBatchDeliveries(duck: DuckDBConnection, batch: string, at: Date): Promise<void> {
  await duck.run(
    `insert into control.webhook_deliveries
     select uuid()::varchar, e.id, s.id, s.url, 'PENDING', 0, $at::timestamptz, $at::timestamptz, null, null, null, null
     from control.webhook_events e join control.webhook_subscriptions s on ${matches}
     where e.batch = $batch`,
    { at: at.toISOString(), batch },
  );
}

// A shard's outbox holds deliveries until the worker relays them to the shared control plane (scale/relay-events.ts).

/** Every delivery in a shard's outbox. */
export function outboxDeliveries(db: Db): Promise<DeliveryRow[]> {
  return db.selectFrom('control.webhook_deliveries').selectAll().execute();
}

/** Drops the deliveries of these events (inside the caller's transaction when `db` is one). */
export async function dropDeliveriesOf(db: Db, eventIds: string[]): Promise<void> {
  await db.deleteFrom('control.webhook_deliveries').where('event_id', 'in', eventIds).execute();
}

/**
 * Inserts relayed deliveries, 500 a statement (PostgreSQL takes at most 65,535 parameters a statement); one whose id
 * is there is skipped.
 */
export async function insertRelayedDeliveries(db: Db, rows: DeliveryRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 500)
    await db
      .insertInto('control.webhook_deliveries')
      .values(rows.slice(i, i + 500))
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
}
