import { randomBytes, randomUUID } from 'node:crypto';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { Kysely } from 'kysely';
import type { ControlPlane } from '../db/control-plane.ts';
import type { Warehouse } from '../db/warehouse.ts';
import { decryptSecret, encryptSecret, secretKey } from '../lib/secrets.ts';
import { MktdataError } from '../errors.ts';
import { eventDefinitions } from '../vocabulary/webhook-events.ts';
import { ownConnectionsAmong } from '../control/connections/connections.ts';
import { cancelPendingDeliveries, eventsMeantFor, queueDeliveries } from './deliveries.ts';

/** A webhook subscription as the API and the CLI show it (never its secret, but once at creation). */
export interface Subscription {
  id: string;
  url: string;
  messageTypes: string[];
  sellerOrVendorIds: string[] | null;
  status: 'ACTIVE' | 'DISABLED';
  disabledReason: string | null;
  createdAt: string;
}

export const messageTypes = eventDefinitions.map((d) => d.messageType);
/** What a subscription that names no types receives: every type but the high-volume ones. */
export const defaultMessageTypes = eventDefinitions.filter((d) => !d.highVolume).map((d) => d.messageType);

type Row = {
  id: string;
  url: string;
  message_types: string;
  seller_or_vendor_ids: string | null;
  created_at: string;
  disabled_at: string | null;
  disabled_reason: string | null;
};
const shown = (r: Row): Subscription => ({
  id: r.id,
  url: r.url,
  messageTypes: JSON.parse(r.message_types) as string[],
  sellerOrVendorIds: r.seller_or_vendor_ids === null ? null : (JSON.parse(r.seller_or_vendor_ids) as string[]),
  status: r.disabled_at ? 'DISABLED' : 'ACTIVE',
  disabledReason: r.disabled_reason,
  createdAt: new Date(r.created_at).toISOString(),
});
const context = (id: string) => `webhook:${id}`;

/**
 * Creates a subscription; returns it with its signing secret (`whsec_` and 24 random bytes in base64, the Standard
 * Webhooks form), which is shown this once and kept encrypted with the home's secret key. The URL has been checked
 * by the caller (webhooks/address.ts); the sellers must be the organization's.
 */
export async function createSubscription(
  wh: Warehouse,
  organizationId: string,
  input: { url: string; messageTypes?: string[]; sellerOrVendorIds?: string[] },
  at = new Date(),
): Promise<Subscription & { secret: string }> {
  const unknown = input.messageTypes?.filter((t) => !messageTypes.includes(t)) ?? [];
  if (unknown.length > 0)
    throw new MktdataError('ERR_INPUT_INVALID', {
      where: 'messageTypes',
      reason: `unknown message type(s) ${unknown.join(', ')}; see GET /spec/webhook-scheme`,
    });
  if (input.sellerOrVendorIds?.length) {
    const found = await ownConnectionsAmong(wh.db, organizationId, input.sellerOrVendorIds);
    const missing = input.sellerOrVendorIds.filter((id) => !found.some((f) => f.id === id));
    if (missing.length > 0)
      throw new MktdataError('ERR_INPUT_INVALID', {
        where: 'sellerOrVendorIds',
        reason: `not a connection of this organization: ${missing.join(', ')}`,
      });
  }
  const id = randomUUID();
  const secret = `whsec_${randomBytes(24).toString('base64')}`;
  const row: Row = {
    id,
    url: input.url,
    message_types: JSON.stringify([...new Set(input.messageTypes?.length ? input.messageTypes : defaultMessageTypes)]),
    seller_or_vendor_ids: input.sellerOrVendorIds?.length
      ? JSON.stringify([...new Set(input.sellerOrVendorIds)])
      : null,
    created_at: at.toISOString(),
    disabled_at: null,
    disabled_reason: null,
  };
  await wh.db
    .insertInto('control.webhook_subscriptions')
    .values({
      ...row,
      organization_id: organizationId,
      secret: encryptSecret(secretKey(wh.home), secret, context(id)),
      deleted_at: null,
    })
    .execute();
  return { ...shown(row), secret };
}

const live = (wh: Warehouse) => wh.db.selectFrom('control.webhook_subscriptions').where('deleted_at', 'is', null);
const columns = [
  'id',
  'url',
  'message_types',
  'seller_or_vendor_ids',
  'created_at',
  'disabled_at',
  'disabled_reason',
] as const;

/** The organization's subscriptions (every organization's with `null`), oldest first. */
export async function listSubscriptions(
  wh: Warehouse,
  organizationId: string | null,
): Promise<(Subscription & { organizationId: string })[]> {
  let query = live(wh).select([...columns, 'organization_id']);
  if (organizationId) query = query.where('organization_id', '=', organizationId);
  const rows = await query.orderBy('created_at').orderBy('id').execute();
  return rows.map((r) => ({ ...shown(r), organizationId: r.organization_id }));
}

