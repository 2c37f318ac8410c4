-- AWD outbound orders (awd.listOutbounds), latest version of each: one row per connection and order id.
with latest as (
    select * from latest_version('raw.awd_list_outbounds', row(order_id))
),

renamed as (
    select
        connection_id,
        marketplace_id,
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
