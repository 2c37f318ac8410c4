-- Daily profit and cost per child ASIN and SKU: one row per connection, date, child ASIN and SKU (spec 001 "Profit measure rules").
-- One statement builds several connections: every CTE keeps its rows' connection_id, and every aggregation and
-- join is by it too, so that no connection's rows meet another's.
with contexts as (
    select * from intermediate.int_connections_described
    where connection_id in $connection_ids
),

order_items as (
    select
        *,
        item_status = 'Shipped' as is_shipped,
        coalesce(item_price_value, 0) + coalesce(item_shipping_price_value, 0) - coalesce(item_ship_promotion_discount_value, 0) as line_sales,
        coalesce(order_is_business, false) as is_business,
        item_status is null or lower(item_status) not like '%cancel%' as is_not_canceled,
    from marts.mkt_order_items_with_cogs
    where seller_or_vendor_id in $connection_ids and date between $from::date and $to::date
),

-- Rules 1-5 and the shipped part of rule 8.
order_measures as (
    select
        order_items.seller_or_vendor_id as connection_id,
        order_items.date,
        order_items.child_asin,
        order_items.sku,
        sum(line_sales) filter (where is_shipped) as total_sales,
        if(any_value(contexts.prices_include_tax),
            sum(coalesce(item_tax_value, 0) + coalesce(item_shipping_tax_value, 0)) filter (where is_shipped), 0) as sales_tax,
        if(any_value(contexts.prices_include_tax), count(*) filter (where is_shipped and (
            (coalesce(item_price_value, 0) <> 0 and item_tax_value is null)
            or (coalesce(item_shipping_price_value, 0) > coalesce(item_ship_promotion_discount_value, 0) and item_shipping_tax_value is null)
        )), 0) as sales_tax_missing_items,
        sum(line_sales) filter (where is_shipped and is_business) as total_sales_b2b,
        sum(line_sales) filter (where is_shipped and not is_business) as total_sales_b2c,
        sum(line_sales) filter (where lower(item_status) like '%unshipped%') as unshipped_sales,
        sum(quantity) filter (where is_not_canceled and is_business) as total_units_b2b,
        sum(quantity) filter (where is_not_canceled and not is_business) as total_units_b2c,
        sum(quantity) filter (where is_shipped) as total_units_sold,
        sum(quantity) filter (where is_shipped and is_business) as total_units_sold_b2b,
        sum(quantity) filter (where is_shipped and not is_business) as total_units_sold_b2c,
        count(distinct mkt_order_id) filter (where is_shipped) as total_orders,
        sum(cogs_item_value) filter (where is_shipped) as cogs_item,
        sum(cogs_shipping_value) filter (where is_shipped) as cogs_shipping,
        sum(cogs_total_value) filter (where is_shipped) as cogs_shipped,
        count(*) filter (where is_shipped) as costable_lines,
        count(*) filter (where is_shipped and not cogs_present) as uncosted_lines,
    from order_items
    join contexts on contexts.connection_id = order_items.seller_or_vendor_id
    group by all
),

settlements as (
    select *, lower(transaction_type) = 'refund' as is_refund
    from marts.mkt_settlements_with_cogs
    where seller_or_vendor_id in $connection_ids and date between $from::date and $to::date and sku is not null
),

-- Rules 6, 8, 9 and 10 (docs/design/PROFIT.md "Settlement categories"): costs positive, refunds signed as paid.
settlement_measures as (
    select
        seller_or_vendor_id as connection_id,
        date,
        child_asin,
        sku,
        count(*) filter (where is_refund) as refund_count,
        sum(refund_principal_amount + refund_shipping_amount + refund_referral_fee_amount + refund_commission_amount
            + refund_shipping_promotion_amount + refund_digital_services_fee_amount) as refund_settlements,
        -sum(inventory_lost_amount) filter (where not is_refund) as lost_damaged_by_mkt,
        -sum(inventory_missing_inbound_amount) filter (where not is_refund) as missing_returns,
        -sum(promotion_item_amount + referral_fee_amount + fba_fee_amount + awd_fee_amount + other_fee_amount) filter (where not is_refund) as total_fees,
        -sum(referral_fee_amount) filter (where not is_refund) as total_selling_fees,
        -sum(fba_fee_amount) filter (where not is_refund) as fba_fees,
        -sum(awd_fee_amount) filter (where not is_refund) as awd_fees,
    from settlements
    group by all
),

-- Rules 6 and 7: returned units' cost back in stock (SELLABLE) offsets refunds, any other disposition adds to them.
return_measures as (
    select
        seller_or_vendor_id as connection_id,
        date,
        child_asin,
        sku,
        sum(quantity) as return_units,
        sum(coalesce(cogs_total_value, 0)) as return_cogs,
        coalesce(sum(cogs_total_value) filter (where upper(detailed_disposition) = 'SELLABLE'), 0)
            - coalesce(sum(cogs_total_value) filter (where upper(detailed_disposition) <> 'SELLABLE'), 0) as refund_returns,
        count(*) as costable_lines,
        count(*) filter (where not cogs_present) as uncosted_lines,
    from marts.mkt_returns
    where seller_or_vendor_id in $connection_ids and date between $from::date and $to::date
    group by all
),

