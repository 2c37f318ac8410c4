-- How recent each connection's sponsored products targeting and search-term reports are: one row per connection and
-- report, with its latest date.
select connection_id, 'target' as report, max(date) as as_of from staging.stg_ads__sp_targeting group by all
union all
select connection_id, 'search_term', max(date) from staging.stg_ads__sp_search_term group by all
