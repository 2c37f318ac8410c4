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
        shipments.destination_address_name,
        shipments.destination_address_address_line1,
        shipments.destination_address_address_line2,
        shipments.destination_address_address_line3,
        shipments.destination_address_city,
        shipments.destination_address_county,
        shipments.destination_address_district,
        shipments.destination_address_state_or_region,
        shipments.destination_address_postal_code,
        shipments.destination_address_country_code,
        shipments.destination_address_phone_number,
        shipments.origin_address_name,
        shipments.origin_address_address_line1,
        shipments.origin_address_address_line2,
        shipments.origin_address_address_line3,
        shipments.origin_address_city,
        shipments.origin_address_county,
        shipments.origin_address_district,
        shipments.origin_address_state_or_region,
        shipments.origin_address_postal_code,
        shipments.origin_address_country_code,
        shipments.origin_address_phone_number,
        timezone('UTC', shipments.created_at) as awd_outbound_shipment_created_at_utc,
        timezone('UTC', shipments.updated_at) as awd_outbound_shipment_updated_at_utc,
        -- createdAt is optional upstream: a shipment without it is dated by its first landing.
        timezone(contexts.timezone, coalesce(shipments.created_at, shipments.first_seen_at))::date as date,
    from shipments
    join contexts using (connection_id)
)

select * from final
