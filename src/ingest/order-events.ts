import type { LandContext } from './source.ts';
import { appendEvents, summaryContext } from '../webhooks/outbox.ts';
import { connectionSummary } from '../control/connections/connections.ts';
import { anySubscriptionReceives } from '../webhooks/subscriptions.ts';

const lineage = '_file_id, _line_number, _landed_at, _connection_id, _marketplace_id, _extra';
const iso = (column: string) => `strftime(${column} at time zone 'UTC', '%Y-%m-%dT%H:%M:%SZ')`;
const channel = (column: string) =>
  `case ${column} when 'Amazon' then 'AFN' when 'AFN' then 'AFN' when 'Merchant' then 'MFN' when 'MFN' then 'MFN' end`;

/** What makes one kind of order event out of a raw table: how a version of an order reads, and its message. */
interface OrderEventKind {
  messageType: 'MKT_ORDER_UPDATE' | 'MKT_ORDER_BUYER_INFO_UPDATE';
  table: string;
  /** The time a version is as of: the latest one wins. */
  versionTime: string;
  /** Aggregates over a version's lines (alias `o`), as `expression as name`; all of them are compared. */
  state: string[];
  /** The summary fields after the connection's (a json_object argument list over `c`, the changed version). */
  summary: string;
  /** The details object (an expression over `c` and `f.raw_rows`, the file's lines of the order). */
  details: string;
  /** Only versions where this holds are events (e.g. some buyer data is there). */
  where?: string;
}

const orderUpdate: OrderEventKind = {
  messageType: 'MKT_ORDER_UPDATE',
  table: 'raw.get_flat_file_all_orders_data_by_order_date_general',
  versionTime: 'max(o.last_updated_date)',
  // Statuses as the orders tables name them (models/macros.sql, installed before a landing).
  state: [
    `mkt_order_status(max(o.order_status)) as status`,
    `${channel('max(o.fulfillment_channel)')} as channel`,
    `max(o.purchase_date) as purchased_at`,
    `list({ 'sku': o.sku, 'childAsin': o.asin, 'quantity': o.quantity, 'itemPriceValue': o.item_price } order by o.sku, o._line_number) as items`,
  ],
  summary: `'orderPurchasedAtUtc', ${iso('c.purchased_at')}, 'mktOrderStatus', c.status, 'fulfillmentChannel', c.channel, 'orderItems', to_json(c.items)`,
  details: `json_object('raw', to_json(f.raw_rows))`,
};

/** The buyer and recipient fields of spec document 002 that the Amazon Fulfilled Shipments report carries. */
const buyerFields: [string, string][] = [
  ['buyerEmail', 'o.buyer_email'],
  ['buyerName', 'o.buyer_name'],
  ['recipientName', 'o.recipient_name'],
  ['recipientAddressLine1', 'o.ship_address_1'],
  ['recipientAddressLine2', 'o.ship_address_2'],
  ['recipientAddressLine3', 'o.ship_address_3'],
  ['recipientCity', 'o.ship_city'],
  ['recipientStateOrRegion', 'o.ship_state'],
  ['recipientPostalCode', 'o.ship_postal_code'],
  ['recipientCountryCode', 'o.ship_country'],
  ['recipientPhone', 'coalesce(o.ship_phone_number, o.buyer_phone_number)'],
];

const buyerInfoUpdate: OrderEventKind = {
  messageType: 'MKT_ORDER_BUYER_INFO_UPDATE',
  table: 'raw.get_amazon_fulfilled_shipments_data_general',
  versionTime: 'max(coalesce(o.reporting_date, o.shipment_date))',
  state: [
    `{ ${buyerFields.map(([field, column]) => `'${field}': max(${column})`).join(', ')} } as buyer`,
    `${channel('max(o.fulfillment_channel)')} as channel`,
    `max(o.purchase_date) as purchased_at`,
  ],
  summary: `'orderPurchasedAtUtc', ${iso('c.purchased_at')}, 'fulfillmentChannel', c.channel`,
  // json_merge_patch drops the fields the report left empty (they are optional).
  details: `json_merge_patch('{}'::json, to_json(c.buyer))`,
  where: `to_json(c.buyer) <> to_json({ ${buyerFields.map(([field]) => `'${field}': null::varchar`).join(', ')} })`,
};

