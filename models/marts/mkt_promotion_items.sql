-- Per-item settings of promotions with ITEMS selections: one row per connection, promotion, ASIN and SKU (latest synced version of the promotion).
with promotions as (
    select * from staging.stg_mkt__promotions
    where items is not null
),

contexts as (
    select * from intermediate.int_connections_described
),

-- A promotion's items are those of its latest version: items dropped from a later version are gone.
items as (
    select
        connection_id,
        promotion_id,
        synced_at,
        unnest(cast(items as json[])) as item,
    from promotions
),

final as (
    select
        common_columns.*,
        items.promotion_id,
        items.item ->> 'asin' as asin,
        items.item ->> 'sku' as sku,
        items.item ->> 'benefitType' as benefit_type,
        items.item ->> 'benefitDiscountType' as benefit_discount_type,
        (items.item ->> 'benefitPercentOff')::decimal(18, 4) as benefit_percent_off,
        (items.item ->> 'benefitAmountOff')::decimal(18, 4) as benefit_amount_off,
        items.item ->> 'benefitDiscountCurrency' as benefit_discount_currency,
        (items.item ->> 'benefitFixedPrice')::decimal(18, 4) as benefit_fixed_price,
        items.item ->> 'benefitFixedPriceCurrency' as benefit_fixed_price_currency,
        (items.item ->> 'benefitPerCustomerUses')::decimal(18, 4) as benefit_per_customer_uses,
        items.item ->> 'budgetType' as budget_type,
        (items.item ->> 'budgetValue')::decimal(18, 4) as budget_value,
        items.item ->> 'budgetCurrency' as budget_currency,
        if(json_type(items.item -> 'issues') in ('ARRAY', 'OBJECT'), items.item -> 'issues', null) as issues,
        timezone('UTC', items.synced_at) as last_synced_at,
    from items
    join contexts using (connection_id)
)

select * from final
