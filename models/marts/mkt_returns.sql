-- FBA customer returns with unit costs on the return date: one row per connection and return line; date is marketplace-local.
with returns as (
    select * from staging.stg_mkt__returns
    where connection_id = $connection_id
),

contexts as (
    select * from intermediate.int_connections_described
    where connection_id = $connection_id
),

order_dates as (
    select mkt_order_id as order_id, min(date) as order_date
    from marts.mkt_order_items_with_cogs
    where seller_or_vendor_id = $connection_id
        -- Only the orders looked up: grouping every order of the connection costs more than this filter.
        and mkt_order_id in (select order_id from returns)
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
    left join order_dates using (order_id)
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
        marketplace_id,
        marketplace_country_code,
        marketplace_country_name,
        seller_or_vendor_id,
        seller_or_vendor_name,
        marketplace_seller_id,
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
