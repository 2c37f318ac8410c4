-- AWD replenishment orders (AWD to FBA) with the seller and marketplace context: one row per connection and order id; date is the marketplace-local creation date.
with orders as (
    select * from staging.stg_mkt__awd_replenishment_orders
),

contexts as (
    select * from intermediate.int_connections_described
),

final as (
    select
        common_columns.*,
        orders.order_id as awd_replenishment_order_id,
        orders.status as awd_replenishment_order_status,
        timezone('UTC', orders.confirmed_on) as confirmed_on,
        timezone('UTC', orders.created_at) as created_at,
        timezone('UTC', orders.updated_at) as updated_at,
        orders.distribution_ineligible_reasons,
        orders.outbound_shipments,
        timezone('UTC', orders.last_seen_at) as last_seen_at,
        -- createdAt is optional upstream: an order without it is dated by its first landing.
        timezone(contexts.timezone, coalesce(orders.created_at, orders.first_seen_at))::date as date,
    from orders
    join contexts using (connection_id)
)

select * from final
