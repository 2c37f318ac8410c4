-- SKU lines (shipmentSkuQuantities) of AWD inbound shipments, latest version of each: one row per connection, shipment id and line position.
with landed as (
    select * from raw.awd_get_inbound_shipment
),

lines as (
    select
        landed.*,
        line.line_item_no,
        line.item,
        nullif(line.item -> 'expectedQuantity', 'null') as expected,
        nullif(line.item -> 'receivedQuantity', 'null') as received,
    from landed, unnest(landed.shipment_sku_quantities::json::json[]) with ordinality as line(item, line_item_no)
),

-- A line is kept by its position: the version of the greatest shipment updatedAt wins, then the latest landed file.
latest as (
    select * from latest_version(lines, row(shipment_id, line_item_no))
),

renamed as (
    select
        connection_id,
        marketplace_id,
        shipment_id,
        line_item_no,
        item ->> 'sku' as sku,
        awd_quantity(expected) as expected_quantity,
        awd_quantity(received) as received_quantity,
        last_seen_at,
        _file_id as file_id,
        _line_number as line_number,
    from latest
)

select * from renamed