/** One subscription of the organization (any organization's with `null`), or ERR_NOT_FOUND. */
export async function getSubscription(
  wh: Warehouse,
  organizationId: string | null,
  id: string,
): Promise<Subscription & { organizationId: string }> {
  let query = live(wh)
    .select([...columns, 'organization_id'])
    .where('id', '=', id);
  if (organizationId) query = query.where('organization_id', '=', organizationId);
  const row = await query.executeTakeFirst();
  if (!row) throw new MktdataError('ERR_WEBHOOK_NOT_FOUND', { id });
  return { ...shown(row), organizationId: row.organization_id };
}

/** Deletes a subscription: nothing more is delivered to it; its pending deliveries are canceled. */
export async function deleteSubscription(
  wh: Warehouse,
  organizationId: string | null,
  id: string,
  at = new Date(),
): Promise<void> {
  await getSubscription(wh, organizationId, id);
  await wh.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('control.webhook_subscriptions')
      .set({ deleted_at: at.toISOString() })
      .where('id', '=', id)
      .execute();
    await cancelPendingDeliveries(trx, id);
  });
}

/** The signing secret of a subscription, decrypted for a delivery. */
export async function subscriptionSecret(wh: Warehouse, id: string): Promise<string> {
  const row = await wh.db
    .selectFrom('control.webhook_subscriptions')
    .select('secret')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return decryptSecret(secretKey(wh.home), row.secret, context(id));
}

/**
 * Delivers again, as new deliveries with the same webhook ids (receivers deduplicate on them), every event since
 * `since` that was meant for the subscription (delivered, failed or pending); a disabled subscription is enabled
 * again. Returns how many were queued.
 */
export async function replay(wh: Warehouse, id: string, since: Date, at = new Date()): Promise<number> {
  const subscription = await getSubscription(wh, null, id);
  await wh.db
    .updateTable('control.webhook_subscriptions')
    .set({ disabled_at: null, disabled_reason: null })
    .where('id', '=', id)
    .execute();
  const events = await eventsMeantFor(wh.db, id, since);
  const queued = events.map((event) => ({
    id: randomUUID(),
    event_id: event,
    subscription_id: subscription.id,
    url: subscription.url,
    status: 'PENDING' as const,
    attempts: 0,
    next_attempt_at: at.toISOString(),
    created_at: at.toISOString(),
    last_attempt_at: null,
    last_status: null,
    last_error: null,
    delivered_at: null,
  }));
  await queueDeliveries(wh.db, queued);
  return queued.length;
}

// Every query on control.webhook_subscriptions is in this file (test/db/control-table-modules.test.ts).

/** Which of these subscriptions are live (neither deleted nor disabled). */
export async function liveSubscriptionIds(db: Kysely<ControlPlane>, ids: string[]): Promise<Set<string>> {
  const rows = await db
    .selectFrom('control.webhook_subscriptions')
    .select('id')
    .where('id', 'in', ids)
    .where('deleted_at', 'is', null)
    .where('disabled_at', 'is', null)
    .execute();
  return new Set(rows.map((s) => s.id));
}

/** Disables a subscription, saying why (inside the caller's transaction when `db` is one). */
export async function disableSubscription(db: Kysely<ControlPlane>, id: string, at: Date, reason: string) {
  await db
    .updateTable('control.webhook_subscriptions')
    .set({ disabled_at: at.toISOString(), disabled_reason: reason })
    .where('id', '=', id)
    .execute();
}

/** The subscriptions not deleted, oldest first: an organization's, or every one when `organizationId` is undefined. */
export function subscriptionsListed(db: Kysely<ControlPlane>, organizationId: string | undefined) {
  let query = db
    .selectFrom('control.webhook_subscriptions')
    .select([
      'id',
      'organization_id',
      'url',
      'message_types',
      'seller_or_vendor_ids',
      'created_at',
      'disabled_at',
      'disabled_reason',
    ])
    .where('deleted_at', 'is', null);
  if (organizationId) query = query.where('organization_id', '=', organizationId);
  return query.orderBy('created_at').execute();
}

/** Whether a live subscription receives events of this type for the connection, on the warehouse's connection. */
export async function anySubscriptionReceives(
  duck: DuckDBConnection,
  event: { organizationId: string; type: string; connectionId: string },
): Promise<boolean> {
  const subscribed = await duck.runAndReadAll(
    `select 1 from control.webhook_subscriptions s where s.organization_id = $organizationId and s.deleted_at is null and s.disabled_at is null
       and list_contains(from_json(s.message_types, '["VARCHAR"]'), $type)
       and (s.seller_or_vendor_ids is null or list_contains(from_json(s.seller_or_vendor_ids, '["VARCHAR"]'), $connectionId)) limit 1`,
    event,
  );
  return subscribed.currentRowCount > 0;
}
