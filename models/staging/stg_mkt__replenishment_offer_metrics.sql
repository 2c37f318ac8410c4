-- Subscribe and Save PERFORMANCE metrics per offer (listOfferMetrics), latest record per SKU and interval end day: one row per connection, SKU and day.
with landed as (
    select
        *,
        timezone('UTC', start_date)::date as start_day,
        timezone('UTC', end_date)::date as end_day,
    from raw.replenishment_list_offer_metrics
),

-- FORECAST records (next30Day…, next90Day… only) are kept in raw but are no performance metrics.
performance as (
    select *
    from landed
    where not_delivered_due_to_oos is not null
        or total_subscriptions_revenue is not null
        or shipped_subscription_units is not null
        or active_subscriptions is not null
        or revenue_penetration is not null
        or lost_revenue_due_to_oos is not null
        or coupons_revenue_penetration is not null
        or share_of_coupon_subscriptions is not null
),

-- Per SKU and day: the shortest interval ending that day (the day itself when pulled daily), then the latest file.
latest as (
    select *
    from performance
    qualify row_number() over (
        partition by _connection_id, sku, end_day
        order by start_day desc, _landed_at desc, _line_number desc
    ) = 1
),

renamed as (
    select
        _connection_id as connection_id,
        _marketplace_id as marketplace_id,
        end_day as date,
        start_day as period_start_date,
        end_day as period_end_date,
        asin as child_asin,
        sku,
        fulfillment_channel_type,
        currency_code,
        not_delivered_due_to_oos,
        total_subscriptions_revenue,
        shipped_subscription_units,
        active_subscriptions,
        revenue_penetration,
        lost_revenue_due_to_oos,
        coupons_revenue_penetration,
        share_of_coupon_subscriptions,
        brand_name,
        _landed_at as landed_at,
        _file_id as file_id,
        _line_number as line_number,
    from latest
)

select * from renamed
