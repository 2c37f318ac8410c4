-- Amazon-fulfilled shipment item lines, latest landed version of each: one row per connection, shipment and shipment item.
-- Reports over overlapping date ranges repeat a line; the latest landed file wins.
with latest as (
    select * from latest_landed('raw.get_amazon_fulfilled_shipments_data_general', row(shipment_id, shipment_item_id))
),

renamed as (
    select
        connection_id,
        marketplace_id,
        shipment_item_id,
        amazon_order_id as order_id,
        nullif(merchant_order_id, '') as merchant_order_id,
        shipment_id,
        amazon_order_item_id as order_item_id,
        nullif(merchant_order_item_id, '') as merchant_order_item_id,
        purchase_date as purchased_at,
        payments_date as paid_at,
        shipment_date as shipped_at,
        reporting_date as reported_at,
        nullif(buyer_email, '') as buyer_email,
        nullif(buyer_name, '') as buyer_name,
        nullif(buyer_phone_number, '') as buyer_phone_number,
        sku,
        -- product_name is not null in the catalog; an empty upstream name stays empty text rather than refusing the file.
        coalesce(product_name, '') as product_name,
        quantity_shipped,
        nullif(currency, '') as currency,
        item_price,
        item_tax,
        shipping_price,
        shipping_tax,
        gift_wrap_price,
        gift_wrap_tax,
        nullif(ship_service_level, '') as ship_service_level,
        nullif(recipient_name, '') as recipient_name,
        nullif(ship_address_1, '') as ship_address_1,
        nullif(ship_address_2, '') as ship_address_2,
        nullif(ship_address_3, '') as ship_address_3,
        nullif(ship_city, '') as ship_city,
        nullif(ship_state, '') as ship_state,
        nullif(ship_postal_code, '') as ship_postal_code,
        nullif(ship_country, '') as ship_country,
        nullif(ship_phone_number, '') as ship_phone_number,
        nullif(bill_address_1, '') as bill_address_1,
        nullif(bill_address_2, '') as bill_address_2,
        nullif(bill_address_3, '') as bill_address_3,
        nullif(bill_city, '') as bill_city,
        nullif(bill_state, '') as bill_state,
        nullif(bill_postal_code, '') as bill_postal_code,
        nullif(bill_country, '') as bill_country,
        -- Discounts arrive negative or positive: keep the magnitude, as the order items do (upstream-formats a1).
        abs(item_promotion_discount) as item_promotion_discount,
        abs(ship_promotion_discount) as ship_promotion_discount,
        nullif(carrier, '') as carrier,
        nullif(tracking_number, '') as tracking_number,
        estimated_arrival_date as estimated_arrival_at,
        nullif(fulfillment_center_id, '') as fulfillment_center_id,
        nullif(fulfillment_channel, '') as fulfillment_channel,
        nullif(sales_channel, '') as sales_channel,
        _file_id as file_id,
        _line_number as line_number,
    from latest
)

select * from renamed
