-- FBA removal order lines: one row per connection, removal order, SKU, FNSKU and disposition; dates are marketplace-local.
with removal_orders as (
    select * from staging.stg_mkt__fba_removal_orders
    where connection_id in $connection_ids
),

-- A line is dated by the request date of its removal order, which does not change as the order progresses.
localized as (
    select * from localize(removal_orders, requested_at, $timezone, $from, $to)
),

final as (
    select
        common_columns.*,
        local_date as date,
        local_date as request_date,
        removal_order_id as fba_removal_order_id,
        sku,
        fnsku,
        disposition,
        timezone($timezone, updated_at)::date as last_updated_date,
        order_source as fba_removal_order_source,
        order_type as fba_removal_order_type,
        service_speed,
        order_status as fba_removal_order_status,
        requested_quantity,
        cancelled_quantity,
        disposed_quantity,
        shipped_quantity,
        in_process_quantity,
        removal_fee,
        currency,
    from localized
)

select * from final
