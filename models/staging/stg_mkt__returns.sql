-- FBA customer returns, latest version of each return line: one row per connection, order, SKU, return time and license plate.
-- Returns are re-pulled over look-back windows; status and disposition of a line may change in later files.
with latest as (
    select * from latest_landed('raw.get_fba_fulfillment_customer_returns_data', row(order_id, sku, return_date, coalesce(license_plate_number, ''), coalesce(fnsku, '')))
),

renamed as (
    select
        connection_id,
        marketplace_id,
        return_date as returned_at,
        order_id,
        sku,
        nullif(asin, '') as asin,
        fnsku,
        product_name,
        quantity,
        fulfillment_center_id,
        nullif(detailed_disposition, '') as detailed_disposition,
        reason,
        status,
        license_plate_number,
        customer_comments,
        _file_id as file_id,
        _line_number as line_number,
    from latest
)

select * from renamed
