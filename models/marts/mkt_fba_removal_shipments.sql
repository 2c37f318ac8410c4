-- FBA removal shipment lines: one row per connection, removal order, SKU, FNSKU, disposition, carrier, tracking number and local shipment date.
with removal_shipments as (
    select * from staging.stg_mkt__fba_removal_shipments
    where connection_id in $connection_ids
),

localized as (
    select * from localize(removal_shipments, shipped_at, $timezone, $from, $to)
),

-- Re-pulled reports repeat a line: the latest file that holds it wins; lines repeated within that file are packages, so they add up.
-- A statement holds several connections: a line is a connection's own, so its latest file is chosen among that connection's.
latest_file as (
    select *
    from localized
    qualify dense_rank() over (
        partition by connection_id, removal_order_id, sku, fnsku, disposition, carrier, tracking_number, local_date
        order by landed_at desc, file_id desc
    ) = 1
),

final as (
    select
        common_columns.*,
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
    -- seller_or_vendor_id is the connection (one row each in contexts): grouping by it keeps connections apart.
    group by all
)

select * from final
