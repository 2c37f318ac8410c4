-- AWD replenishment orders (awd.listReplenishmentOrders), latest version of each: one row per connection and order id.
with landed as (
    select * from raw.awd_list_replenishment_orders
),

-- The greatest updatedAt wins, then the latest landed file; the landings bound when the order was seen.
latest as (
    select
        *,
        min(_landed_at) over replenishment_order as first_seen_at,
        max(_landed_at) over replenishment_order as last_seen_at,
    from landed
    window replenishment_order as (partition by _connection_id, order_id)
    qualify row_number() over (partition by _connection_id, order_id order by updated_at desc nulls last, _landed_at desc, _line_number desc) = 1
),

renamed as (
    select
        _connection_id as connection_id,
        _marketplace_id as marketplace_id,
        order_id,
        status,
        confirmed_on,
        created_at,
        updated_at,
        distribution_ineligible_reasons::json as distribution_ineligible_reasons,
        outbound_shipments::json as outbound_shipments,
        eligible_products::json as eligible_products,
        products::json as products,
        shipped_products::json as shipped_products,
        first_seen_at,
        last_seen_at,
        _file_id as file_id,
        _line_number as line_number,
    from latest
)

select * from renamed
