-- Each order line with its part in profit measure rules 1-5 and the shipped part of rule 8 (spec 001), null where it
-- has none: one row per order line. Both profit tables sum these parts over their grain, and count the distinct
-- shipped_order_id for total_orders.
with contexts as (
    select connection_id, prices_include_tax from intermediate.int_connections_described
),

order_lines as (
    select
        items.*,
        contexts.prices_include_tax,
        items.item_status = 'Shipped' as is_shipped,
        coalesce(items.item_price_value, 0) + coalesce(items.item_shipping_price_value, 0) - coalesce(items.item_ship_promotion_discount_value, 0) as line_sales,
        coalesce(items.order_is_business, false) as is_business,
        items.item_status is null or lower(items.item_status) not like '%cancel%' as is_not_canceled,
    from marts.mkt_order_items_with_cogs as items
    join contexts on contexts.connection_id = items.seller_or_vendor_id
),

order_parts as (
    select
        seller_or_vendor_id as connection_id,
        date,
        child_asin,
        sku,
        if(is_shipped, mkt_order_id, null) as shipped_order_id,
        if(is_shipped, line_sales, null) as total_sales,
        if(is_shipped, if(prices_include_tax, coalesce(item_tax_value, 0) + coalesce(item_shipping_tax_value, 0), 0), null) as sales_tax,
        if(is_shipped and prices_include_tax and (
            (coalesce(item_price_value, 0) <> 0 and item_tax_value is null)
            or (coalesce(item_shipping_price_value, 0) > coalesce(item_ship_promotion_discount_value, 0) and item_shipping_tax_value is null)
        ), 1, 0) as sales_tax_missing_items,
        if(is_shipped and is_business, line_sales, null) as total_sales_b2b,
        if(is_shipped and not is_business, line_sales, null) as total_sales_b2c,
        if(lower(item_status) like '%unshipped%', line_sales, null) as unshipped_sales,
        if(is_not_canceled and is_business, quantity, null) as total_units_b2b,
        if(is_not_canceled and not is_business, quantity, null) as total_units_b2c,
        if(is_shipped, quantity, null) as total_units_sold,
        if(is_shipped and is_business, quantity, null) as total_units_sold_b2b,
        if(is_shipped and not is_business, quantity, null) as total_units_sold_b2c,
        if(is_shipped, cogs_item_value, null) as cogs_item,
        if(is_shipped, cogs_shipping_value, null) as cogs_shipping,
        if(is_shipped, cogs_total_value, null) as cogs_total,
        if(is_shipped, 1, 0) as costable_lines,
        if(is_shipped and not cogs_present, 1, 0) as uncosted_lines,
    from order_lines
)

select * from order_parts
