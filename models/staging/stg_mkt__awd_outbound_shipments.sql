-- Shipments of AWD outbound orders (awd.listOutbounds outboundShipments), latest version of each: one row per connection and shipment id.
with landed as (
    select * from raw.awd_list_outbounds
),

shipments as (
    select
        landed.*,
        shipment.item,
        (shipment.item ->> 'updatedAt')::timestamptz as shipment_updated_at,
    from landed, unnest(landed.outbound_shipments::json::json[]) as shipment(item)
),

-- The greatest shipment updatedAt wins, then the greatest order updatedAt, then the latest landed file.
latest as (
    select
        *,
        item ->> 'shipmentId' as shipment_id,
        min(_landed_at) over shipment as first_seen_at,
        max(_landed_at) over shipment as last_seen_at,
        awd_address(item -> 'destinationAddress') as destination,
        awd_address(item -> 'originAddress') as origin,
    from shipments
    window shipment as (partition by _connection_id, item ->> 'shipmentId')
    qualify row_number() over (
        partition by _connection_id, item ->> 'shipmentId'
        order by shipment_updated_at desc nulls last, updated_at desc nulls last, _landed_at desc, _line_number desc
    ) = 1
),

renamed as (
    select
        _connection_id as connection_id,
        _marketplace_id as marketplace_id,
        shipment_id,
        -- A shipment names its order; the enclosing order is the fallback.
        coalesce(item ->> 'orderId', order_id) as order_id,
        item ->> 'shipmentStatus' as shipment_status,
        nullif(item -> 'shipmentProductQuantities', 'null') as shipment_product_quantities,
        nullif(item -> 'shipmentPackageQuantities', 'null') as shipment_package_quantities,
        columns(destination.*) as 'destination_address_\0',
        columns(origin.*) as 'origin_address_\0',
        (item ->> 'createdAt')::timestamptz as created_at,
        shipment_updated_at as updated_at,
        first_seen_at,
        last_seen_at,
        _file_id as file_id,
        _line_number as line_number,
    from latest
)

select * from renamed
