-- The child ASIN and product name of each SKU, as last seen: one row per connection and SKU.
with sightings as (
    select connection_id, sku, asin, purchased_at as seen_at, 1 as preference from staging.stg_mkt__order_items where asin is not null
    union all
    select connection_id, sku, asin, returned_at, 2 from staging.stg_mkt__returns where asin is not null
    union all
    select connection_id, advertised_sku, advertised_asin, date::timestamptz, 3 from staging.stg_ads__sp_advertised_product where advertised_asin is not null
    union all
    select connection_id, promoted_sku, promoted_asin, date::timestamptz, 3 from staging.stg_ads__sd_advertised_product where promoted_asin is not null
    union all
    select connection_id, sku, asin, from_date::timestamptz, 4 from control.cogs where asin is not null and asin <> ''
),

latest as (
    select connection_id, sku, arg_max(asin, (-preference, seen_at)) as asin,
    from sightings
    group by all
),

product_names as (
    select connection_id, sku, arg_max(product_name, purchased_at) as product_name
    from staging.stg_mkt__order_items
    where product_name is not null
    group by all
)

select latest.*, product_names.product_name
from latest
left join product_names using (connection_id, sku)
