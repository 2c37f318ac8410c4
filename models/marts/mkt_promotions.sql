-- Promotions with schedule, benefit, budget, fees and selection metadata: one row per connection and promotion (latest synced version).
with promotions as (
    select * from staging.stg_mkt__promotions
),

contexts as (
    select * from intermediate.int_connections_described
),

final as (
    select
        common_columns.*,
        promotions.promotion_id,
        promotions.tracking_id,
        promotions.promotion_title,
        promotions.promotion_type,
        promotions.coupon_type,
        promotions.status,
        promotions.start_date,
        promotions.end_date,
        promotions.event_id,
        promotions.budget_type,
        promotions.budget_value,
        promotions.budget_currency,
        promotions.selection_id,
        promotions.selection_revision_id,
        promotions.selection_type,
        promotions.benefit_discount_type,
        promotions.benefit_percent_off,
        promotions.benefit_amount_off,
        promotions.benefit_currency,
        promotions.benefit_per_customer_uses,
        promotions.benefit_stacking,
        promotions.benefit_quantity,
        promotions.purchase_req_quantity_type,
        promotions.purchase_req_quantity,
        promotions.claim_code_type,
        promotions.claim_code_value,
        promotions.display_on_website,
        promotions.upfront_fee_amount,
        promotions.upfront_fee_currency,
        promotions.upfront_fee_frequency,
        promotions.variable_fee_pct,
        promotions.variable_fee_cap_amount,
        promotions.variable_fee_cap_currency,
        promotions.latest_revision_status,
        promotions.created_date,
        promotions.last_updated_date,
        timezone('UTC', promotions.synced_at) as last_synced_at,
        promotions.issues,
        promotions.customer_segments,
        promotions.additional_tiers,
    from promotions
    join contexts using (connection_id)
)

select * from final