ad_measures as (
    select
        seller_or_vendor_id as connection_id,
        date,
        child_asin,
        sku,
        sum(cost) as ad_spend,
        sum(sales) as ad_sales,
        sum(orders) as ad_orders,
        sum(units_sold) as ad_units_sold,
        sum(clicks) as ad_clicks,
        sum(impressions) as ad_impressions,
    from marts.mkt_ads_performance_by_asin_and_date
    where seller_or_vendor_id in $connection_ids and date between $from::date and $to::date
    group by all
),

measures as (
    select
        connection_id,
        date,
        child_asin,
        sku,
        sum(total_sales) as total_sales,
        sum(sales_tax) as sales_tax,
        sum(sales_tax_missing_items) as sales_tax_missing_items,
        sum(total_sales_b2b) as total_sales_b2b,
        sum(total_sales_b2c) as total_sales_b2c,
        sum(unshipped_sales) as unshipped_sales,
        sum(total_units_b2b) as total_units_b2b,
        sum(total_units_b2c) as total_units_b2c,
        sum(total_units_sold) as total_units_sold,
        sum(total_units_sold_b2b) as total_units_sold_b2b,
        sum(total_units_sold_b2c) as total_units_sold_b2c,
        sum(total_orders) as total_orders,
        sum(refund_count) as refund_count,
        sum(refund_settlements) as refund_settlements,
        sum(refund_returns) as refund_returns,
        sum(return_units) as return_units,
        sum(return_cogs) as return_cogs,
        sum(cogs_item) as cogs_item,
        sum(cogs_shipping) as cogs_shipping,
        sum(cogs_shipped) as cogs_shipped,
        sum(lost_damaged_by_mkt) as lost_damaged_by_mkt,
        sum(missing_returns) as missing_returns,
        sum(costable_lines) as costable_lines,
        sum(uncosted_lines) as uncosted_lines,
        sum(total_fees) as total_fees,
        sum(total_selling_fees) as total_selling_fees,
        sum(fba_fees) as fba_fees,
        sum(awd_fees) as awd_fees,
        sum(ad_spend) as ad_spend,
        sum(ad_sales) as ad_sales,
        sum(ad_orders) as ad_orders,
        sum(ad_units_sold) as ad_units_sold,
        sum(ad_clicks) as ad_clicks,
        sum(ad_impressions) as ad_impressions,
    from (
        select * from order_measures
        union all by name
        select * from settlement_measures
        union all by name
        select * from return_measures
        union all by name
        select * from ad_measures
    )
    group by all
),

-- Rule 12 and docs/design/PROFIT.md "Traffic": the child ASIN's traffic of the day goes to each of its SKU rows.
traffic as (
    select
        connection_id,
        date,
        child_asin,
        coalesce(buy_box_percentage, 0) as buybox,
        coalesce(buy_box_percentage_b2b, 0) as buybox_b2b,
        coalesce(sessions, 0) as sessions,
        coalesce(sessions_b2b, 0) as sessions_b2b,
        coalesce(page_views, 0) as page_views,
        coalesce(page_views_b2b, 0) as page_views_b2b,
    from staging.stg_mkt__sales_and_traffic
    where connection_id in $connection_ids and date between $from::date and $to::date and asin_granularity = 'CHILD'
),

with_traffic as (
    select
        measures.* exclude (connection_id, date, child_asin),
        coalesce(measures.connection_id, traffic.connection_id) as connection_id,
        coalesce(measures.date, traffic.date) as date,
        coalesce(measures.child_asin, traffic.child_asin) as child_asin,
        traffic.* exclude (connection_id, date, child_asin),
    from measures
    full join traffic
        on traffic.connection_id = measures.connection_id
        and traffic.date = measures.date
        and traffic.child_asin = measures.child_asin
),

sku_names as (
    select connection_id, sku, product_name from intermediate.int_sku_asins
    where connection_id in $connection_ids
),

parent_asins as (
    select connection_id, child_asin, parent_asin from intermediate.int_child_asin_parents
    where connection_id in $connection_ids
),

