-- Listings Items API payloads with the seller and marketplace context: one row per connection and SKU.
with items as (
    select * from staging.stg_mkt__listings_items
),

contexts as (
    select * from intermediate.int_connections_described
),

traffic_parents as (
    select * from intermediate.int_child_asin_parents
),

-- The parent ASIN is the ASIN of the VARIATION parent SKU's listing, else the parent the sales and traffic
-- report names, else the child itself (a listing outside any variation family is its own parent).
parented as (
    select
        items.*,
        coalesce(parent_listings.asin, traffic_parents.parent_asin, items.asin) as parent_asin,
    from items
    left join items as parent_listings
        on parent_listings.connection_id = items.connection_id
        and parent_listings.sku = items.parent_sku
    left join traffic_parents
        on traffic_parents.connection_id = items.connection_id
        and traffic_parents.child_asin = items.asin
),

final as (
    select
        common_columns.*,
        -- An item not yet matched to a catalog ASIN, or a summary not requested, leaves these empty.
        coalesce(parented.asin, '') as child_asin,
        coalesce(parented.parent_asin, '') as parent_asin,
        parented.sku,
        coalesce(parented.summary_product_type, parented.listed_product_type, '') as mkt_product_type,
        coalesce(parented.listed_product_type, parented.summary_product_type, '') as product_type,
        parented.summaries,
        parented.attributes,
        parented.classifications,
        parented.dimensions,
        parented.identifiers,
        parented.images,
        parented.sales_ranks,
        parented.offers,
        parented.fulfillment_availability,
        parented.issues,
        parented.relationships,
        parented.title_differentiation,
        timezone('UTC', parented.last_seen_at) as last_seen_at,
    from parented
    join contexts using (connection_id)
)

select * from final
