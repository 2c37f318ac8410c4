-- AWD outbound shipments with the seller and marketplace context: one row per connection and shipment id; date is the marketplace-local creation date.
with shipments as (
    select * from staging.stg_mkt__awd_outbound_shipments
),

contexts as (
    select * from intermediate.int_connections_described
),

final as (
    select
        common_columns.*,
        shipments.shipment_id as awd_outbound_shipment_id,
        shipments.order_id as awd_outbound_order_id,
        shipments.shipment_status as awd_outbound_shipment_status,
        shipments.shipment_product_quantities,
        -- The addresses' columns, in the staging model's order (destination, then origin).
        columns('^(destination|origin)_address_'),
        timezone('UTC', shipments.created_at) as awd_outbound_shipment_created_at_utc,
        timezone('UTC', shipments.updated_at) as awd_outbound_shipment_updated_at_utc,
        -- createdAt is optional upstream: a shipment without it is dated by its first landing.
        timezone(contexts.timezone, coalesce(shipments.created_at, shipments.first_seen_at))::date as date,
    from shipments
    join contexts using (connection_id)
)

select * from final
