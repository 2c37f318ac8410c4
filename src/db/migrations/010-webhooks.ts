import type { Kysely } from 'kysely';

/**
 * Webhooks (issue: webhook events): subscriptions, the events derived from landed data, and the outbox of their
 * deliveries (one row per event and receiver), which a delivery loop works through and which survives restarts.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .withSchema('control')
    .createTable('webhook_subscriptions')
    .addColumn('id', 'varchar', (c) => c.primaryKey())
    .addColumn('organization_id', 'varchar', (c) => c.notNull())
    .addColumn('url', 'varchar', (c) => c.notNull())
    .addColumn('message_types', 'varchar', (c) => c.notNull()) // JSON array of messageType
    .addColumn('seller_or_vendor_ids', 'varchar') // JSON array, or null for every connection of the organization
    .addColumn('secret', 'varchar', (c) => c.notNull()) // the signing secret, encrypted with the home's secret key
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('disabled_at', 'timestamptz')
    .addColumn('disabled_reason', 'varchar')
    .addColumn('deleted_at', 'timestamptz')
    .execute();
  await db.schema
    .withSchema('control')
    .createTable('webhook_events')
    .addColumn('id', 'varchar', (c) => c.primaryKey()) // msg_…, the webhook-id every delivery of it carries
    .addColumn('seq', 'bigint', (c) => c.notNull()) // emission order
    .addColumn('organization_id', 'varchar', (c) => c.notNull())
    .addColumn('connection_id', 'varchar') // null for an export schedule's run
    .addColumn('message_type', 'varchar', (c) => c.notNull())
    .addColumn('ordering_key', 'varchar') // deliveries of one key (an order id) go out in seq order
    .addColumn('dedupe_key', 'varchar') // an upstream notification id: a second copy is not an event
    // the JSON every receiver gets: { messageType, summary, details, occurredAt }
    .addColumn('body', 'varchar', (c) => c.notNull())
    .addColumn('occurred_at', 'timestamptz', (c) => c.notNull()) // when the change happened upstream
    .addColumn('emitted_at', 'timestamptz', (c) => c.notNull()) // when mktdata derived it (replay --since reads this)
    .addColumn('batch', 'varchar') // the events recorded together (one landed file, one notification file)
    .execute();
  await db.schema
    .withSchema('control')
    .createTable('webhook_deliveries')
    .addColumn('id', 'varchar', (c) => c.primaryKey())
    .addColumn('event_id', 'varchar', (c) => c.notNull())
    .addColumn('subscription_id', 'varchar') // null for an export schedule's integration URL
    .addColumn('url', 'varchar', (c) => c.notNull())
    .addColumn('status', 'varchar', (c) => c.notNull()) // PENDING, DELIVERED, FAILED (given up), CANCELED
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('next_attempt_at', 'timestamptz', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('last_attempt_at', 'timestamptz')
    .addColumn('last_status', 'integer')
    .addColumn('last_error', 'varchar')
    .addColumn('delivered_at', 'timestamptz')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['webhook_deliveries', 'webhook_events', 'webhook_subscriptions'])
    await db.schema.withSchema('control').dropTable(table).execute();
}
