-- FBA inbound shipment items as last seen, with their shipment: one row per connection, shipment and item of the latest file holding the shipment.
with landed as (
    select * from raw.fulfillment_inbound_shipments
),

-- A shipment and its items land together: the latest file holding a shipment is its current content, items removed since included.
shipments as (
    select *
    from landed
    where record_type = 'shipment'
    qualify row_number() over (partition by _connection_id, shipment_id order by _landed_at desc, _line_number desc) = 1
),

items as (
    select * from landed
    where record_type = 'item'
),

joined as (
    select
        shipments._connection_id as connection_id,
        shipments.inbound_plan_id,
        shipments.shipment_id,
        items.msku,
        items.fnsku,
        items.asin,
        items.quantity,
        items.expiration,
        items.label_owner,
        nullif(items.manufacturing_lot_code, '') as manufacturing_lot_code,
        items.prep_instructions::json as prep_instructions,
        nullif(shipments.shipment_name, '') as shipment_name,
        shipments.shipment_status,
        nullif(shipments.shipment_confirmation_id, '') as shipment_confirmation_id,
        nullif(shipments.amazon_reference_id, '') as amazon_reference_id,
        nullif(shipments.destination_warehouse_id, '') as destination_warehouse_id,
        nullif(shipments.destination_type, '') as destination_type,
        inbound_address(shipments.destination_address::json) as destination_address,
        inbound_address(shipments.source_address::json) as source_address,
        shipments.ready_to_ship_window_start,
        shipments.ready_to_ship_window_end,
        shipments.selected_delivery_window_start,
        shipments.selected_delivery_window_end,
        nullif(shipments.placement_option_id, '') as placement_option_id,
        shipments._landed_at as last_seen_at,
        items._file_id as file_id,
        items._line_number as line_number,
    from shipments
    join items using (_connection_id, _file_id, shipment_id)
),

-- The address parts of the catalog, named as in the API's Address object.
flattened as (
    select
        joined.* exclude (destination_address, source_address),
        columns(destination_address.*) as 'destination_address_\0',
        columns(source_address.*) as 'source_address_\0',
    from joined
)

select * from flattened
