-- Subscribe and Save program metrics of the account per metric day: one row per connection and date (the last day of the metric interval).
with metrics as (
    select * from staging.stg_mkt__replenishment_metrics
    where connection_id in $connection_ids and period_end_date between $from::date and $to::date
),

contexts as (
    select * from intermediate.int_connections_described
    where connection_id in $connection_ids
),

-- Records ending on one day form that day's row; per metric the shortest interval carrying it wins, then the latest file.
merged as (
    select
        connection_id,
        period_end_date,
        max(period_start_date) as period_start_date,
        any_value(currency_code order by period_start_date desc, landed_at desc) as currency_code,
        max(landed_at) as last_seen_at,
        any_value(
            columns(* exclude (connection_id, marketplace_id, period_start_date, period_end_date, currency_code, landed_at, file_id, line_number))
            order by period_start_date desc, landed_at desc
        ),
    from metrics
    group by connection_id, period_end_date
),

-- Every metric column is non-null in the spec: a metric the API did not return for the day (seller-only or vendor-only, not requested) is 0.
final as (
    select
        common_columns.*,
        merged.period_end_date as date,
        merged.period_start_date,
        merged.period_end_date,
        'SUBSCRIBE_AND_SAVE' as mkt_replenishment_program_type,
        'PERFORMANCE' as mkt_replenishment_time_period_type,
        'DAY' as mkt_replenishment_aggregation_frequency,
        coalesce(merged.currency_code, contexts.currency) as currency_code,
        timezone('UTC', merged.last_seen_at) as last_seen_at,
        coalesce(merged.not_delivered_due_to_oos, 0) as not_delivered_due_to_oos,
        coalesce(merged.total_subscriptions_revenue, 0) as total_subscriptions_revenue,
        coalesce(merged.shipped_subscription_units, 0) as shipped_subscription_units,
        coalesce(merged.active_subscriptions, 0) as active_subscriptions,
        coalesce(merged.subscriber_average_revenue, 0) as subscriber_average_revenue,
        coalesce(merged.non_subscriber_average_revenue, 0) as non_subscriber_average_revenue,
        coalesce(merged.lost_revenue_due_to_oos, 0) as lost_revenue_due_to_oos,
        coalesce(merged.subscriber_average_reorders, 0) as subscriber_average_reorders,
        coalesce(merged.non_subscriber_average_reorders, 0) as non_subscriber_average_reorders,
        coalesce(merged.coupons_revenue_penetration, 0) as coupons_revenue_penetration,
        coalesce(merged.revenue_from_subscriptions_with_multiple_deliveries, 0) as revenue_from_subscriptions_with_multiple_deliveries,
        coalesce(merged.revenue_from_active_subscriptions_with_single_delivery, 0) as revenue_from_active_subscriptions_with_single_delivery,
        coalesce(merged.revenue_from_cancelled_subscriptions_after_single_delivery, 0) as revenue_from_cancelled_subscriptions_after_single_delivery,
        coalesce(merged.subscriber_retention_for_30_days, 0) as subscriber_retention_for_30_days,
        coalesce(merged.subscriber_retention_for_90_days, 0) as subscriber_retention_for_90_days,
        coalesce(merged.revenue_penetration_for_0_percent_seller_funding, 0) as revenue_penetration_for_0_percent_seller_funding,
        coalesce(merged.revenue_penetration_for_5_percent_seller_funding, 0) as revenue_penetration_for_5_percent_seller_funding,
        coalesce(merged.revenue_penetration_for_10_percent_seller_funding, 0) as revenue_penetration_for_10_percent_seller_funding,
        coalesce(merged.revenue_penetration_for_5_plus_percent_seller_funding, 0) as revenue_penetration_for_5_plus_percent_seller_funding,
        coalesce(merged.share_of_coupon_subscriptions, 0) as share_of_coupon_subscriptions,
        coalesce(merged.non_subscriber_lifetime_value_from_otp, 0) as non_subscriber_lifetime_value_from_otp,
        coalesce(merged.lost_subscriber_lifetime_value_from_otp, 0) as lost_subscriber_lifetime_value_from_otp,
        coalesce(merged.lost_subscriber_lifetime_value_from_sns, 0) as lost_subscriber_lifetime_value_from_sns,
        coalesce(merged.growing_subscriber_lifetime_value_from_otp, 0) as growing_subscriber_lifetime_value_from_otp,
        coalesce(merged.growing_subscriber_lifetime_value_from_sns, 0) as growing_subscriber_lifetime_value_from_sns,
        coalesce(merged.established_subscriber_lifetime_value_from_otp, 0) as established_subscriber_lifetime_value_from_otp,
        coalesce(merged.established_subscriber_lifetime_value_from_sns, 0) as established_subscriber_lifetime_value_from_sns,
        coalesce(merged.signup_conversion_for_0_percent_seller_funding, 0) as signup_conversion_for_0_percent_seller_funding,
        coalesce(merged.signup_conversion_for_5_percent_seller_funding, 0) as signup_conversion_for_5_percent_seller_funding,
        coalesce(merged.signup_conversion_for_10_percent_seller_funding, 0) as signup_conversion_for_10_percent_seller_funding,
        coalesce(merged.signup_conversion_for_5_plus_percent_seller_funding, 0) as signup_conversion_for_5_plus_percent_seller_funding,
        coalesce(merged.revenue_penetration, 0) as revenue_penetration,
    from merged
    join contexts using (connection_id)
)

select * from final
