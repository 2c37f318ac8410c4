-- Package configurations of AWD outbound orders and their shipments: one row per connection, order, shipment, package list and position.
with orders as (
    select * from staging.stg_mkt__awd_outbound_orders
),

shipments as (
    select * from staging.stg_mkt__awd_outbound_shipments
),

-- The three order-level stages (eligible, requested, shipped), named by their upstream field in snake_case.
order_lists as (
    unpivot (
        select connection_id, order_id, coalesce(created_at, first_seen_at) as created_at,
            eligible_packages_to_outbound, packages_to_outbound, shipped_outbound_packages,
        from orders
    )
    on eligible_packages_to_outbound, packages_to_outbound, shipped_outbound_packages
    into name package_source value packages
),

-- Order-level lists belong to no shipment: spec document 002 names that shipment __EMPTY__.
lists as (
    select connection_id, order_id, '__EMPTY__' as shipment_id, package_source, created_at, packages from order_lists
    union all
    select connection_id, order_id, shipment_id, 'shipment_package_quantities', coalesce(created_at, first_seen_at), shipment_package_quantities
    from shipments
),

unnested as (
    select
        lists.* exclude (packages),
        line.line_item_no,
        line.item -> 'distributionPackage' as package,
        (line.item ->> 'count')::decimal(18, 4) as count,
    from lists, unnest(lists.packages::json[]) with ordinality as line(item, line_item_no)
),

renamed as (
    select
        connection_id,
        order_id,
        shipment_id,
        package_source,
        line_item_no,
        count,
        package ->> 'type' as package_type,
        nullif(package -> 'contents', 'null') as contents,
        nullif(package -> 'measurements', 'null') as measurements,
        -- Units of a CASE row: count cases of the listed products each (spec document 002); pallets nest packages instead.
        count * list_sum(list_transform((package -> 'contents' -> 'products')::json[], lambda p: (p ->> 'quantity')::decimal(18, 4))) as case_units,
        created_at,
    from unnested
)

select * from renamed
