-- Settlement events with amounts by category and unit costs: one row per connection and settlement event; date per docs/design/PROFIT.md.
with settlement_rows as not materialized (
    select * from staging.stg_mkt__settlement_rows
    where connection_id in $connection_ids
        -- An event's date is its posting date or its order's date, never after the posting: a window needs only
        -- rows posted from its first day on (a day earlier for the local date of a UTC timestamp).
        and posted_at >= $from::date - interval 1 day
),

contexts as (
    select * from intermediate.int_connections_described
    where connection_id in $connection_ids
),

-- The orders the rows name, as one list unnested: DuckDB then takes them for few and hashes them, probing the order
-- lines with them, instead of hashing every order line of the history (2.1 → 1.2 s a connection's next-day window on
-- four years). (settlement_rows is not materialized: read twice, it would be kept whole, every column of it.)
named_orders as materialized (
    select unnest(list(distinct {'connection_id': connection_id, 'order_id': order_id}), recursive := true)
    from settlement_rows
    where order_id is not null
),

-- Keyed by connection: a statement builds several connections, and an order id is only unique within one.
-- First among the order lines of the 92 days before the window, where nearly every order a settlement names is
-- (zone maps skip the older row groups); an order's lines share its purchase date, so an order found there has its
-- date. Then across the whole history, for the named orders not found there only: when there are none, as on most
-- days, the join reads no order line at all (its other side is empty), and the day's run does not grow with history.
recent_order_dates as (
    select o.seller_or_vendor_id as connection_id, o.mkt_order_id as order_id, min(o.date) as order_date
    from marts.mkt_order_items_with_cogs as o
    join named_orders as named on named.connection_id = o.seller_or_vendor_id and named.order_id = o.mkt_order_id
    where o.seller_or_vendor_id in $connection_ids and o.date >= $from::date - interval 92 day
    group by all
),

older_orders as (
    select * from named_orders
    anti join recent_order_dates using (connection_id, order_id)
),

order_dates as (
    select * from recent_order_dates
    union all
    select o.seller_or_vendor_id, o.mkt_order_id, min(o.date)
    from marts.mkt_order_items_with_cogs as o
    join older_orders as older on older.connection_id = o.seller_or_vendor_id and older.order_id = o.mkt_order_id
    where o.seller_or_vendor_id in $connection_ids
    group by all
),

