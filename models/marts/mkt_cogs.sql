-- Uploaded unit costs (COGS) as they stand: one row per connection, ASIN, SKU, currency and fromDate.
with cogs as (
    select * from control.cogs
),

contexts as (
    select
        c.id as connection_id,
        c.name as connection_name,
        c.seller_id,
        m.marketplace_id,
        m.country_code,
        m.country_name,
    from control.connections as c
    join seeds.marketplaces as m on m.marketplace_id = c.marketplace_id
),

final as (
    select
        contexts.marketplace_id,
        contexts.country_code as marketplace_country_code,
        contexts.country_name as marketplace_country_name,
        contexts.connection_id as seller_or_vendor_id,
        contexts.connection_name as seller_or_vendor_name,
        contexts.seller_id as marketplace_seller_id,
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
