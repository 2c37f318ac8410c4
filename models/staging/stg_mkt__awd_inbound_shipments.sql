-- AWD inbound shipments (awd.getInboundShipment), latest version of each: one row per connection and shipment id.
with latest as (
    select
        *,
        carrier_code::json as carrier,
        awd_address(destination_address::json) as destination,
        awd_address(origin_address::json) as origin,
    from latest_version('raw.awd_get_inbound_shipment', row(shipment_id))
),

renamed as (
    select
        connection_id,
        marketplace_id,
        shipment_id,
        order_id,
        external_reference_id,
        shipment_status,
        carrier ->> 'carrierCodeType' as carrier_code_type,
        carrier ->> 'carrierCodeValue' as carrier_code_value,
        tracking_id,
        ship_by,
        destination_region,
        warehouse_reference_id,
        shipment_container_quantities::json as shipment_container_quantities,
        list_transform(received_quantity::json::json[], lambda q: awd_quantity(q))::json as received_quantity,
        columns(destination.*) as 'destination_address_\0',
        columns(origin.*) as 'origin_address_\0',
        created_at,
        updated_at,
        first_seen_at,
        last_seen_at,
        _file_id as file_id,
        _line_number as line_number,
    from latest
)

select * from renamed
