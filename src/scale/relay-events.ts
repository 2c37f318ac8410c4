import type { Transaction } from 'kysely';
import type { ControlPlane } from '../db/control-plane.ts';
import type { ControlStore } from '../db/control-store.ts';
import { liveSubscriptionIds } from '../webhooks/subscriptions.ts';
import {
  dropEvents,
  eventsHeld,
  insertRelayedEvents,
  lastEventSeqLocked,
  outboxEventIds,
  outboxEvents,
  type EventRow,
} from '../webhooks/outbox.ts';
import {
  dropDeliveriesOf,
  insertRelayedDeliveries,
  outboxDeliveries,
  type DeliveryRow,
} from '../webhooks/deliveries.ts';

/** The webhook events a shard's runs derived and their deliveries, as its own outbox holds them. */
export interface Outbox {
  events: EventRow[];
  deliveries: DeliveryRow[];
}

/**
 * A shard's outbox is a buffer: its runs derive events inside the transactions that land the data (webhooks/outbox.ts),
 * and the worker relays them to the shared control plane, where the API replicas deliver them. This drops from the
 * shard's outbox what the shared one already has (relayed by an earlier run, or by the run of the checkpoint it was
 * restored from); what stays is relayed after the run.
 */
export async function forgetRelayed(shard: ControlStore, shared: ControlStore): Promise<number> {
  const local = await outboxEventIds(shard.db);
  let forgotten = 0;
  for (let i = 0; i < local.length; i += 1000) {
    const relayed = await eventsHeld(shared.db, local.slice(i, i + 1000));
    if (relayed.length === 0) continue;
    await shard.db.transaction().execute(async (trx) => {
      await dropDeliveriesOf(trx, relayed);
      await dropEvents(trx, relayed);
    });
    forgotten += relayed.length;
  }
  return forgotten;
}

/** Everything in a shard's outbox, oldest first. */
export async function readOutbox(shard: ControlStore): Promise<Outbox> {
  const events = await outboxEvents(shard.db);
  const deliveries = events.length === 0 ? [] : await outboxDeliveries(shard.db);
  return { events, deliveries };
}

/**
 * Appends a shard's outbox to the shared one, inside the transaction that shares the shard's build (scale/shard-home.ts
 * `copyFenced`): an event is delivered if and only if the build that derived it stands. Events keep their ids
 * (receivers deduplicate on them; a second relay of one changes nothing) and are numbered after every event already
 * there, in the shard's order, so the deliveries of one order id go out in the order they were derived. Deliveries to
 * a subscription deleted or disabled meanwhile are dropped.
 */
export async function relayOutbox(trx: Transaction<ControlPlane>, outbox: Outbox): Promise<number> {
  if (outbox.events.length === 0) return 0;
  const seq = await lastEventSeqLocked(trx);
  const events = outbox.events.map((e, i) => ({ ...e, seq: seq + i + 1 }));
  const subscriptions = [...new Set(outbox.deliveries.map((d) => d.subscription_id ?? ''))];
  const live = new Set(subscriptions.length === 0 ? [] : await liveSubscriptionIds(trx, subscriptions));
  const deliveries = outbox.deliveries.filter((d) => d.subscription_id !== null && live.has(d.subscription_id));
  await insertRelayedEvents(trx, events);
  await insertRelayedDeliveries(trx, deliveries);
  return events.length;
}
