-- Lines of AWD replenishment orders with the seller and marketplace context: one row per connection, order id, list and position; date is the marketplace-local date last seen.
with line_items as (
    select * from staging.stg_mkt__awd_replenishment_order_line_items
),

contexts as (
    select * from intermediate.int_connections_described
),

final as (
    select
        common_columns.*,
        line_items.order_id as awd_replenishment_order_id,
        line_items.line_item_source,
        line_items.line_item_no::decimal(18, 4) as line_item_no,
        line_items.sku,
        line_items.quantity,
        line_items.shipment_id as awd_replenishment_shipment_id,
        line_items.shipment_status as awd_replenishment_shipment_status,
        line_items.failure_code,
        line_items.failure_reasons,
        -- Spec document 002: attributes and line_item_data are filled by warehouse integrations only (the API's
        -- product attributes stay in staging.stg_mkt__awd_replenishment_order_line_items).
        null::json as attributes,
        null::json as line_item_data,
        timezone('UTC', line_items.last_seen_at) as last_seen_at,
        timezone('UTC', line_items.order_updated_at) as order_updated_at,
        timezone(contexts.timezone, line_items.last_seen_at)::date as date,
    from line_items
    join contexts using (connection_id)
)

select * from final
