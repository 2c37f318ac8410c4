-- Profit measure rule 12's traffic (spec 001) worked out a second way from the child-ASIN rows of the sales and
-- traffic report: one row per connection, date and child ASIN (`by_asin`, what each SKU row of that ASIN shows) and
-- one per connection and date (the account's: averages over the child ASINs, sums).
select
    connection_id, date, child_asin, grouping(child_asin) = 0 as by_asin,
    avg(coalesce(buy_box_percentage, 0)) as avg_buybox_percentage,
    avg(coalesce(buy_box_percentage_b2b, 0)) as avg_buybox_percentage_b2b,
    -- Undefined (a division by zero made null) where page views equal business page views.
    avg((coalesce(buy_box_percentage, 0) * coalesce(page_views, 0) - coalesce(buy_box_percentage_b2b, 0) * coalesce(page_views_b2b, 0))
        / nullif(coalesce(page_views, 0) - coalesce(page_views_b2b, 0), 0)) as avg_buybox_percentage_b2c,
    sum(coalesce(sessions, 0)) as total_sessions,
    sum(coalesce(sessions_b2b, 0)) as sessions_b2b,
    sum(case when coalesce(sessions, 0) > coalesce(sessions_b2b, 0) then coalesce(sessions, 0) - coalesce(sessions_b2b, 0) else 0 end) as sessions_b2c,
    sum(coalesce(page_views, 0)) as total_page_views,
    sum(coalesce(page_views_b2b, 0)) as page_views_b2b,
    sum(case when coalesce(page_views, 0) > coalesce(page_views_b2b, 0) then coalesce(page_views, 0) - coalesce(page_views_b2b, 0) else 0 end) as page_views_b2c,
from staging.stg_mkt__sales_and_traffic
where asin_granularity = 'CHILD'
group by grouping sets ((connection_id, date, child_asin), (connection_id, date))
