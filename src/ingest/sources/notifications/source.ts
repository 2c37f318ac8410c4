import { eventDefinitions } from '../../../vocabulary/webhook-events.ts';
import { recordEvents, summaryContext, type ConnectionContext, type NewEvent } from '../../../webhooks/outbox.ts';
import { lineageDdl } from '../../flat-file.ts';
import { landJsonRecords, readJsonDocument, type JsonRecord } from '../../json-records.ts';
import type { LandContext, Source } from '../../source.ts';
import { findInPayload, marketplaceKeys, notificationColumns, notificationRecords } from './format.ts';
import { sameOrganizationConnections } from '../../../control/connections/connections.ts';

const table = 'raw.notifications';

/** Webhook messages of the shared notification shape (spec document 002): `MKT_` and the upstream type. */
const sharedShape = new Set(
  eventDefinitions
    .filter((d) => d.summary.fields.some((f) => f.name === 'spApiNotificationId'))
    .map((d) => d.messageType),
);

/**
 * The connection a notification is for (docs/design/live-apis.md §5): the organization's connection with the payload's
 * seller id, in the payload's marketplace if there is one, else the landing connection if it has that seller id, else
 * the first
 * by id; without a seller id or a connection that has it, the landing connection.
 */
function route(
  connections: ConnectionContext[],
  landing: ConnectionContext,
  sellerKey: string | null,
  marketplaceKey: string | null,
): ConnectionContext {
  const sellers = sellerKey === null ? [] : connections.filter((c) => c.seller_id === sellerKey);
  return (
    sellers.find((c) => c.marketplace_id === marketplaceKey) ??
    sellers.find((c) => c.id === landing.id) ??
    sellers[0] ??
    landing
  );
}

/**
 * One event per landed notification of a shared-shape type, routed to its connection; a notification id is one event.
 */
async function events(ctx: LandContext): Promise<void> {
  const reader = await ctx.sql.runAndReadAll(
    `select notification_id, notification_type, epoch_ms(event_time)::varchar as event_ms, notification_metadata::varchar as metadata,
            payload::varchar as payload, seller_key
     from ${table} where _file_id = $fileId order by _line_number`,
    { fileId: ctx.fileId },
  );
  const rows = reader.getRowObjectsJson().filter((r) => sharedShape.has(`MKT_${String(r.notification_type)}`));
  if (rows.length === 0) return;
  const connections = await sameOrganizationConnections(ctx.sql, ctx.connection.id);
  const landing = connections.find((c) => c.id === ctx.connection.id);
  if (!landing) return; // no organization to tell
  const list = rows.map((r): NewEvent => {
    const payload = JSON.parse(String(r.payload)) as JsonRecord;
    const connection = route(
      connections,
      landing,
      r.seller_key === null ? null : String(r.seller_key),
      findInPayload(payload, marketplaceKeys),
    );
    const eventTimeUtc = new Date(Number(r.event_ms)).toISOString();
    return {
      organizationId: connection.organization_id,
      connectionId: connection.id,
      messageType: `MKT_${String(r.notification_type)}`,
      summary: {
        ...summaryContext(connection),
        spApiNotificationId: String(r.notification_id),
        spApiNotificationType: String(r.notification_type),
        eventTimeUtc,
      },
      details: {
        notificationMetadata: r.metadata === null ? {} : (JSON.parse(String(r.metadata)) as JsonRecord),
        payload,
      },
      occurredAt: eventTimeUtc,
      orderingKey: null,
      dedupeKey: String(r.notification_id),
    };
  });
  await recordEvents(ctx.sql, list, new Date(ctx.landedAt));
}

/**
 * The `notifications` source: Notifications API messages as delivered to SQS or EventBridge (docs/design/live-apis.md
 * §5), a file holding one message, a JSON array of them, or an SQS ReceiveMessage answer; envelopes in PascalCase or
 * camelCase
 * (docs/design/upstream-formats.md, "Notification quirks"). One row per message lands in `raw.notifications` with its
 * metadata and payload as JSON and the seller id its payload names (`seller_key`); other envelope fields go to
 * `_extra`. A message
 * without type, ISO event time, payload object or notification id refuses the file; one without metadata (possible
 * for FBA_INVENTORY_AVAILABILITY_CHANGES) is identified by the SHA-256 of its JSON. Each message of a type of the
 * shared notification shape becomes a webhook event `MKT_<type>` for the connection it routes to, once per
 * notification id (duplicates, re-deliveries and copies in other files are one event).
 */
export const source: Source = {
  name: 'notifications',
  table,
  createTable: `create table if not exists ${table} (notification_id varchar, notification_type varchar, event_time timestamptz, payload_version varchar,
    notification_metadata json, payload json, seller_key varchar, _extra json, ${lineageDdl})`,
  land: (ctx) => landJsonRecords(ctx, table, notificationColumns, notificationRecords(readJsonDocument(ctx.path))),
  events,
};
