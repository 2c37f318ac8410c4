-- AWD inbound shipments (awd.getInboundShipment), latest version of each: one row per connection and shipment id.
with latest as (
    select
        *,
        carrier_code::json as carrier,
        destination_address::json as destination,
        origin_address::json as origin,
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
        -- The sandbox writes CASE where the enum says CASES: units are named as the enum names them.
        list_transform(received_quantity::json::json[], lambda q: json_merge_patch(q, json_object('unitOfMeasurement',
            case q ->> 'unitOfMeasurement' when 'CASE' then 'CASES' when 'PALLET' then 'PALLETS' when 'PRODUCT_UNIT' then 'PRODUCT_UNITS'
            else q ->> 'unitOfMeasurement' end)))::json as received_quantity,
        destination ->> 'name' as destination_address_name,
        destination ->> 'addressLine1' as destination_address_address_line1,
        destination ->> 'addressLine2' as destination_address_address_line2,
        destination ->> 'addressLine3' as destination_address_address_line3,
        destination ->> 'city' as destination_address_city,
        destination ->> 'county' as destination_address_county,
        destination ->> 'district' as destination_address_district,
        destination ->> 'stateOrRegion' as destination_address_state_or_region,
        destination ->> 'postalCode' as destination_address_postal_code,
        destination ->> 'countryCode' as destination_address_country_code,
        destination ->> 'phoneNumber' as destination_address_phone_number,
        origin ->> 'name' as origin_address_name,
        origin ->> 'addressLine1' as origin_address_address_line1,
        origin ->> 'addressLine2' as origin_address_address_line2,
        origin ->> 'addressLine3' as origin_address_address_line3,
        origin ->> 'city' as origin_address_city,
        origin ->> 'county' as origin_address_county,
        origin ->> 'district' as origin_address_district,
        origin ->> 'stateOrRegion' as origin_address_state_or_region,
        origin ->> 'postalCode' as origin_address_postal_code,
        origin ->> 'countryCode' as origin_address_country_code,
        origin ->> 'phoneNumber' as origin_address_phone_number,
        created_at,
        updated_at,
        first_seen_at,
        last_seen_at,
        _file_id as file_id,
        _line_number as line_number,
    from latest
)

select * from renamed
