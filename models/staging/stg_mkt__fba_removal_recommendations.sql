-- Recommended removal lines as landed, every snapshot: one row per raw line (the mart keeps the latest file per local snapshot date).
with landed as (
    select * from raw.get_fba_recommended_removal_data
),

renamed as (
    select
        _connection_id as connection_id,
        _marketplace_id as marketplace_id,
        snapshot_date as snapshot_at,
        sku,
        fnsku,
        asin,
        coalesce(product_name, '') as product_name,
        nullif(condition, '') as condition,
        sellable_quantity,
        sellable_121_180_days,
        sellable_181_270_days,
        sellable_271_365_days,
        sellable_365_plus_days,
        sellable_removal_quantity,
        unsellable_quantity,
        unsellable_0_7_days,
        unsellable_8_60_days,
        unsellable_61_90_days,
        _landed_at as landed_at,
        _file_id as file_id,
        _line_number as line_number,
    from landed
)

select * from renamed
