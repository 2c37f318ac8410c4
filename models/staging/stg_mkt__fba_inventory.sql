-- FBA inventory summaries (fbaInventory.getInventorySummaries), latest sighting of each SKU: one row per connection and SKU.
with landed as (
    select * from raw.fba_inventory_get_inventory_summaries
),

-- A snapshot arrives in pages (one file each) and `startDateTime` pulls only changed SKUs, so each SKU keeps
-- its latest landed summary rather than the latest file winning.
latest as (
    select *
    from landed
    qualify row_number() over (partition by _connection_id, seller_sku order by _landed_at desc, _line_number desc) = 1
),

renamed as (
    select
        _connection_id as connection_id,
        _marketplace_id as marketplace_id,
        seller_sku as sku,
        nullif(asin, '') as asin,
        nullif(fn_sku, '') as fnsku,
        condition,
        product_name,
        last_updated_time as last_updated_at,
        total_quantity,
        fulfillable_quantity,
        inbound_working_quantity,
        inbound_shipped_quantity,
        inbound_receiving_quantity,
        total_reserved_quantity,
        pending_customer_order_quantity,
        pending_transshipment_quantity,
        fc_processing_quantity,
        total_researching_quantity,
        total_unfulfillable_quantity,
        reserved_future_supply_quantity,
        future_supply_buyable_quantity,
        _landed_at as landed_at,
        _file_id as file_id,
        _line_number as line_number,
    from latest
)

select * from renamed
