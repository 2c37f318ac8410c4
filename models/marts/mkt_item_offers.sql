-- Competitive offers of the items a seller watches: one row per connection, ASIN and item condition.
with offers as (
    select * from staging.stg_mkt__item_offers
),

contexts as (
    select * from intermediate.int_connections_described
),

-- The seller's SKUs per ASIN from the current listings report and the listings items.
listed_skus as (
    select connection_id, asin, sku from staging.stg_mkt__listings where asin is not null
    union
    select connection_id, asin, sku from staging.stg_mkt__listings_items where asin is not null
),

-- A response without SellerSKU takes the seller's SKU of the ASIN only when there is exactly one.
only_skus as (
    select connection_id, asin, any_value(sku) as listed_sku
    from listed_skus
    group by all
    having count(distinct sku) = 1
),

final as (
    select
        common_columns.*,
        offers.asin,
        offers.item_condition,
        offers.status,
        coalesce(offers.sku, only_skus.listed_sku) as sku,
        offers.summary,
        offers.offers,
        timezone('UTC', offers.last_seen_at) as last_seen_at,
    from offers
    join contexts using (connection_id)
    left join only_skus using (connection_id, asin)
)

select * from final
