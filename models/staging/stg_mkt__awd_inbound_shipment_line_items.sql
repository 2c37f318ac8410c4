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
    select
        *,
        max(_landed_at) over (partition by _connection_id, shipment_id, line_item_no) as last_seen_at,
    from lines
    qualify row_number() over (
        partition by _connection_id, shipment_id, line_item_no
        order by updated_at desc nulls last, _landed_at desc, _line_number desc
    ) = 1
),

renamed as (
    select
        _connection_id as connection_id,
        _marketplace_id as marketplace_id,
        shipment_id,
        line_item_no,
        item ->> 'sku' as sku,
        -- The sandbox writes CASE where the enum says CASES: units are named as the enum names them.
        case when expected is not null then json_merge_patch(expected, json_object('unitOfMeasurement',
            case expected ->> 'unitOfMeasurement' when 'CASE' then 'CASES' when 'PALLET' then 'PALLETS'
            when 'PRODUCT_UNIT' then 'PRODUCT_UNITS' else expected ->> 'unitOfMeasurement' end)) end as expected_quantity,
        case when received is not null then json_merge_patch(received, json_object('unitOfMeasurement',
            case received ->> 'unitOfMeasurement' when 'CASE' then 'CASES' when 'PALLET' then 'PALLETS'
            when 'PRODUCT_UNIT' then 'PRODUCT_UNITS' else received ->> 'unitOfMeasurement' end)) end as received_quantity,
        last_seen_at,
        _file_id as file_id,
        _line_number as line_number,
    from latest
)

select * from renamed