/**
 * The events of one kind in a landed file: for each order in it, the latest version of the order now (the latest
 * version time, then the latest landing) is compared with the latest version before this file; an order the file
 * brings for the first time, or whose state it changes, is an event. An older version landing late, or the same
 * state again, is none.
 */
async function orderEvents(ctx: LandContext, kind: OrderEventKind): Promise<void> {
  const connection = await connectionSummary(ctx.sql, ctx.connection.id);
  if (!connection) return;
  const subscribed = await anySubscriptionReceives(ctx.sql, {
    organizationId: connection.organization_id,
    type: kind.messageType,
    connectionId: connection.id,
  });
  if (!subscribed) return; // nobody receives this connection's: the comparison is skipped
  const names = kind.state.map((s) => /\bas (\w+)$/.exec(s.trim())![1]!);
  const stateOf = (alias: string) => `to_json({ ${names.map((n) => `'${n}': ${alias}.${n}`).join(', ')} })`;
  await appendEvents(
    ctx.sql,
    `with touched as (select distinct amazon_order_id from ${kind.table} where _file_id = $fileId),
     versions as (
       select o._file_id, o.amazon_order_id, ${kind.versionTime} as version_time, max(o._landed_at) as landed_at, ${kind.state.join(', ')}
       from ${kind.table} o join touched using (amazon_order_id)
       where o._connection_id = $connectionId
       group by o._file_id, o.amazon_order_id
     ),
     ranked as (
       select *,
              row_number() over (partition by amazon_order_id order by version_time desc nulls last, landed_at desc, _file_id = $fileId desc) as now_rank,
              row_number() over (partition by amazon_order_id, _file_id = $fileId order by version_time desc nulls last, landed_at desc) as before_rank
       from versions
     ),
     changed as (
       select n.*
       from ranked n left join ranked b on b.amazon_order_id = n.amazon_order_id and b._file_id <> $fileId and b.before_rank = 1
       where n.now_rank = 1 and n._file_id = $fileId and (b._file_id is null or ${stateOf('n')} <> ${stateOf('b')})
     ),
     file_rows as (
       select amazon_order_id, list(to_json(r) order by sku) as raw_rows
       from (select * exclude (${lineage}) from ${kind.table} where _file_id = $fileId) r
       group by amazon_order_id
     )
     select $organizationId as organization_id, $connectionId as connection_id, '${kind.messageType}' as message_type,
            c.amazon_order_id as ordering_key, null as dedupe_key,
            json_object(
              'messageType', '${kind.messageType}',
              -- json_merge_patch drops the optional fields that are null
              'summary', json_merge_patch($context::json, json_object('mktOrderId', c.amazon_order_id, ${kind.summary})),
              'details', ${kind.details},
              'occurredAt', ${iso('coalesce(c.version_time, c.landed_at)')}
            ) as body,
            coalesce(c.version_time, c.landed_at) as occurred_at
     from changed c join file_rows f using (amazon_order_id)
     ${kind.where ? `where ${kind.where}` : ''}`,
    {
      fileId: ctx.fileId,
      connectionId: connection.id,
      organizationId: connection.organization_id,
      context: JSON.stringify(summaryContext(connection)),
    },
    new Date(ctx.landedAt),
  );
}

/**
 * MKT_ORDER_UPDATE of an All Orders file: an order created, or its status, channel or lines (SKU, ASIN, quantity,
 * price) changed.
 */
export const orderUpdateEvents = (ctx: LandContext) => orderEvents(ctx, orderUpdate);

/**
 * MKT_ORDER_BUYER_INFO_UPDATE of an Amazon Fulfilled Shipments file: an order's buyer or recipient data new or changed.
 */
export const buyerInfoEvents = (ctx: LandContext) => orderEvents(ctx, buyerInfoUpdate);
