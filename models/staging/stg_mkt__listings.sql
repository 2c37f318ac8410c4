-- Listings of the latest All Listings report of each connection: one row per connection and SKU.
-- Each report is a full snapshot: a listing deleted upstream leaves the table.
with snapshot as (
    select * from latest_snapshot('raw.get_merchant_listings_all_data', 'GET_MERCHANT_LISTINGS_ALL_DATA', seller_sku)
),

renamed as (
    select
        _connection_id as connection_id,
        _marketplace_id as marketplace_id,
        trim(seller_sku) as sku,
        nullif(trim(listing_id), '') as listing_id,
        nullif(trim(asin1), '') as asin,
        nullif(trim(item_name), '') as listing_name,
        -- item-condition is a numeric code in the report (upstream-formats f1); names as Seller Central shows them.
        case trim(item_condition)
            when '1' then 'Used - Like New' when '2' then 'Used - Very Good' when '3' then 'Used - Good'
            when '4' then 'Used - Acceptable' when '5' then 'Collectible - Like New' when '6' then 'Collectible - Very Good'
            when '7' then 'Collectible - Good' when '8' then 'Collectible - Acceptable' when '9' then 'Club'
            when '10' then 'Refurbished' when '11' then 'New'
            else nullif(trim(item_condition), '')
        end as listing_condition,
        price,
        quantity,
        pending_quantity,
        open_date as opened_at,
        nullif(trim(fulfillment_channel), '') as fulfillment_channel,
        nullif(trim(status), '') as status,
        nullif(trim(product_id), '') as product_id,
        nullif(trim(product_id_type), '') as product_id_type,
        nullif(trim(merchant_shipping_group), '') as merchant_shipping_group,
        _landed_at as landed_at,
        _file_id as file_id,
        _line_number as line_number,
    from snapshot
)

select * from renamed
