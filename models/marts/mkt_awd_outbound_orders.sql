-- AWD outbound orders with the seller and marketplace context: one row per connection and order id; date is the marketplace-local creation date.
with orders as (
    select * from staging.stg_mkt__awd_outbound_orders
),

contexts as (
    select * from intermediate.int_connections_described
),

final as (
    select
        common_columns.*,
        orders.order_id as awd_outbound_order_id,
        orders.order_status as awd_outbound_order_status,
        timezone('UTC', orders.confirmed_on) as awd_outbound_order_confirmed_on,
        timezone('UTC', orders.created_at) as awd_outbound_order_created_at_utc,
        timezone('UTC', orders.updated_at) as awd_outbound_order_updated_at_utc,
        orders.order_preferences,
        orders.execution_errors,
        orders.eligible_products_to_outbound,
        orders.products_to_outbound,
        orders.shipped_outbound_products,
        -- createdAt is optional upstream: an order without it is dated by its first landing.
        timezone(contexts.timezone, coalesce(orders.created_at, orders.first_seen_at))::date as date,
    from orders
    join contexts using (connection_id)
)

select * from final
