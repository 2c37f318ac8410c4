-- Subscribe and Save account metrics (getSellingPartnerMetrics), records of the latest file per interval: one row per connection, interval and metric group.
with landed as (
    select
        *,
        timezone('UTC', start_date)::date as start_day,
        timezone('UTC', end_date)::date as end_day,
    from raw.replenishment_get_selling_partner_metrics
),

-- A day is pulled again while its metrics settle: the latest file of an interval wins, with all its metric groups.
latest as (
    select *
    from landed
    qualify _file_id = first_value(_file_id) over (
        partition by _connection_id, start_day, end_day
        order by _landed_at desc, _file_id desc
    )
),

renamed as (
    select
        _connection_id as connection_id,
        _marketplace_id as marketplace_id,
        start_day as period_start_date,
        end_day as period_end_date,
        currency_code,
        not_delivered_due_to_oos,
        total_subscriptions_revenue,
        shipped_subscription_units,
        active_subscriptions,
        subscriber_average_revenue,
        non_subscriber_average_revenue,
        lost_revenue_due_to_oos,
        subscriber_average_reorders,
        non_subscriber_average_reorders,
        coupons_revenue_penetration,
        revenue_from_subscriptions_with_multiple_deliveries,
        revenue_from_active_subscriptions_with_single_delivery,
        revenue_from_cancelled_subscriptions_after_single_delivery,
        subscriber_retention_for30days as subscriber_retention_for_30_days,
        subscriber_retention_for90days as subscriber_retention_for_90_days,
        revenue_penetration_for0percent_seller_funding as revenue_penetration_for_0_percent_seller_funding,
        revenue_penetration_for5percent_seller_funding as revenue_penetration_for_5_percent_seller_funding,
        revenue_penetration_for10percent_seller_funding as revenue_penetration_for_10_percent_seller_funding,
        revenue_penetration_for5plus_percent_seller_funding as revenue_penetration_for_5_plus_percent_seller_funding,
        share_of_coupon_subscriptions,
        non_subscriber_life_time_value_from_otp as non_subscriber_lifetime_value_from_otp,
        lost_subscriber_life_time_value_from_otp as lost_subscriber_lifetime_value_from_otp,
        lost_subscriber_life_time_value_from_sns as lost_subscriber_lifetime_value_from_sns,
        growing_subscriber_life_time_value_from_otp as growing_subscriber_lifetime_value_from_otp,
        growing_subscriber_life_time_value_from_sns as growing_subscriber_lifetime_value_from_sns,
        established_subscriber_life_time_value_from_otp as established_subscriber_lifetime_value_from_otp,
        established_subscriber_life_time_value_from_sns as established_subscriber_lifetime_value_from_sns,
        signup_conversion_for0percent_seller_funding as signup_conversion_for_0_percent_seller_funding,
        signup_conversion_for5percent_seller_funding as signup_conversion_for_5_percent_seller_funding,
        signup_conversion_for10percent_seller_funding as signup_conversion_for_10_percent_seller_funding,
        signup_conversion_for5plus_percent_seller_funding as signup_conversion_for_5_plus_percent_seller_funding,
        revenue_penetration,
        _landed_at as landed_at,
        _file_id as file_id,
        _line_number as line_number,
    from latest
)

select * from renamed
