-- Removal order lines, latest version of each: one row per connection, removal order, SKU, FNSKU and disposition.
with landed as (
    select * from raw.get_fba_fulfillment_removal_order_detail_data
),

-- Status and quantities of a line change until the order completes: the latest last-updated-date wins, then the latest file.
latest as (
    select *
    from landed
    qualify row_number() over (
        partition by _connection_id, order_id, sku, fnsku, coalesce(disposition, '')
        order by last_updated_date desc nulls last, _landed_at desc, _line_number desc
    ) = 1
),

renamed as (
    select
        _connection_id as connection_id,
        _marketplace_id as marketplace_id,
        request_date as requested_at,
        order_id as removal_order_id,
        sku,
        fnsku,
        nullif(disposition, '') as disposition,
        last_updated_date as updated_at,
        nullif(order_source, '') as order_source,
        nullif(order_type, '') as order_type,
        nullif(service_speed, '') as service_speed,
        nullif(order_status, '') as order_status,
        requested_quantity,
        cancelled_quantity,
        disposed_quantity,
        shipped_quantity,
        in_process_quantity,
        removal_fee,
        nullif(currency, '') as currency,
        _file_id as file_id,
        _line_number as line_number,
    from latest
)

select * from renamed
