-- AWD outbound orders (awd.listOutbounds), latest version of each: one row per connection and order id.
with landed as (
    select * from raw.awd_list_outbounds
),

-- The greatest updatedAt wins, then the latest landed file; the landings bound when the order was seen.
latest as (
    select
        *,
        min(_landed_at) over outbound_order as first_seen_at,
        max(_landed_at) over outbound_order as last_seen_at,
    from landed
    window outbound_order as (partition by _connection_id, order_id)
    qualify row_number() over (partition by _connection_id, order_id order by updated_at desc nulls last, _landed_at desc, _line_number desc) = 1
),

renamed as (
    select
        _connection_id as connection_id,
        _marketplace_id as marketplace_id,
        order_id,
        order_status,
        confirmed_on,
        created_at,
        updated_at,
        order_preferences::json as order_preferences,
        execution_errors::json as execution_errors,
        eligible_products_to_outbound::json as eligible_products_to_outbound,
        products_to_outbound::json as products_to_outbound,
        shipped_outbound_products::json as shipped_outbound_products,
        eligible_packages_to_outbound::json as eligible_packages_to_outbound,
        packages_to_outbound::json as packages_to_outbound,
        shipped_outbound_packages::json as shipped_outbound_packages,
        first_seen_at,
        last_seen_at,
        _file_id as file_id,
        _line_number as line_number,
    from latest
)

select * from renamed
