-- Competitive offers (productPricing.getItemOffers), latest response per item and condition: one row per connection, ASIN and condition.
with landed as (
    select * from raw.product_pricing_get_item_offers
),

latest as (
    select *
    from landed
    qualify row_number() over (partition by _connection_id, asin, item_condition order by _landed_at desc, _line_number desc) = 1
),

renamed as (
    select
        _connection_id as connection_id,
        _marketplace_id as marketplace_id,
        asin,
        item_condition,
        status,
        nullif(seller_sku, '') as sku,
        identifier::json as identifier,
        summary::json as summary,
        offers::json as offers,
        _landed_at as last_seen_at,
        _file_id as file_id,
        _line_number as line_number,
    from latest
)

select * from renamed
