-- Latest version of each order line from the All Orders flat file: one row per connection, order id and line.
-- The versions are ranked on their key columns alone, then only the chosen lines are read whole: window
-- functions carry every column they are given through their sorts.
with versions as (
    select
        _connection_id,
        _file_id,
        _line_number,
        amazon_order_id,
        sku,
        -- The flat file carries no order-item id: a line is the n-th line of its SKU within the order.
        row_number() over (partition by _file_id, amazon_order_id, sku order by _line_number) as sku_occurrence,
        last_updated_date,
        _landed_at,
    from raw.get_flat_file_all_orders_data_by_order_date_general
),

chosen as (
    select _connection_id, _file_id, _line_number, amazon_order_id, sku, sku_occurrence
    from versions
    qualify row_number() over (
        partition by _connection_id, amazon_order_id, sku, sku_occurrence
        order by last_updated_date desc nulls last, _landed_at desc, _line_number desc
    ) = 1
),

numbered as (
    select
        _file_id,
        _line_number,
        sku_occurrence,
        row_number() over (partition by _connection_id, amazon_order_id order by sku, sku_occurrence) as line_item_number,
    from chosen
),

latest as (
    select landed.*, numbered.sku_occurrence, numbered.line_item_number
    from raw.get_flat_file_all_orders_data_by_order_date_general as landed
    join numbered using (_file_id, _line_number)
),

renamed as (
    select
        _connection_id as connection_id,
        _marketplace_id as marketplace_id,
        amazon_order_id as order_id,
        amazon_order_id || '/' || sku || if(sku_occurrence > 1, '#' || sku_occurrence, '') as order_item_id,
        line_item_number,
        merchant_order_id,
        purchase_date as purchased_at,
        last_updated_date as updated_at,
        mkt_order_status(order_status) as order_status,
        case
            when item_status in ('Cancelled', 'Canceled') then 'Canceled'
            else nullif(item_status, '')
        end as item_status,
        -- Docs say AFN/MFN, files say Amazon/Merchant.
        case when fulfillment_channel in ('Merchant', 'MFN') then 'Merchant' else 'Amazon' end as fulfillment_channel,
        sales_channel,
        order_channel,
        ship_service_level,
        product_name,
        sku,
        nullif(asin, '') as asin,
        quantity,
        currency,
        item_price,
        item_tax,
        shipping_price,
        shipping_tax,
        gift_wrap_price,
        gift_wrap_tax,
        -- Discounts arrive negative or positive: keep the magnitude (upstream-formats a1).
        abs(item_promotion_discount) as item_promotion_discount,
        abs(ship_promotion_discount) as ship_promotion_discount,
        ship_city,
        ship_state,
        ship_postal_code,
        ship_country,
        coalesce(is_business_order, false) as is_business_order,
        purchase_order_number,
        _file_id as file_id,
        _line_number as line_number,
    from latest
)

select * from renamed
-- Time order lets date-window readers skip row groups, and keeps the rows a day's files replace together.
order by connection_id, purchased_at
