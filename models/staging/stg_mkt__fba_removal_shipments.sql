-- Removal shipment lines as landed, every version: one row per raw line (the mart picks the latest file per shipment line).
with landed as (
    select * from raw.get_fba_fulfillment_removal_shipment_detail_data
),

renamed as (
    select
        _connection_id as connection_id,
        _marketplace_id as marketplace_id,
        request_date as requested_at,
        order_id as removal_order_id,
        shipment_date as shipped_at,
        sku,
        fnsku,
        nullif(disposition, '') as disposition,
        shipped_quantity,
        nullif(carrier, '') as carrier,
        nullif(tracking_number, '') as tracking_number,
        nullif(removal_order_type, '') as removal_order_type,
        _landed_at as landed_at,
        _file_id as file_id,
        _line_number as line_number,
    from landed
)

select * from renamed
