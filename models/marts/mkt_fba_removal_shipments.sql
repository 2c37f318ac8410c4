-- FBA removal shipment lines: one row per connection, removal order, SKU, FNSKU, disposition, carrier, tracking number and local shipment date.
with removal_shipments as (
    select * from staging.stg_mkt__fba_removal_shipments
    where connection_id = $connection_id
),

contexts as (
    select * from intermediate.int_connections_described
    where connection_id = $connection_id
),

localized as (
    select
        removal_shipments.*,
        contexts.* exclude (connection_id, marketplace_id, currency),
        timezone($timezone, removal_shipments.shipped_at)::date as local_date,
    from removal_shipments
    join contexts using (connection_id)
    where local_date between $from::date and $to::date
),

-- Re-pulled reports repeat a line: the latest file that holds it wins; lines repeated within that file are packages, so they add up.
latest_file as (
    select *
    from localized
    qualify dense_rank() over (
        partition by removal_order_id, sku, fnsku, disposition, carrier, tracking_number, local_date
        order by landed_at desc, file_id desc
    ) = 1
),

final as (
    select
        marketplace_id,
        marketplace_country_code,
        marketplace_country_name,
        seller_or_vendor_id,
        seller_or_vendor_name,
        marketplace_seller_id,
        local_date as date,
        min(timezone($timezone, requested_at)::date) as request_date,
        removal_order_id as fba_removal_order_id,
        sku,
        fnsku,
        disposition,
        sum(shipped_quantity) as shipped_quantity,
        carrier,
        tracking_number,
        any_value(removal_order_type) as fba_removal_order_type,
    from latest_file
    group by all
)

select * from final
