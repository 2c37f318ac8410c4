-- AWD inventory (awd.listInventory), latest reported summary of each SKU: one row per connection and SKU.
with landed as (
    select * from raw.awd_list_inventory
),

-- The latest landed row of a SKU wins: pages of one snapshot land as separate files.
latest as (
    select
        *,
        inventory_details::json as details,
        expiration_details::json::json[] as expirations,
        list_min(list_transform(expirations, lambda e: (e ->> 'expiration')::timestamptz)) as next_expiration_at,
    from landed
    qualify row_number() over (partition by _connection_id, sku order by _landed_at desc, _line_number desc) = 1
),

renamed as (
    select
        _connection_id as connection_id,
        _marketplace_id as marketplace_id,
        sku,
        total_onhand_quantity::decimal(18, 4) as total_onhand_quantity,
        total_inbound_quantity::decimal(18, 4) as total_inbound_quantity,
        (details ->> 'availableDistributableQuantity')::decimal(18, 4) as available_distributable_quantity,
        (details ->> 'reservedDistributableQuantity')::decimal(18, 4) as reserved_distributable_quantity,
        (details ->> 'reservedDistributableQuantity')::decimal(18, 4) as reserved_quantity,
        (details ->> 'replenishmentQuantity')::decimal(18, 4) as replenishment_quantity,
        next_expiration_at,
        list_sum(list_transform(
            list_filter(expirations, lambda e: (e ->> 'expiration')::timestamptz = next_expiration_at),
            lambda e: (e ->> 'onhandQuantity')::decimal(18, 4)
        )) as next_expiration_quantity,
        expiration_details::json as expirations,
        _landed_at as last_seen_at,
        _file_id as file_id,
        _line_number as line_number,
    from latest
)

select * from renamed
