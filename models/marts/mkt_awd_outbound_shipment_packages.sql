-- Package configurations of AWD outbound orders and shipments with the seller and marketplace context: one row per connection, order, shipment, package list and position; date is marketplace-local.
with packages as (
    select * from intermediate.int_awd_outbound_packages_unioned
),

contexts as (
    select * from intermediate.int_connections_described
),

final as (
    select
        common_columns.*,
        packages.order_id as awd_outbound_order_id,
        packages.shipment_id as awd_outbound_shipment_id,
        packages.package_source,
        packages.line_item_no::decimal(18, 4) as line_item_no,
        packages.count,
        packages.package_type,
        packages.contents,
        packages.measurements,
        -- Filled by warehouse integrations only; the AWD API has no such field.
        null::json as line_item_data,
        timezone(contexts.timezone, packages.created_at)::date as date,
    from packages
    join contexts using (connection_id)
)

select * from final
