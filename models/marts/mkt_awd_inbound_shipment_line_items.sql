-- SKU lines of AWD inbound shipments with the seller and marketplace context: one row per connection, shipment id and line; date is the marketplace-local date last seen.
with line_items as (
    select * from staging.stg_mkt__awd_inbound_shipment_line_items
),

contexts as (
    select * from intermediate.int_connections_described
),

final as (
    select
        common_columns.*,
        line_items.shipment_id as awd_inbound_shipment_id,
        line_items.line_item_no::decimal(18, 4) as line_item_no,
        line_items.sku,
        line_items.expected_quantity,
        line_items.received_quantity,
        -- Filled by warehouse integrations only; the AWD API has no such field.
        null::json as line_item_data,
        timezone('UTC', line_items.last_seen_at) as last_seen_at,
        timezone(contexts.timezone, line_items.last_seen_at)::date as date,
    from line_items
    join contexts using (connection_id)
)

select * from final
