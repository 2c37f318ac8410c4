-- Each settlement event with its part in profit measure rules 6, 8, 9 and 10 (spec 001, docs/design/PROFIT.md "Settlement
-- categories"): costs positive, refunds signed as paid; one row per settlement event. Events without SKU are
-- account-only: mkt_profit_by_date sums them, mkt_profit_by_sku_and_date does not.
with settlement_lines as (
    select *, lower(transaction_type) = 'refund' as is_refund
    from marts.mkt_settlements_with_cogs
),

settlement_parts as (
    select
        seller_or_vendor_id as connection_id,
        date,
        child_asin,
        sku,
        if(is_refund, 1, 0) as refund_count,
        refund_principal_amount + refund_shipping_amount + refund_referral_fee_amount + refund_commission_amount
            + refund_shipping_promotion_amount + refund_digital_services_fee_amount as refund_cost,
        if(not is_refund, -inventory_lost_amount, null) as lost_damaged_by_mkt,
        if(not is_refund, -inventory_missing_inbound_amount, null) as missing_returns,
        if(not is_refund, -(coalesce(inventory_lost_amount, 0) + coalesce(inventory_missing_inbound_amount, 0)), null) as cogs_total,
        if(not is_refund, -(promotion_item_amount + referral_fee_amount + fba_fee_amount + awd_fee_amount + other_fee_amount), null) as total_fees,
        if(not is_refund, -referral_fee_amount, null) as total_selling_fees,
        if(not is_refund, -fba_fee_amount, null) as fba_fees,
        if(not is_refund, -awd_fee_amount, null) as awd_fees,
    from settlement_lines
)

select * from settlement_parts
