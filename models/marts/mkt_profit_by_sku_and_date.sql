-- Daily profit and cost per child ASIN and SKU: one row per connection, date, child ASIN and SKU (spec 001 "Profit measure rules").
-- One statement builds several connections: every CTE keeps its rows' connection_id, and every aggregation and
-- join is by it too, so that no connection's rows meet another's.
with contexts as (
    select * from intermediate.int_connections_described
    where connection_id in $connection_ids
),

-- Rules 1-10: the sums of each line's part (intermediate.int_profit_order_lines, _settlement_lines, _return_lines).
order_measures as (
    select connection_id, date, child_asin, sku, sum(columns(* exclude (connection_id, date, child_asin, sku, shipped_order_id))), count(distinct shipped_order_id) as total_orders,
    from intermediate.int_profit_order_lines
    where connection_id in $connection_ids and date between $from::date and $to::date
    group by all
),

-- Settlement events without SKU are account-only (mkt_profit_by_date).
settlement_measures as (
    select connection_id, date, child_asin, sku, sum(columns(* exclude (connection_id, date, child_asin, sku))),
    from intermediate.int_profit_settlement_lines
    where connection_id in $connection_ids and date between $from::date and $to::date and sku is not null
    group by all
),

return_measures as (
    select connection_id, date, child_asin, sku, sum(columns(* exclude (connection_id, date, child_asin, sku))),
    from intermediate.int_profit_return_lines
    where connection_id in $connection_ids and date between $from::date and $to::date
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
    select connection_id, date, child_asin, sku, sum(columns(* exclude (connection_id, date, child_asin, sku))),
    from (
        select * from order_measures
        union all by name select * from settlement_measures
        union all by name select * from return_measures
        union all by name select * from ad_measures
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
        coalesce(columns(with_traffic.* exclude (
            connection_id, date, child_asin, sku, costable_lines, uncosted_lines, buybox, buybox_b2b, sessions, sessions_b2b, page_views, page_views_b2b
        )), 0),
        -- Rule 8: true when every shipped item and return has a cost, false if any lacks one, null when none contributes.
        if(coalesce(with_traffic.costable_lines, 0) = 0, null, with_traffic.uncosted_lines = 0) as cogs_present,
        coalesce(with_traffic.buybox, 0) as avg_buybox_percentage,
        coalesce(with_traffic.buybox_b2b, 0) as avg_buybox_percentage_b2b,
        -- Null also for a child ASIN without traffic that day (0 page views of each kind).
        buybox_b2c(with_traffic.buybox, with_traffic.buybox_b2b, with_traffic.page_views, with_traffic.page_views_b2b)
            as avg_buybox_percentage_b2c,
        coalesce(with_traffic.sessions, 0) as total_sessions,
        coalesce(with_traffic.sessions_b2b, 0) as sessions_b2b,
        b2c_part(with_traffic.sessions, with_traffic.sessions_b2b) as sessions_b2c,
        coalesce(with_traffic.page_views, 0) as total_page_views,
        coalesce(with_traffic.page_views_b2b, 0) as page_views_b2b,
        b2c_part(with_traffic.page_views, with_traffic.page_views_b2b) as page_views_b2c,
    from with_traffic
),

-- Rule 11.
final as (
    select
        common_columns.*,
        amounts.date,
        parent_asins.parent_asin,
        amounts.child_asin,
        amounts.sku,
        profit_of(
            amounts.total_sales, amounts.sales_tax, amounts.total_fees, amounts.cogs_total, amounts.ad_spend, amounts.refund_cost
        ) as profit,
        total_cost_of(amounts.sales_tax, amounts.total_fees, amounts.cogs_total, amounts.ad_spend, amounts.refund_cost) as total_cost,
        percent_of(amounts.ad_spend, amounts.ad_sales) as acos,
        percent_of(amounts.ad_spend, amounts.total_sales) as tacos,
        percent_of(profit, total_cost) as roi,
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
