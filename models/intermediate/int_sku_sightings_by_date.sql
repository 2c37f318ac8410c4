-- Each SKU's latest child ASIN and product name of each marketplace-local purchase date, each from the day's latest
-- order line that has one: one row per connection, SKU and date, from which the SKUs' lookup takes the latest.
with order_items as (
    select connection_id, sku, asin, product_name, purchased_at
    from staging.stg_mkt__order_items
    where connection_id in $connection_ids
        -- A day either side of the local window: a plain column bound lets a window skip row groups by their statistics.
        and purchased_at >= $from::date - interval 1 day and purchased_at < $to::date + interval 2 day
        and (asin is not null or product_name is not null)
)

select
    connection_id,
    sku,
    timezone($timezone, purchased_at)::date as date,
    arg_max(asin, purchased_at) filter (where asin is not null) as asin,
    max(purchased_at) filter (where asin is not null) as asin_seen_at,
    arg_max(product_name, purchased_at) filter (where product_name is not null) as product_name,
    max(purchased_at) filter (where product_name is not null) as product_name_seen_at,
from order_items
group by connection_id, sku, date
