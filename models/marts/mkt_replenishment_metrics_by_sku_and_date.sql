-- Subscribe and Save PERFORMANCE metrics per offer and metric day: one row per connection, SKU and date (the last day of the metric interval).
with offer_metrics as (
    select * from staging.stg_mkt__replenishment_offer_metrics
    where connection_id in $connection_ids and date between $from::date and $to::date
),

contexts as (
    select * from intermediate.int_connections_described
    where connection_id in $connection_ids
),

-- Every metric column is non-null in the spec: a metric the API did not return is 0.
final as (
    select
        common_columns.*,
        offer_metrics.date,
        offer_metrics.period_start_date,
        offer_metrics.period_end_date,
        offer_metrics.child_asin,
        offer_metrics.sku,
        'SUBSCRIBE_AND_SAVE' as mkt_replenishment_program_type,
        'PERFORMANCE' as mkt_replenishment_time_period_type,
        'DAY' as mkt_replenishment_aggregation_frequency,
        offer_metrics.fulfillment_channel_type as mkt_replenishment_fulfillment_channel_type,
        coalesce(offer_metrics.currency_code, contexts.currency) as currency_code,
        timezone('UTC', offer_metrics.landed_at) as last_seen_at,
        coalesce(offer_metrics.not_delivered_due_to_oos, 0) as not_delivered_due_to_oos,
        coalesce(offer_metrics.total_subscriptions_revenue, 0) as total_subscriptions_revenue,
        coalesce(offer_metrics.shipped_subscription_units, 0) as shipped_subscription_units,
        coalesce(offer_metrics.active_subscriptions, 0) as active_subscriptions,
        coalesce(offer_metrics.revenue_penetration, 0) as revenue_penetration,
        coalesce(offer_metrics.lost_revenue_due_to_oos, 0) as lost_revenue_due_to_oos,
        coalesce(offer_metrics.coupons_revenue_penetration, 0) as coupons_revenue_penetration,
        coalesce(offer_metrics.share_of_coupon_subscriptions, 0) as share_of_coupon_subscriptions,
    from offer_metrics
    join contexts using (connection_id)
)

select * from final
