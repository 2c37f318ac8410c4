import type { LandContext } from '../ingest/source.ts';
import { appendEvents, summaryContext, type ConnectionContext } from './outbox.ts';

const raw = 'raw.get_flat_file_all_orders_data_by_order_date_general';
const lineage = '_file_id, _line_number, _landed_at, _connection_id, _marketplace_id, _extra';

/**
 * MKT_ORDER_UPDATE events of a landed All Orders file: for each order in it, the latest version of the order now
 * (the greatest last-updated-date, then the latest landing) is compared with the latest version before this file;
 * an order the file creates, or whose status, fulfillment channel or lines (SKU, ASIN, quantity, price) it changes,
 * is an event. A version older than the one already landed, or the same again, is none. Statuses are named as the
 * orders tables name them (stg_mkt__order_items).
 */
export async function orderUpdateEvents(ctx: LandContext): Promise<void> {
  const connection = (await ctx.sql.runAndReadAll(`select id, organization_id, name, marketplace_id, seller_id from control.connections where id = $id`, { id: ctx.connection.id })).getRowObjectsJson()[0] as unknown as ConnectionContext | undefined;
  if (!connection) return;
  const params = { fileId: ctx.fileId, connectionId: connection.id, organizationId: connection.organization_id, context: JSON.stringify(summaryContext(connection)) };
  const subscribed = await ctx.sql.runAndReadAll(
    `select 1 from control.webhook_subscriptions s where s.organization_id = $organizationId and s.deleted_at is null and s.disabled_at is null
       and list_contains(from_json(s.message_types, '["VARCHAR"]'), 'MKT_ORDER_UPDATE') limit 1`,
    { organizationId: connection.organization_id },
  );
  if (subscribed.currentRowCount === 0) return; // nobody receives them: the comparison is skipped
  await appendEvents(
    ctx.sql,
    `with touched as (
       select distinct amazon_order_id from ${raw} where _file_id = $fileId
     ),
     versions as (
       select o._file_id, o.amazon_order_id,
              max(o.last_updated_date) as updated_at, max(o._landed_at) as landed_at,
              max(o.purchase_date) as purchased_at,
              case
                when max(o.order_status) in ('Cancelled', 'Canceled') then 'Canceled'
                when max(o.order_status) in ('Shipped', 'Complete') then 'Shipped'
                when max(o.order_status) like 'Pending%' then 'Pending'
                when max(o.order_status) in ('Unshipped', 'PartiallyShipped', 'Shipping') then 'Unshipped'
                else max(o.order_status)
              end as status,
              case max(o.fulfillment_channel) when 'Amazon' then 'AFN' when 'AFN' then 'AFN' when 'Merchant' then 'MFN' when 'MFN' then 'MFN' end as channel,
              list({ 'sku': o.sku, 'childAsin': o.asin, 'quantity': o.quantity, 'itemPriceValue': o.item_price } order by o.sku, o._line_number) as items
       from ${raw} o join touched using (amazon_order_id)
       where o._connection_id = $connectionId
       group by o._file_id, o.amazon_order_id
     ),
     ranked as (
       select *,
              row_number() over (partition by amazon_order_id order by updated_at desc nulls last, landed_at desc, _file_id = $fileId desc) as now_rank,
              row_number() over (partition by amazon_order_id, _file_id = $fileId order by updated_at desc nulls last, landed_at desc) as before_rank
       from versions
     ),
     changed as (
       select n.*
       from ranked n left join ranked b on b.amazon_order_id = n.amazon_order_id and b._file_id <> $fileId and b.before_rank = 1
       where n.now_rank = 1 and n._file_id = $fileId
         and (b._file_id is null or to_json({ 's': n.status, 'c': n.channel, 'i': n.items }) <> to_json({ 's': b.status, 'c': b.channel, 'i': b.items }))
     ),
     file_rows as (
       select amazon_order_id, list(to_json(r) order by sku) as raw_rows
       from (select * exclude (${lineage}) from ${raw} where _file_id = $fileId) r
       group by amazon_order_id
     )
     select $organizationId as organization_id, $connectionId as connection_id, 'MKT_ORDER_UPDATE' as message_type,
            c.amazon_order_id as ordering_key, null as dedupe_key,
            json_object(
              'messageType', 'MKT_ORDER_UPDATE',
              -- json_merge_patch drops the optional fields that are null
              'summary', json_merge_patch($context::json, json_object(
                'mktOrderId', c.amazon_order_id,
                'orderPurchasedAtUtc', strftime(c.purchased_at at time zone 'UTC', '%Y-%m-%dT%H:%M:%SZ'),
                'mktOrderStatus', c.status,
                'fulfillmentChannel', c.channel,
                'orderItems', to_json(c.items))),
              'details', json_object('raw', to_json(f.raw_rows)),
              'occurredAt', strftime(coalesce(c.updated_at, c.purchased_at, c.landed_at) at time zone 'UTC', '%Y-%m-%dT%H:%M:%SZ')
            )::varchar as body,
            coalesce(c.updated_at, c.purchased_at, c.landed_at) as occurred_at
     from changed c join file_rows f using (amazon_order_id)`,
    params,
    new Date(ctx.landedAt),
  );
}
