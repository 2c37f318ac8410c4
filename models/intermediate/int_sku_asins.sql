-- The child ASIN and product name of each SKU, as last seen: one row per connection and SKU.
-- Each source's latest sighting of a SKU first (a time is cheaper to compare than a row of two), then the preferred
-- source's: every time here is required by its source, never null.
with sightings as (
    select connection_id, sku, arg_max(asin, asin_seen_at) as asin, max(asin_seen_at) as seen_at, 1 as preference
    from intermediate.int_sku_sightings_by_date where asin is not null group by all
    union all
    select connection_id, sku, arg_max(asin, returned_at), max(returned_at), 2
    from staging.stg_mkt__returns where asin is not null group by all
    union all
    select connection_id, advertised_sku, arg_max(advertised_asin, date), max(date)::timestamptz, 3
    from staging.stg_ads__sp_advertised_product where advertised_asin is not null group by all
    union all
    select connection_id, promoted_sku, arg_max(promoted_asin, date), max(date)::timestamptz, 3
    from staging.stg_ads__sd_advertised_product where promoted_asin is not null group by all
    union all
    select connection_id, sku, arg_max(asin, from_date), max(from_date)::timestamptz, 4
    from control.cogs where asin is not null and asin <> '' group by all
),

latest as (
    select connection_id, sku, arg_max(asin, (-preference, seen_at)) as asin,
    from sightings
    group by all
),

product_names as (
    select connection_id, sku, arg_max(product_name, product_name_seen_at) as product_name
    from intermediate.int_sku_sightings_by_date
    where product_name is not null
    group by all
)

select latest.*, product_names.product_name
from latest
left join product_names using (connection_id, sku)