-- docs/design/PROFIT.md: an event is the rows sharing these nine fields.
events as (
    select
        connection_id,
        settlement_id,
        transaction_type,
        order_id,
        adjustment_id,
        shipment_id,
        order_item_code,
        merchant_adjustment_item_id,
        sku,
        posted_at,
        any_value(merchant_order_id) as merchant_order_id,
        any_value(fulfillment_id) as fulfillment_id,
        any_value(currency) as currency,
        coalesce(max(quantity_purchased), 0) as quantity,
        -- An event takes the order date only when all its lines are order-dated (the map's date_basis).
        bool_and(date_basis = 'order') as order_dated,
        sum(amount) filter (where category = 'principal') as principal_amount,
        sum(amount) filter (where category = 'shipping') as shipping_amount,
        sum(amount) filter (where category = 'gift_wrap') as gift_wrap_amount,
        sum(amount) filter (where category = 'tax') as tax_amount,
        sum(amount) filter (where category = 'withheld_tax') as withheld_tax_amount,
        sum(amount) filter (where category = 'promotion_item') as promotion_item_amount,
        sum(amount) filter (where category = 'promotion_shipping') as promotion_shipping_amount,
        sum(amount) filter (where category = 'referral_fee') as referral_fee_amount,
        sum(amount) filter (where category = 'fba_fee') as fba_fee_amount,
        sum(amount) filter (where category = 'awd_fee') as awd_fee_amount,
        sum(amount) filter (where category = 'other_fee') as other_fee_amount,
        sum(amount) filter (where category = 'refund_principal') as refund_principal_amount,
        sum(amount) filter (where category = 'refund_shipping') as refund_shipping_amount,
        sum(amount) filter (where category = 'refund_tax') as refund_tax_amount,
        sum(amount) filter (where category = 'refund_referral_fee') as refund_referral_fee_amount,
        sum(amount) filter (where category = 'refund_commission') as refund_commission_amount,
        sum(amount) filter (where category = 'refund_shipping_promotion') as refund_shipping_promotion_amount,
        sum(amount) filter (where category = 'refund_digital_services_fee') as refund_digital_services_fee_amount,
        sum(amount) filter (where category = 'refund_other') as refund_other_amount,
        sum(amount) filter (where category = 'inventory_lost') as inventory_lost_amount,
        sum(amount) filter (where category = 'inventory_missing_inbound') as inventory_missing_inbound_amount,
        sum(amount) filter (where category = 'inventory_other') as inventory_other_amount,
        sum(amount) filter (where category = 'reserve') as reserve_amount,
        sum(amount) filter (where category = 'advertising') as advertising_amount,
        sum(amount) as total_amount,
        string_agg(distinct concat_ws(' / ', transaction_type, amount_type, amount_description), '; ') filter (where is_uncategorized) as uncategorized_descriptions,
    from settlement_rows
    group by all
),

dated as (
    select
        events.*,
        -- (Of the event, not of each of its rows: a third as many hashes.)
        md5(concat_ws('|', events.settlement_id, events.transaction_type, coalesce(events.order_id, ''), coalesce(events.adjustment_id, ''), coalesce(events.shipment_id, ''), coalesce(events.order_item_code, ''), coalesce(events.merchant_adjustment_item_id, ''), coalesce(events.sku, ''), events.posted_at)) as settlement_event_id,
        timezone($timezone, events.posted_at)::date as posted_date,
        if(events.order_dated and order_dates.order_date is not null, order_dates.order_date, timezone($timezone, events.posted_at)::date) as event_date,
        if(events.order_dated and order_dates.order_date is not null, 'order', 'posting') as date_basis,
        contexts.* exclude (connection_id, currency),
        contexts.currency as marketplace_currency,
        settlements.settlement_total_amount,
        sku_asins.asin,
    from events
    join contexts using (connection_id)
    -- Reading the reconciled settlements makes a settlement that does not add up stop this table.
    join staging.stg_mkt__settlements as settlements using (connection_id, settlement_id)
    left join order_dates using (connection_id, order_id)
    left join intermediate.int_sku_asins as sku_asins
        on sku_asins.connection_id = events.connection_id
        and sku_asins.sku = events.sku
    where event_date between $from::date and $to::date
),

-- docs/design/PROFIT.md "Unit cost", applied to the event's SKU and quantity on its date.
costed as (
    select * from unit_costed(dated, sku, coalesce(asin, ''), event_date, quantity)
),

final as (
    select
        common_columns.*,
        event_date as date,
        date_basis,
        posted_date,
        timezone('UTC', posted_at) as posted_at_utc,
        settlement_id,
        settlement_event_id,
        transaction_type,
        order_id as mkt_order_id,
        merchant_order_id,
        adjustment_id,
        shipment_id,
        order_item_code,
        merchant_adjustment_item_id,
        sku,
        asin as child_asin,
        fulfillment_id,
        quantity,
        coalesce(currency, marketplace_currency) as currency,
        coalesce(principal_amount, 0) as principal_amount,
        coalesce(shipping_amount, 0) as shipping_amount,
        coalesce(gift_wrap_amount, 0) as gift_wrap_amount,
        coalesce(tax_amount, 0) as tax_amount,
        coalesce(withheld_tax_amount, 0) as withheld_tax_amount,
        coalesce(promotion_item_amount, 0) as promotion_item_amount,
        coalesce(promotion_shipping_amount, 0) as promotion_shipping_amount,
        coalesce(referral_fee_amount, 0) as referral_fee_amount,
        coalesce(fba_fee_amount, 0) as fba_fee_amount,
        coalesce(awd_fee_amount, 0) as awd_fee_amount,
        coalesce(other_fee_amount, 0) as other_fee_amount,
        coalesce(refund_principal_amount, 0) as refund_principal_amount,
        coalesce(refund_shipping_amount, 0) as refund_shipping_amount,
        coalesce(refund_tax_amount, 0) as refund_tax_amount,
        coalesce(refund_referral_fee_amount, 0) as refund_referral_fee_amount,
        coalesce(refund_commission_amount, 0) as refund_commission_amount,
        coalesce(refund_shipping_promotion_amount, 0) as refund_shipping_promotion_amount,
        coalesce(refund_digital_services_fee_amount, 0) as refund_digital_services_fee_amount,
        coalesce(refund_other_amount, 0) as refund_other_amount,
        coalesce(inventory_lost_amount, 0) as inventory_lost_amount,
        coalesce(inventory_missing_inbound_amount, 0) as inventory_missing_inbound_amount,
        coalesce(inventory_other_amount, 0) as inventory_other_amount,
        coalesce(reserve_amount, 0) as reserve_amount,
        coalesce(advertising_amount, 0) as advertising_amount,
        total_amount,
        total_amount - coalesce(principal_amount, 0) - coalesce(refund_principal_amount, 0) as total_non_principal_amount,
        settlement_total_amount,
        uncategorized_descriptions,
        cogs_item_value,
        cogs_shipping_value,
        cogs_total_value,
        cogs_present,
        cogs_currency,
    from costed
)

select * from final
