-- Promotion records (docs/promotions-format.md), latest synced version of each promotion: one row per connection and promotion.
with landed as (
    select
        *,
        coalesce(last_synced_at, _landed_at) as synced_at,
    from raw.promotions
),

marketplaces as (
    select * from seeds.marketplaces
),

-- A file synced earlier but landed later does not replace a newer version.
latest as (
    select *
    from landed
    qualify row_number() over (
        partition by _connection_id, promotion_id
        order by synced_at desc, _landed_at desc, _line_number desc
    ) = 1
),

-- Dates are YYYY-MM-DD (marketplace-local) or date-times with offset, which are read in the marketplace timezone.
localized as (
    select
        latest.*,
        if(length(start_date) = 10, start_date::date, timezone(marketplaces.timezone, start_date::timestamptz)::date) as local_start_date,
        if(length(end_date) = 10, end_date::date, timezone(marketplaces.timezone, end_date::timestamptz)::date) as local_end_date,
        if(length(created_date) = 10, created_date::date, timezone(marketplaces.timezone, created_date::timestamptz)::date) as local_created_date,
        if(length(last_updated_date) = 10, last_updated_date::date, timezone(marketplaces.timezone, last_updated_date::timestamptz)::date) as local_last_updated_date,
    from latest
    left join marketplaces on marketplaces.marketplace_id = latest._marketplace_id
),

renamed as (
    select
        _connection_id as connection_id,
        _marketplace_id as marketplace_id,
        promotion_id,
        tracking_id,
        promotion_title,
        promotion_type,
        coupon_type,
        status,
        local_start_date as start_date,
        local_end_date as end_date,
        event_id,
        budget_type,
        budget_value,
        budget_currency,
        selection_id,
        selection_revision_id,
        selection_type,
        benefit_discount_type,
        benefit_percent_off,
        benefit_amount_off,
        benefit_currency,
        benefit_per_customer_uses,
        benefit_stacking,
        benefit_quantity,
        purchase_req_quantity_type,
        purchase_req_quantity,
        claim_code_type,
        claim_code_value,
        display_on_website,
        upfront_fee_amount,
        upfront_fee_currency,
        upfront_fee_frequency,
        variable_fee_pct,
        variable_fee_cap_amount,
        variable_fee_cap_currency,
        latest_revision_status,
        local_created_date as created_date,
        local_last_updated_date as last_updated_date,
        synced_at,
        issues::json as issues,
        customer_segments::json as customer_segments,
        additional_tiers::json as additional_tiers,
        items::json as items,
        _file_id as file_id,
        _line_number as line_number,
    from localized
)

select * from renamed
