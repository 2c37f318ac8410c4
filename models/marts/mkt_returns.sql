-- FBA customer returns with unit costs on the return date: one row per connection and return line; date is marketplace-local.
with returns as (
    select * from staging.stg_mkt__returns
    where connection_id in $connection_ids
),

contexts as (
    select * from intermediate.int_connections_described
    where connection_id in $connection_ids
),

-- Keyed by connection: a statement builds several connections, and an order id is only unique within one.
order_dates as (
    select items.seller_or_vendor_id as connection_id, items.mkt_order_id as order_id, min(items.date) as order_date
    from marts.mkt_order_items_with_cogs as items
    -- Only the orders looked up, each in its own connection: grouping every order of the connections costs more than this filter.
    semi join returns
        on returns.connection_id = items.seller_or_vendor_id
        and returns.order_id = items.mkt_order_id
    where items.seller_or_vendor_id in $connection_ids
    group by all
),

localized as (
    select
        returns.*,
        contexts.* exclude (connection_id, marketplace_id),
        timezone($timezone, returns.returned_at)::date as local_date,
        order_dates.order_date,
        md5(concat_ws('|', returns.order_id, returns.sku, returns.returned_at, coalesce(returns.license_plate_number, ''), coalesce(returns.fnsku, ''))) as return_id,
    from returns
    join contexts using (connection_id)
    left join order_dates using (connection_id, order_id)
    where local_date between $from::date and $to::date
),

-- PROFIT.md "Unit cost": the returned quantity, costed on the return date.
costed as (
    select
        localized.*,
        costs.cost_item_value,
        costs.cost_item_shipping_value,
        costs.cost_currency,
        costs.item_supplier_name,
    from localized
    left join intermediate.int_unit_costs as costs
        on costs.connection_id = localized.connection_id
        and costs.sku_key = localized.sku
        and costs.asin_key = coalesce(localized.asin, '')
        and localized.local_date between costs.valid_from and costs.valid_to
),

final as (
    select
        common_columns.*,
        local_date as date,
        timezone('UTC', returned_at) as returned_at_utc,
        return_id,
        order_id as mkt_order_id,
        order_date,
        sku,
        asin as child_asin,
        fnsku,
        product_name,
        quantity,
        fulfillment_center_id,
        detailed_disposition,
        reason,
        status,
        license_plate_number,
        customer_comments,
        cost_item_value * quantity as cogs_item_value,
        cost_item_shipping_value * quantity as cogs_shipping_value,
        (cost_item_value + cost_item_shipping_value) * quantity as cogs_total_value,
        cost_item_value is not null as cogs_present,
        cost_currency as cogs_currency,
        item_supplier_name,
    from costed
)

select * from final
