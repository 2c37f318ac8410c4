-- Daily account-level profit and cost: one row per connection, currency and date (spec 001 "Profit measure rules").
-- One statement builds several connections: every CTE keeps its rows' connection_id, and every aggregation, join,
-- window and calendar is by it too, so that no connection's rows meet another's.
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

-- Rules 1-5 and the shipped part of rule 8, over every order line of the day.
order_measures as (
    select
        order_items.seller_or_vendor_id as connection_id,
        order_items.date,
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
    where seller_or_vendor_id in $connection_ids and date between $from::date and $to::date
),

-- Rules 6, 8, 9 and 10 over every settlement event, with or without SKU.
settlement_measures as (
    select
        seller_or_vendor_id as connection_id,
        date,
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

return_measures as (
    select
        seller_or_vendor_id as connection_id,
        date,
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

-- docs/design/PROFIT.md "Ads", account column: every campaign type, sponsored TV separated, DSP included.
ad_rows as (
    select connection_id, date, cost, 0 as tv_cost, sales7d as sales, purchases7d as orders, units_sold_clicks7d as units, clicks, impressions
    from staging.stg_ads__sp_advertised_product
    where connection_id in $connection_ids and date between $from::date and $to::date
    union all
    select connection_id, date, cost, 0, sales, purchases, units_sold, clicks, impressions
    from staging.stg_ads__sb_campaigns
    where connection_id in $connection_ids and date between $from::date and $to::date
    union all
    select connection_id, date, cost, 0, sales, purchases, units_sold, clicks, impressions
    from staging.stg_ads__sd_advertised_product
    where connection_id in $connection_ids and date between $from::date and $to::date
    union all
    -- Sponsored TV: spend only; its results and delivery stay out of the ad_* measures.
    select connection_id, date, cost, cost, 0, 0, 0, 0, 0
    from staging.stg_ads__st_campaigns
    where connection_id in $connection_ids and date between $from::date and $to::date
    union all
    select connection_id, date, total_cost, 0, sales14d, purchases14d, units_sold14d, click_throughs, impressions
    from staging.stg_ads__dsp_campaigns
    where connection_id in $connection_ids and date between $from::date and $to::date
),

ad_measures as (
    select
        connection_id,
        date,
        sum(coalesce(cost, 0)) as ad_spend,
        sum(coalesce(tv_cost, 0)) as sponsored_tv_ad_spend,
        sum(coalesce(sales, 0)) as ad_sales,
        sum(coalesce(orders, 0)) as ad_orders,
        sum(coalesce(units, 0)) as ad_units_sold,
        sum(coalesce(clicks, 0)) as ad_clicks,
        sum(coalesce(impressions, 0)) as ad_impressions,
    from ad_rows
    group by all
),

-- docs/design/PROFIT.md "Traffic", account: buy-box plain averages over child ASINs with traffic, sessions and page views summed.
traffic_measures as (
    select
        connection_id,
        date,
        avg(coalesce(buy_box_percentage, 0)) as avg_buybox_percentage,
        avg(coalesce(buy_box_percentage_b2b, 0)) as avg_buybox_percentage_b2b,
        avg(
            if(coalesce(page_views, 0) = coalesce(page_views_b2b, 0), null,
                (coalesce(buy_box_percentage, 0) * coalesce(page_views, 0) - coalesce(buy_box_percentage_b2b, 0) * coalesce(page_views_b2b, 0))
                / (coalesce(page_views, 0) - coalesce(page_views_b2b, 0)))
        ) as avg_buybox_percentage_b2c,
        sum(coalesce(sessions, 0)) as total_sessions,
        sum(coalesce(sessions_b2b, 0)) as sessions_b2b,
        sum(greatest(coalesce(sessions, 0) - coalesce(sessions_b2b, 0), 0)) as sessions_b2c,
        sum(coalesce(page_views, 0)) as total_page_views,
        sum(coalesce(page_views_b2b, 0)) as page_views_b2b,
        sum(greatest(coalesce(page_views, 0) - coalesce(page_views_b2b, 0), 0)) as page_views_b2c,
        true as has_traffic,
    from staging.stg_mkt__sales_and_traffic
    where connection_id in $connection_ids and date between $from::date and $to::date and asin_granularity = 'CHILD'
    group by all
),

-- Target and search-term summaries: see the .yml for how each row's profit after ads is estimated.
margin_days as (
    select
        seller_or_vendor_id as connection_id,
        sku,
        date,
        sum(profit + ad_spend) as profit_before_ads,
        sum(total_sales) as sales,
        bool_or(cogs_present = false) as has_uncosted,
    from marts.mkt_profit_by_sku_and_date
    where seller_or_vendor_id in $connection_ids and sku is not null
        and date between $from::date - interval 29 day and $to::date
    group by all
),

ad_group_skus as (
    select distinct connection_id, campaign_id, ad_group_id, advertised_sku as sku
    from staging.stg_ads__sp_advertised_product
    where connection_id in $connection_ids
),

attribution_rows as (
    select connection_id, 'target' as report, date, campaign_id, ad_group_id, concat_ws('|', date, campaign_id, ad_group_id, keyword_id, targeting) as row_id, coalesce(cost, 0) as spend, coalesce(sales7d, 0) as sales
    from staging.stg_ads__sp_targeting
    where connection_id in $connection_ids and date between $from::date and $to::date
    union all
    select connection_id, 'search_term', date, campaign_id, ad_group_id, concat_ws('|', date, campaign_id, ad_group_id, keyword_id, search_term), coalesce(cost, 0), coalesce(sales7d, 0)
    from staging.stg_ads__sp_search_term
    where connection_id in $connection_ids and date between $from::date and $to::date
),

-- A report's data is as recent as its latest date: spend is mature once 7 days (the SP window) have passed since.
-- Per connection: a connection without rows of a report has no attribution rows of it to join either.
report_as_of as (
    select connection_id, 'target' as report, max(date) as as_of from staging.stg_ads__sp_targeting
    where connection_id in $connection_ids group by all
    union all
    select connection_id, 'search_term', max(date) from staging.stg_ads__sp_search_term
    where connection_id in $connection_ids group by all
),

-- The days of each connection's attribution rows, from 29 days before the first, for the trailing 30 days.
attribution_days as (
    select connection_id, unnest(generate_series(min(date) - interval 29 day, max(date), interval 1 day))::date as date
    from attribution_rows
    group by connection_id
),

-- A dense calendar per advertised SKU, so that a day without a SKU row still has its trailing 30 days.
sku_margins as (
    select
        skus.connection_id,
        skus.sku,
        days.date,
        sum(coalesce(margin_days.profit_before_ads, 0)) over trailing_days as profit_before_ads,
        sum(coalesce(margin_days.sales, 0)) over trailing_days as sales,
        coalesce(bool_or(margin_days.has_uncosted) over trailing_days, false) as has_uncosted,
    from (select distinct connection_id, sku from ad_group_skus) as skus
    join attribution_days as days using (connection_id)
    left join margin_days using (connection_id, sku, date)
    window trailing_days as (partition by skus.connection_id, skus.sku order by days.date rows between 29 preceding and current row)
),

row_margins as (
    select
        attribution_rows.connection_id,
        attribution_rows.report,
        attribution_rows.row_id,
        count(ad_group_skus.sku) as skus,
        count(sku_margins.sku) filter (where sku_margins.sales > 0 and not sku_margins.has_uncosted) as costed_skus,
        avg(sku_margins.profit_before_ads / sku_margins.sales) filter (where sku_margins.sales > 0 and not sku_margins.has_uncosted) as margin_rate,
    from attribution_rows
    left join ad_group_skus using (connection_id, campaign_id, ad_group_id)
    left join sku_margins
        on sku_margins.connection_id = attribution_rows.connection_id
        and sku_margins.sku = ad_group_skus.sku
        and sku_margins.date = attribution_rows.date
    group by all
),

estimated as (
    select
        attribution_rows.*,
        attribution_rows.date + interval 7 day <= report_as_of.as_of as is_mature,
        case
            when attribution_rows.sales = 0 then -attribution_rows.spend
            when row_margins.skus > 0 and row_margins.costed_skus = row_margins.skus
                then round(attribution_rows.sales * row_margins.margin_rate::decimal(38,10) - attribution_rows.spend, 4)
        end as estimated_profit_after_ads,
    from attribution_rows
    join row_margins using (connection_id, report, row_id)
    join report_as_of using (connection_id, report)
),

attribution_summaries as (
    select
        connection_id,
        date,
        sum(spend) filter (where report = 'target') as ad_target_reported_spend,
        sum(sales) filter (where report = 'target') as ad_target_reported_sales,
        count(*) filter (where report = 'target') as ad_target_count,
        sum(sales) filter (where report = 'target' and estimated_profit_after_ads is not null) as ad_target_costed_sales,
        sum(spend) filter (where report = 'target' and estimated_profit_after_ads is not null) as ad_target_costed_spend,
        0 as ad_target_unsupported_sales,
        sum(sales) filter (where report = 'target' and estimated_profit_after_ads is null) as ad_target_missing_cost_sales,
        sum(estimated_profit_after_ads) filter (where report = 'target') as ad_target_costed_estimated_profit_after_ads,
        sum(spend) filter (where report = 'target' and sales = 0 and is_mature) as ad_target_mature_spend_without_sales,
        sum(spend) filter (where report = 'search_term') as ad_search_term_reported_spend,
        sum(sales) filter (where report = 'search_term') as ad_search_term_reported_sales,
        count(*) filter (where report = 'search_term') as ad_search_term_count,
        sum(sales) filter (where report = 'search_term' and estimated_profit_after_ads is not null) as ad_search_term_costed_sales,
        sum(spend) filter (where report = 'search_term' and estimated_profit_after_ads is not null) as ad_search_term_costed_spend,
        0 as ad_search_term_unsupported_sales,
        sum(sales) filter (where report = 'search_term' and estimated_profit_after_ads is null) as ad_search_term_missing_cost_sales,
        sum(estimated_profit_after_ads) filter (where report = 'search_term') as ad_search_term_costed_estimated_profit_after_ads,
        sum(spend) filter (where report = 'search_term' and sales = 0 and is_mature) as ad_search_term_mature_spend_without_sales,
        bool_or(report = 'target') as has_target,
        bool_or(report = 'search_term') as has_search_term,
    from estimated
    group by all
),

measures as (
    select
        connection_id,
        date,
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
        sum(sponsored_tv_ad_spend) as sponsored_tv_ad_spend,
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

days as (
    select connection_id, date from measures
    union
    select connection_id, date from traffic_measures
    union
    select connection_id, date from attribution_summaries
),

amounts as (
    select
        days.connection_id,
        days.date,
        coalesce(measures.total_sales, 0) as total_sales,
        coalesce(measures.sales_tax, 0) as sales_tax,
        coalesce(measures.sales_tax_missing_items, 0) as sales_tax_missing_items,
        coalesce(measures.total_sales_b2b, 0) as total_sales_b2b,
        coalesce(measures.total_sales_b2c, 0) as total_sales_b2c,
        coalesce(measures.unshipped_sales, 0) as unshipped_sales,
        coalesce(measures.total_units_b2b, 0) as total_units_b2b,
        coalesce(measures.total_units_b2c, 0) as total_units_b2c,
        coalesce(measures.total_units_sold, 0) as total_units_sold,
        coalesce(measures.total_units_sold_b2b, 0) as total_units_sold_b2b,
        coalesce(measures.total_units_sold_b2c, 0) as total_units_sold_b2c,
        coalesce(measures.total_orders, 0) as total_orders,
        coalesce(measures.refund_count, 0) as refund_count,
        coalesce(measures.refund_settlements, 0) + coalesce(measures.refund_returns, 0) as refund_cost,
        coalesce(measures.return_units, 0) as return_units,
        coalesce(measures.return_cogs, 0) as return_cogs,
        coalesce(measures.cogs_item, 0) as cogs_item,
        coalesce(measures.cogs_shipping, 0) as cogs_shipping,
        coalesce(measures.lost_damaged_by_mkt, 0) as lost_damaged_by_mkt,
        coalesce(measures.missing_returns, 0) as missing_returns,
        coalesce(measures.cogs_shipped, 0) + coalesce(measures.lost_damaged_by_mkt, 0) + coalesce(measures.missing_returns, 0) as cogs_total,
        if(coalesce(measures.costable_lines, 0) = 0, null, measures.uncosted_lines = 0) as cogs_present,
        coalesce(measures.total_fees, 0) as total_fees,
        coalesce(measures.total_selling_fees, 0) as total_selling_fees,
        coalesce(measures.fba_fees, 0) as fba_fees,
        coalesce(measures.awd_fees, 0) as awd_fees,
        coalesce(measures.ad_spend, 0) as ad_spend,
        coalesce(measures.sponsored_tv_ad_spend, 0) as sponsored_tv_ad_spend,
        coalesce(measures.ad_sales, 0) as ad_sales,
        coalesce(measures.ad_orders, 0) as ad_orders,
        coalesce(measures.ad_units_sold, 0) as ad_units_sold,
        coalesce(measures.ad_clicks, 0) as ad_clicks,
        coalesce(measures.ad_impressions, 0) as ad_impressions,
        -- All null when no summary of that report exists for the day.
        if(summaries.has_target, coalesce(summaries.ad_target_reported_spend, 0), null) as ad_target_reported_spend,
        if(summaries.has_target, coalesce(summaries.ad_target_reported_sales, 0), null) as ad_target_reported_sales,
        if(summaries.has_target, summaries.ad_target_count, null) as ad_target_count,
        if(summaries.has_target, coalesce(summaries.ad_target_costed_sales, 0), null) as ad_target_costed_sales,
        if(summaries.has_target, coalesce(summaries.ad_target_costed_spend, 0), null) as ad_target_costed_spend,
        if(summaries.has_target, summaries.ad_target_unsupported_sales, null) as ad_target_unsupported_sales,
        if(summaries.has_target, coalesce(summaries.ad_target_missing_cost_sales, 0), null) as ad_target_missing_cost_sales,
        if(summaries.has_target, coalesce(summaries.ad_target_costed_estimated_profit_after_ads, 0), null) as ad_target_costed_estimated_profit_after_ads,
        if(summaries.has_target, coalesce(summaries.ad_target_mature_spend_without_sales, 0), null) as ad_target_mature_spend_without_sales,
        if(summaries.has_search_term, coalesce(summaries.ad_search_term_reported_spend, 0), null) as ad_search_term_reported_spend,
        if(summaries.has_search_term, coalesce(summaries.ad_search_term_reported_sales, 0), null) as ad_search_term_reported_sales,
        if(summaries.has_search_term, summaries.ad_search_term_count, null) as ad_search_term_count,
        if(summaries.has_search_term, coalesce(summaries.ad_search_term_costed_sales, 0), null) as ad_search_term_costed_sales,
        if(summaries.has_search_term, coalesce(summaries.ad_search_term_costed_spend, 0), null) as ad_search_term_costed_spend,
        if(summaries.has_search_term, summaries.ad_search_term_unsupported_sales, null) as ad_search_term_unsupported_sales,
        if(summaries.has_search_term, coalesce(summaries.ad_search_term_missing_cost_sales, 0), null) as ad_search_term_missing_cost_sales,
        if(summaries.has_search_term, coalesce(summaries.ad_search_term_costed_estimated_profit_after_ads, 0), null) as ad_search_term_costed_estimated_profit_after_ads,
        if(summaries.has_search_term, coalesce(summaries.ad_search_term_mature_spend_without_sales, 0), null) as ad_search_term_mature_spend_without_sales,
        coalesce(traffic.avg_buybox_percentage, 0) as avg_buybox_percentage,
        coalesce(traffic.avg_buybox_percentage_b2b, 0) as avg_buybox_percentage_b2b,
        if(traffic.has_traffic, traffic.avg_buybox_percentage_b2c, 0) as avg_buybox_percentage_b2c,
        coalesce(traffic.total_sessions, 0) as total_sessions,
        coalesce(traffic.sessions_b2b, 0) as sessions_b2b,
        coalesce(traffic.sessions_b2c, 0) as sessions_b2c,
        coalesce(traffic.total_page_views, 0) as total_page_views,
        coalesce(traffic.page_views_b2b, 0) as page_views_b2b,
        coalesce(traffic.page_views_b2c, 0) as page_views_b2c,
    from days
    left join measures using (connection_id, date)
    left join traffic_measures as traffic using (connection_id, date)
    left join attribution_summaries as summaries using (connection_id, date)
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
        contexts.currency,
        amounts.* exclude (connection_id),
        amounts.total_sales - amounts.sales_tax - amounts.total_fees - amounts.cogs_total - amounts.ad_spend + amounts.refund_cost as profit,
        amounts.sales_tax + amounts.total_fees + amounts.cogs_total + amounts.ad_spend - amounts.refund_cost as total_cost,
        if(amounts.ad_sales = 0, null, round(amounts.ad_spend / amounts.ad_sales * 100, 4)) as acos,
        if(amounts.total_sales = 0, null, round(amounts.ad_spend / amounts.total_sales * 100, 4)) as tacos,
        if(total_cost = 0, null, round(profit / total_cost * 100, 4)) as roi,
    from amounts
    join contexts on contexts.connection_id = amounts.connection_id
)

select * from final
