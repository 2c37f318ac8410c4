-- Unit costs valid today in each connection's marketplace timezone, with the latest row's supplier: one row per connection, SKU key and ASIN key.
with periods as (
    select * from intermediate.int_unit_costs
),

contexts as (
    select * from intermediate.int_connections_described
),

-- Today is the marketplace-local date of the build.
dated as (
    select periods.*, timezone(contexts.timezone, current_timestamp)::date as today,
    from periods
    join contexts using (connection_id)
),

-- item_current_supplier_name is not date-effective: it comes from the key's latest fromDate, even a future one.
keys as (
    select
        connection_id,
        sku_key,
        asin_key,
        arg_max_null(item_supplier_name, valid_from) as item_current_supplier_name,
        max(valid_from) filter (where valid_from <= today) as current_from,
    from dated
    group by all
),

current as (
    select
        keys.connection_id,
        keys.sku_key,
        keys.asin_key,
        dated.cost_item_value,
        dated.cost_item_shipping_value,
        dated.cost_currency,
        keys.item_current_supplier_name,
    from keys
    left join dated
        on dated.connection_id = keys.connection_id
        and dated.sku_key = keys.sku_key
        and dated.asin_key = keys.asin_key
        and dated.valid_from = keys.current_from
)

select * from current
