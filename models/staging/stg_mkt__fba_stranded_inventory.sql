-- Stranded inventory of each connection's latest report: one row per connection, SKU and FNSKU.
-- The latest report is the whole current state, even when it is empty (nothing stranded any more).
with latest as (
    select * from latest_snapshot('raw.get_stranded_inventory_ui_data', 'GET_STRANDED_INVENTORY_UI_DATA', row(sku, fnsku))
),

renamed as (
    select
        _connection_id as connection_id,
        _marketplace_id as marketplace_id,
        sku,
        fnsku,
        asin,
        nullif(primary_action, '') as primary_action,
        date_stranded as stranded_at,
        date_to_take_auto_removal as auto_removal_at,
        nullif(status_primary, '') as status_primary,
        nullif(status_secondary, '') as status_secondary,
        nullif(error_message, '') as error_message,
        nullif(stranded_reason, '') as stranded_reason,
        coalesce(product_name, '') as product_name,
        nullif(condition, '') as condition,
        nullif(fulfilled_by, '') as fulfilled_by,
        fulfillable_qty,
        your_price,
        unfulfillable_qty,
        reserved_quantity,
        inbound_shipped_qty,
        _landed_at as landed_at,
        _file_id as file_id,
        _line_number as line_number,
    from latest
)

select * from renamed