amounts as (
    select
        with_traffic.connection_id,
        with_traffic.date,
        with_traffic.child_asin,
        with_traffic.sku,
        coalesce(with_traffic.total_sales, 0) as total_sales,
        coalesce(with_traffic.sales_tax, 0) as sales_tax,
        coalesce(with_traffic.sales_tax_missing_items, 0) as sales_tax_missing_items,
        coalesce(with_traffic.total_sales_b2b, 0) as total_sales_b2b,
        coalesce(with_traffic.total_sales_b2c, 0) as total_sales_b2c,
        coalesce(with_traffic.unshipped_sales, 0) as unshipped_sales,
        coalesce(with_traffic.total_units_b2b, 0) as total_units_b2b,
        coalesce(with_traffic.total_units_b2c, 0) as total_units_b2c,
        coalesce(with_traffic.total_units_sold, 0) as total_units_sold,
        coalesce(with_traffic.total_units_sold_b2b, 0) as total_units_sold_b2b,
        coalesce(with_traffic.total_units_sold_b2c, 0) as total_units_sold_b2c,
        coalesce(with_traffic.total_orders, 0) as total_orders,
        coalesce(with_traffic.refund_count, 0) as refund_count,
        coalesce(with_traffic.refund_settlements, 0) + coalesce(with_traffic.refund_returns, 0) as refund_cost,
        coalesce(with_traffic.return_units, 0) as return_units,
        coalesce(with_traffic.return_cogs, 0) as return_cogs,
        coalesce(with_traffic.cogs_item, 0) as cogs_item,
        coalesce(with_traffic.cogs_shipping, 0) as cogs_shipping,
        coalesce(with_traffic.lost_damaged_by_mkt, 0) as lost_damaged_by_mkt,
        coalesce(with_traffic.missing_returns, 0) as missing_returns,
        coalesce(with_traffic.cogs_shipped, 0) + coalesce(with_traffic.lost_damaged_by_mkt, 0) + coalesce(with_traffic.missing_returns, 0) as cogs_total,
        -- Rule 8: true when every shipped item and return has a cost, false if any lacks one, null when none contributes.
        if(coalesce(with_traffic.costable_lines, 0) = 0, null, with_traffic.uncosted_lines = 0) as cogs_present,
        coalesce(with_traffic.total_fees, 0) as total_fees,
        coalesce(with_traffic.total_selling_fees, 0) as total_selling_fees,
        coalesce(with_traffic.fba_fees, 0) as fba_fees,
        coalesce(with_traffic.awd_fees, 0) as awd_fees,
        coalesce(with_traffic.ad_spend, 0) as ad_spend,
        coalesce(with_traffic.ad_sales, 0) as ad_sales,
        coalesce(with_traffic.ad_orders, 0) as ad_orders,
        coalesce(with_traffic.ad_units_sold, 0) as ad_units_sold,
        coalesce(with_traffic.ad_clicks, 0) as ad_clicks,
        coalesce(with_traffic.ad_impressions, 0) as ad_impressions,
        coalesce(with_traffic.buybox, 0) as avg_buybox_percentage,
        coalesce(with_traffic.buybox_b2b, 0) as avg_buybox_percentage_b2b,
        -- Rule 12's quotient is undefined when page views equal business page views: null (docs/design/PROFIT.md "Traffic"),
        -- also for a child ASIN without traffic that day (0 = 0).
        case
            when coalesce(with_traffic.page_views, 0) <> coalesce(with_traffic.page_views_b2b, 0) then
                (with_traffic.buybox * with_traffic.page_views - with_traffic.buybox_b2b * with_traffic.page_views_b2b)
                / (with_traffic.page_views - with_traffic.page_views_b2b)
        end as avg_buybox_percentage_b2c,
        coalesce(with_traffic.sessions, 0) as total_sessions,
        coalesce(with_traffic.sessions_b2b, 0) as sessions_b2b,
        greatest(coalesce(with_traffic.sessions, 0) - coalesce(with_traffic.sessions_b2b, 0), 0) as sessions_b2c,
        coalesce(with_traffic.page_views, 0) as total_page_views,
        coalesce(with_traffic.page_views_b2b, 0) as page_views_b2b,
        greatest(coalesce(with_traffic.page_views, 0) - coalesce(with_traffic.page_views_b2b, 0), 0) as page_views_b2c,
    from with_traffic
),

-- Rule 11.
final as (
    select
        contexts.marketplace_id,
        contexts.marketplace_country_code,
        contexts.marketplace_country_name,
        contexts.seller_or_vendor_id,
        contexts.seller_or_vendor_name,
        contexts.marketplace_seller_id,
        amounts.date,
        parent_asins.parent_asin,
        amounts.child_asin,
        amounts.sku,
        amounts.total_sales - amounts.sales_tax - amounts.total_fees - amounts.cogs_total - amounts.ad_spend + amounts.refund_cost as profit,
        amounts.sales_tax + amounts.total_fees + amounts.cogs_total + amounts.ad_spend - amounts.refund_cost as total_cost,
        if(amounts.ad_sales = 0, null, round(amounts.ad_spend / amounts.ad_sales * 100, 4)) as acos,
        if(amounts.total_sales = 0, null, round(amounts.ad_spend / amounts.total_sales * 100, 4)) as tacos,
        if(total_cost = 0, null, round(profit / total_cost * 100, 4)) as roi,
        amounts.* exclude (connection_id, date, child_asin, sku),
        sku_names.product_name,
        null::varchar as product_brand,
        null::varchar as product_category_root,
        null::varchar as product_category_node,
        null::varchar as product_image_url,
        if(amounts.child_asin is null, null, 'https://www.' || contexts.domain || '/dp/' || amounts.child_asin) as product_url,
        contexts.currency,
    from amounts
    join contexts on contexts.connection_id = amounts.connection_id
    left join sku_names on sku_names.connection_id = amounts.connection_id and sku_names.sku = amounts.sku
    left join parent_asins on parent_asins.connection_id = amounts.connection_id and parent_asins.child_asin = amounts.child_asin
)

select * from final
