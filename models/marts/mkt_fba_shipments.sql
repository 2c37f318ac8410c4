-- Amazon-fulfilled shipment item lines: one row per connection, shipment and shipment item; dates are marketplace-local.
with shipments as (
    select * from staging.stg_mkt__fba_shipments
    where connection_id in $connection_ids
),

-- A line is dated by its shipment date in the marketplace timezone; the other dates are local too.
localized as (
    select * from localize(shipments, shipped_at, $timezone, $from, $to)
),

final as (
    select
        common_columns.*,
        local_date as date,
        shipment_item_id,
        order_id as mkt_order_id,
        merchant_order_id,
        shipment_id,
        order_item_id as mkt_order_item_id,
        merchant_order_item_id,
        timezone($timezone, purchased_at)::date as purchase_date,
        timezone($timezone, paid_at)::date as payments_date,
        local_date as shipment_date,
        timezone($timezone, reported_at)::date as reporting_date,
        buyer_email,
        buyer_name,
        buyer_phone_number,
        sku,
        product_name,
        quantity_shipped,
        currency,
        item_price,
        item_tax,
        shipping_price,
        shipping_tax,
        gift_wrap_price,
        gift_wrap_tax,
        ship_service_level,
        recipient_name,
        ship_address_1,
        ship_address_2,
        ship_address_3,
        ship_city,
        ship_state,
        ship_postal_code,
        ship_country,
        ship_phone_number,
        bill_address_1,
        bill_address_2,
        bill_address_3,
        bill_city,
        bill_state,
        bill_postal_code,
        bill_country,
        item_promotion_discount,
        ship_promotion_discount,
        carrier,
        tracking_number as fba_shipment_tracking_number,
        timezone($timezone, estimated_arrival_at)::date as estimated_arrival_date,
        fulfillment_center_id,
        fulfillment_channel,
        sales_channel,
    from localized
)

select * from final
