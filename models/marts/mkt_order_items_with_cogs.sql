-- Order line items with unit costs as of the order date: one row per connection, order and line; date is marketplace-local.
with order_items as (
    select * from staging.stg_mkt__order_items
    where connection_id in $connection_ids
        -- A day either side of the local window: a plain column bound lets a window skip row groups by their statistics.
        and purchased_at >= $from::date - interval 1 day and purchased_at < $to::date + interval 2 day
),

localized as (
    select * from localize(order_items, purchased_at, $timezone, $from, $to)
),

-- docs/design/PROFIT.md "Unit cost" on the order date (intermediate.int_unit_costs holds the periods per lookup key).
costed as (
    select * from unit_costed(localized, sku, coalesce(asin, ''), local_date, quantity)
),

final as (
    select
        common_columns.*,
        local_date as date,
        timezone('UTC', purchased_at) as order_purchased_at_utc,
        order_id as mkt_order_id,
        order_item_id as mkt_order_item_id,
        asin as child_asin,
        sku,
        product_name,
        line_item_number,
        merchant_order_id,
        timezone('UTC', updated_at) as mkt_order_updated_at,
        order_status as mkt_order_status,
        fulfillment_channel,
        sales_channel,
        -- No order-channel value means the website; app channels name the app.
        case
            when order_channel ilike '%app%' or order_channel ilike '%mobile%' then 'MOBILEAPP'
            when order_channel is null or order_channel ilike '%web%' then 'WEBSITE'
            else 'OTHER'
        end as mkt_order_channel,
        ship_service_level,
        item_status,
        quantity,
        item_price as item_price_value,
        currency as item_price_currency,
        item_tax as item_tax_value,
        shipping_price as item_shipping_price_value,
        shipping_tax as item_shipping_tax_value,
        ship_promotion_discount as item_ship_promotion_discount_value,
        gift_wrap_price as gift_wrap_price_value,
        gift_wrap_tax as gift_wrap_tax_value,
        ship_city as address_city,
        ship_state as address_state,
        ship_country as address_country,
        coalesce(ship_postal_code, '') as address_postal_code,
        is_business_order as order_is_business,
        purchase_order_number,
        cogs_item_value,
        cogs_shipping_value,
        cogs_total_value,
        cogs_present,
        cogs_currency,
        item_supplier_name,
        local_date as order_date,
    from costed
)

select * from final
