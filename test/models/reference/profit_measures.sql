-- Profit measure rules 1-10 (spec 001) worked out a second way, straight from the catalog tables they read with
-- aggregates of their own (not the line views both profit tables share): one row per connection, date, child ASIN
-- and SKU (`by_sku`, the SKU table's grain) and one per connection and date (the account table's), with the
-- measures of the lines it has. test/helpers/profit-reference.ts compares the profit tables with it.
with orders as (
    select
        items.*,
        described.prices_include_tax as taxed,
        items.item_status = 'Shipped' as shipped,
        coalesce(items.order_is_business, false) as business,
        coalesce(items.item_status, '') not ilike '%cancel%' as ordered,
        coalesce(items.item_price_value, 0) + coalesce(items.item_shipping_price_value, 0)
            - coalesce(items.item_ship_promotion_discount_value, 0) as sales,
    from marts.mkt_order_items_with_cogs as items
    join intermediate.int_connections_described as described on described.connection_id = items.seller_or_vendor_id
),

-- Rules 1-5 and the shipped part of rule 8, at both grains at once.
order_sums as (
    select
        seller_or_vendor_id as connection_id, date, child_asin, sku, grouping(sku) = 0 as by_sku,
        sum(sales) filter (shipped) as total_sales,
        sum(if(taxed, coalesce(item_tax_value, 0) + coalesce(item_shipping_tax_value, 0), 0)) filter (shipped) as sales_tax,
        count(*) filter (shipped and taxed and (
            (coalesce(item_price_value, 0) <> 0 and item_tax_value is null)
            or (coalesce(item_shipping_price_value, 0) > coalesce(item_ship_promotion_discount_value, 0) and item_shipping_tax_value is null)
        )) as sales_tax_missing_items,
        sum(sales) filter (shipped and business) as total_sales_b2b,
        sum(sales) filter (shipped and not business) as total_sales_b2c,
        sum(sales) filter (item_status ilike '%unshipped%') as unshipped_sales,
        sum(quantity) filter (ordered and business) as total_units_b2b,
        sum(quantity) filter (ordered and not business) as total_units_b2c,
        sum(quantity) filter (shipped) as total_units_sold,
        sum(quantity) filter (shipped and business) as total_units_sold_b2b,
        sum(quantity) filter (shipped and not business) as total_units_sold_b2c,
        count(distinct mkt_order_id) filter (shipped) as total_orders,
        sum(cogs_item_value) filter (shipped) as cogs_item,
        sum(cogs_shipping_value) filter (shipped) as cogs_shipping,
        sum(cogs_total_value) filter (shipped) as cogs_shipped,
        count(*) filter (shipped) as costable,
        count(*) filter (shipped and not cogs_present) as uncosted,
    from orders
    group by grouping sets ((seller_or_vendor_id, date, child_asin, sku), (seller_or_vendor_id, date))
),

-- Rules 6, 8, 9 and 10: costs positive, refunds as paid; the SKU table leaves out the events without SKU.
settlement_sums as (
    select
        seller_or_vendor_id as connection_id, date, child_asin, sku, grouping(sku) = 0 as by_sku,
        count(*) filter (transaction_type ilike 'refund') as refund_count,
        sum(refund_principal_amount + refund_shipping_amount + refund_referral_fee_amount + refund_commission_amount
            + refund_shipping_promotion_amount + refund_digital_services_fee_amount) as refund_settlements,
        0 - sum(inventory_lost_amount) filter (transaction_type not ilike 'refund') as lost_damaged_by_mkt,
        0 - sum(inventory_missing_inbound_amount) filter (transaction_type not ilike 'refund') as missing_returns,
        0 - sum(promotion_item_amount + referral_fee_amount + fba_fee_amount + awd_fee_amount + other_fee_amount)
            filter (transaction_type not ilike 'refund') as total_fees,
        0 - sum(referral_fee_amount) filter (transaction_type not ilike 'refund') as total_selling_fees,
        0 - sum(fba_fee_amount) filter (transaction_type not ilike 'refund') as fba_fees,
        0 - sum(awd_fee_amount) filter (transaction_type not ilike 'refund') as awd_fees,
    from marts.mkt_settlements_with_cogs
    group by grouping sets ((seller_or_vendor_id, date, child_asin, sku), (seller_or_vendor_id, date))
    having grouping(sku) = 1 or sku is not null
),

-- Rules 6 and 7: a SELLABLE return's cost offsets refunds, any other disposition's adds to them.
return_sums as (
    select
        seller_or_vendor_id as connection_id, date, child_asin, sku, grouping(sku) = 0 as by_sku,
        sum(quantity) as return_units,
        sum(coalesce(cogs_total_value, 0)) as return_cogs,
        coalesce(sum(cogs_total_value) filter (upper(detailed_disposition) = 'SELLABLE'), 0)
            - coalesce(sum(cogs_total_value) filter (upper(detailed_disposition) <> 'SELLABLE'), 0) as refund_returns,
        count(*) as costable,
        count(*) filter (not cogs_present) as uncosted,
    from marts.mkt_returns
    group by grouping sets ((seller_or_vendor_id, date, child_asin, sku), (seller_or_vendor_id, date))
),

sums as (
    select connection_id, date, child_asin, sku, by_sku, sum(columns(* exclude (connection_id, date, child_asin, sku, by_sku))),
    from (
        select * from order_sums
        union all by name select * from settlement_sums
        union all by name select * from return_sums
    )
    group by all
),

final as (
    select
        connection_id, date, child_asin, sku, by_sku,
        coalesce(columns(* exclude (connection_id, date, child_asin, sku, by_sku, refund_settlements, refund_returns, cogs_shipped, costable, uncosted)), 0),
        coalesce(refund_settlements, 0) + coalesce(refund_returns, 0) as refund_cost,
        coalesce(cogs_shipped, 0) + coalesce(lost_damaged_by_mkt, 0) + coalesce(missing_returns, 0) as cogs_total,
        case when coalesce(costable, 0) > 0 then uncosted = 0 end as cogs_present,
    from sums
)

select * from final
