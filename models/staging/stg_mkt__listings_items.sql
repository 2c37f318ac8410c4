-- Listings items (listingsItems.searchListingsItems), latest sighting of each SKU: one row per connection and SKU.
with landed as (
    select * from raw.listings_items_search_listings_items
),

-- A search arrives in pages (one file each): each SKU keeps its latest landed item; last_seen_at tells its age.
latest as (
    select
        *,
        summaries::json as summaries_json,
        attributes::json as attributes_json,
        relationships::json as relationships_json,
        product_types::json as product_types_json,
    from landed
    qualify row_number() over (partition by _connection_id, sku order by _landed_at desc, _line_number desc) = 1
),

-- Per-marketplace entries of the connection's marketplace, else the first entry.
for_marketplace as (
    select
        *,
        coalesce(
            list_filter(json_extract(summaries_json, '$[*]'), lambda s: s ->> 'marketplaceId' = _marketplace_id)[1],
            summaries_json -> 0
        ) as summary,
        coalesce(
            list_filter(json_extract(product_types_json, '$[*]'), lambda p: p ->> 'marketplaceId' = _marketplace_id)[1],
            product_types_json -> 0
        ) ->> 'productType' as listed_product_type,
        coalesce(
            list_filter(json_extract(relationships_json, '$[*]'), lambda r: r ->> 'marketplaceId' = _marketplace_id)[1],
            relationships_json -> 0
        ) -> 'relationships' as variation_relationships,
        coalesce(
            list_filter(json_extract(attributes_json, '$.title_differentiation[*]'), lambda a: a ->> 'marketplace_id' = _marketplace_id)[1],
            attributes_json -> 'title_differentiation' -> 0
        ) ->> 'value' as title_differentiation,
    from latest
),

renamed as (
    select
        _connection_id as connection_id,
        _marketplace_id as marketplace_id,
        sku,
        nullif(summary ->> 'asin', '') as asin,
        nullif(summary ->> 'fnSku', '') as fnsku,
        summary ->> 'productType' as summary_product_type,
        listed_product_type,
        summary ->> 'itemName' as item_name,
        list_filter(json_extract_string(variation_relationships, '$[*].parentSkus[0]'), lambda p: p is not null)[1] as parent_sku,
        title_differentiation,
        summaries_json as summaries,
        attributes_json as attributes,
        classifications::json as classifications,
        dimensions::json as dimensions,
        identifiers::json as identifiers,
        images::json as images,
        sales_ranks::json as sales_ranks,
        offers::json as offers,
        fulfillment_availability::json as fulfillment_availability,
        issues::json as issues,
        relationships_json as relationships,
        _landed_at as last_seen_at,
        _file_id as file_id,
        _line_number as line_number,
    from for_marketplace
)

select * from renamed
