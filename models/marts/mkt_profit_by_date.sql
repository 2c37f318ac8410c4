-- Daily account-level profit and cost: one row per connection, currency and date (spec 001 "Profit measure rules").
-- One statement builds several connections: every CTE keeps its rows' connection_id, and every aggregation, join,
-- window and calendar is by it too, so that no connection's rows meet another's.
with contexts as (
    select * from intermediate.int_connections_described
    where connection_id in $connection_ids
),

-- Rules 1-10 over every line of the day (intermediate.int_profit_order_lines, _settlement_lines, _return_lines).
order_measures as (
    select connection_id, date, sum(columns(* exclude (connection_id, date, child_asin, sku, shipped_order_id))), count(distinct shipped_order_id) as total_orders,
    from intermediate.int_profit_order_lines
    where connection_id in $connection_ids and date between $from::date and $to::date
    group by all
),

settlement_measures as (
    select connection_id, date, sum(columns(* exclude (connection_id, date, child_asin, sku))),
    from intermediate.int_profit_settlement_lines
    where connection_id in $connection_ids and date between $from::date and $to::date
    group by all
),

return_measures as (
    select connection_id, date, sum(columns(* exclude (connection_id, date, child_asin, sku))),
    from intermediate.int_profit_return_lines
    where connection_id in $connection_ids and date between $from::date and $to::date
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
        avg(buybox_b2c(buy_box_percentage, buy_box_percentage_b2b, page_views, page_views_b2b)) as avg_buybox_percentage_b2c,
        sum(coalesce(sessions, 0)) as total_sessions,
        sum(coalesce(sessions_b2b, 0)) as sessions_b2b,
        sum(b2c_part(sessions, sessions_b2b)) as sessions_b2c,
        sum(coalesce(page_views, 0)) as total_page_views,
        sum(coalesce(page_views_b2b, 0)) as page_views_b2b,
        sum(b2c_part(page_views, page_views_b2b)) as page_views_b2c,
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
    select * from intermediate.int_ad_group_skus
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
    select * from intermediate.int_ad_report_dates
    where connection_id in $connection_ids
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

-- One row per report of the day: a report with no row that day has none, and its columns below are null.
report_summaries as (
    select
        connection_id,
        date,
        report,
        coalesce(sum(spend), 0) as reported_spend,
        coalesce(sum(sales), 0) as reported_sales,
        count(*) as count,
        coalesce(sum(sales) filter (where estimated_profit_after_ads is not null), 0) as costed_sales,
        coalesce(sum(spend) filter (where estimated_profit_after_ads is not null), 0) as costed_spend,
        0 as unsupported_sales,
        coalesce(sum(sales) filter (where estimated_profit_after_ads is null), 0) as missing_cost_sales,
        coalesce(sum(estimated_profit_after_ads), 0) as costed_estimated_profit_after_ads,
        coalesce(sum(spend) filter (where sales = 0 and is_mature), 0) as mature_spend_without_sales,
    from estimated
    group by all
),

-- The reports side by side, target's columns then search_term's: target_reported_spend, …, search_term_reported_spend, ….
attribution_summaries as (
    select * from report_summaries pivot (
        first(reported_spend) as reported_spend,
        first(reported_sales) as reported_sales,
        first(count) as count,
        first(costed_sales) as costed_sales,
        first(costed_spend) as costed_spend,
        first(unsupported_sales) as unsupported_sales,
        first(missing_cost_sales) as missing_cost_sales,
        first(costed_estimated_profit_after_ads) as costed_estimated_profit_after_ads,
        first(mature_spend_without_sales) as mature_spend_without_sales
        for report in ('target', 'search_term')
    )
),

measures as (
    select connection_id, date, sum(columns(* exclude (connection_id, date))),
    from (
        select * from order_measures
        union all by name select * from settlement_measures
        union all by name select * from return_measures
        union all by name select * from ad_measures
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
        coalesce(columns(measures.* exclude (connection_id, date, costable_lines, uncosted_lines)), 0),
        -- Rule 8: true when every shipped item and return has a cost, false if any lacks one, null when none contributes.
        if(coalesce(measures.costable_lines, 0) = 0, null, measures.uncosted_lines = 0) as cogs_present,
        -- All null when no summary of that report exists for the day.
        columns('^(target|search_term)_') as 'ad_\0',
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
        common_columns.*,
        contexts.currency,
        amounts.* exclude (connection_id),
        profit_of(
            amounts.total_sales, amounts.sales_tax, amounts.total_fees, amounts.cogs_total, amounts.ad_spend, amounts.refund_cost
        ) as profit,
        total_cost_of(amounts.sales_tax, amounts.total_fees, amounts.cogs_total, amounts.ad_spend, amounts.refund_cost) as total_cost,
        percent_of(amounts.ad_spend, amounts.ad_sales) as acos,
        percent_of(amounts.ad_spend, amounts.total_sales) as tacos,
        percent_of(profit, total_cost) as roi,
    from amounts
    join contexts on contexts.connection_id = amounts.connection_id
)

select * from final
