-- Uploaded unit costs (COGS) as they stand: one row per connection, ASIN, SKU, currency and fromDate.
with cogs as (
    select * from control.cogs
),

contexts as (
    select * from intermediate.int_connections_described
),

final as (
    select
        common_columns.*,
        cogs.asin,
        cogs.sku,
        cogs.cost_currency,
        cogs.from_date,
        cogs.cost_item_value,
        cogs.cost_item_shipping_value,
        cogs.item_supplier_name,
        timezone('UTC', cogs.updated_at) as updated_at,
    from cogs
    join contexts using (connection_id)
)

select * from final
