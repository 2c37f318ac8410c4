-- Lines of the five lists of AWD replenishment orders, latest version of each: one row per connection, order id, list and position.
with landed as (
    select * from raw.awd_list_replenishment_orders
),

-- One row per order version and list; the list's upstream field name (snake_case) names the line's source.
lists as (
    unpivot (select _connection_id, _marketplace_id, order_id, updated_at, _landed_at, _file_id, _line_number,
        eligible_products, products, shipped_products, outbound_shipments, distribution_ineligible_reasons from landed)
    on eligible_products, products, shipped_products, outbound_shipments, distribution_ineligible_reasons
    into name line_item_source value items
),

lines as (
    select
        lists.* exclude (items),
        line.line_item_no,
        line.item,
    from lists, unnest(lists.items::json::json[]) with ordinality as line(item, line_item_no)
),

-- A line is kept by its list and position: the order version of the greatest updatedAt wins, then the latest landed file.
latest as (
    select * from latest_version(lines, row(order_id, line_item_source, line_item_no))
),

renamed as (
    select
        connection_id,
        marketplace_id,
        order_id,
        line_item_source,
        line_item_no,
        item ->> 'sku' as sku,
        (item ->> 'quantity')::decimal(18, 4) as quantity,
        item ->> 'shipmentId' as shipment_id,
        item ->> 'shipmentStatus' as shipment_status,
        item ->> 'failureCode' as failure_code,
        nullif(item -> 'failureReasons', 'null') as failure_reasons,
        nullif(item -> 'attributes', 'null') as attributes,
        updated_at as order_updated_at,
        last_seen_at,
        _file_id as file_id,
        _line_number as line_number,
    from latest
)

select * from renamed
