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

-- PROFIT.md "Unit cost", resolved once per distinct SKU, ASIN, currency and day, then joined back
-- (an OR in the join condition would turn the hash join into a nested loop).
item_days as (
    select distinct connection_id, sku, coalesce(asin, '') as asin_key, currency as currency, local_date as day
    from localized
    where sku is not null
),

item_day_costs as (
    select
        item_days.*,
        if(asin_matches, cogs.cost_item_value, null) as cost_item_value,
        if(asin_matches, cogs.cost_item_shipping_value, null) as cost_item_shipping_value,
        if(asin_matches, cogs.cost_currency, null) as cost_currency,
        if(asin_matches, cogs.item_supplier_name, null) as item_supplier_name,
    from item_days
    left join intermediate.int_cogs_periods as cogs
        on cogs.connection_id = item_days.connection_id
        and cogs.sku = item_days.sku
        and item_days.day between cogs.valid_from and cogs.valid_to
    cross join lateral (select item_days.asin_key = '' or cogs.asin = item_days.asin_key as asin_matches)
    qualify row_number() over (
        partition by item_days.sku, item_days.asin_key, item_days.currency, item_days.day
        order by asin_matches desc nulls last, cogs.valid_from desc nulls last, (cogs.cost_currency = item_days.currency) desc nulls last, cogs.asin
    ) = 1
),

costed as (
    select
        localized.*,
        item_day_costs.cost_item_value,
        item_day_costs.cost_item_shipping_value,
        item_day_costs.cost_currency,
        item_day_costs.item_supplier_name,
    from localized
    left join item_day_costs
        on item_day_costs.sku = localized.sku
        and item_day_costs.asin_key = coalesce(localized.asin, '')
        and item_day_costs.currency is not distinct from localized.currency
        and item_day_costs.day = localized.local_date
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
