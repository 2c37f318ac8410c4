-- AWD replenishment orders (awd.listReplenishmentOrders), latest version of each: one row per connection and order id.
with latest as (
    select * from latest_version('raw.awd_list_replenishment_orders', row(order_id))
),

renamed as (
    select
        connection_id,
        marketplace_id,
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
