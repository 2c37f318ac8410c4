-- AWD inbound shipments with the seller and marketplace context: one row per connection and shipment id; date is the marketplace-local creation date.
with shipments as (
    select * from staging.stg_mkt__awd_inbound_shipments
),

contexts as (
    select * from intermediate.int_connections_described
),

final as (
    select
        common_columns.*,
        shipments.shipment_id as awd_inbound_shipment_id,
        shipments.order_id as awd_inbound_order_id,
        shipments.external_reference_id,
        shipments.shipment_status as awd_inbound_shipment_status,
        shipments.carrier_code_type,
        shipments.carrier_code_value,
        shipments.tracking_id as awd_inbound_shipment_tracking_id,
        timezone('UTC', shipments.ship_by) as ship_by,
        shipments.destination_region,
        shipments.warehouse_reference_id,
        shipments.shipment_container_quantities,
        shipments.received_quantity,
        -- The addresses' columns, in the staging model's order (destination, then origin).
        columns('^(destination|origin)_address_'),
        timezone('UTC', shipments.created_at) as created_at,
        timezone('UTC', shipments.updated_at) as updated_at,
        timezone('UTC', shipments.last_seen_at) as last_seen_at,
        -- createdAt is optional upstream: a shipment without it is dated by its first landing.
        timezone(contexts.timezone, coalesce(shipments.created_at, shipments.first_seen_at))::date as date,
    from shipments
    join contexts using (connection_id)
)

select * from final
