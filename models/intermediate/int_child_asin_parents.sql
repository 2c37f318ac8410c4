-- The parent ASIN of each child ASIN, from the latest sales and traffic report naming it: one row per connection and child ASIN.
with traffic as (
    select * from staging.stg_mkt__sales_and_traffic
    where parent_asin is not null
),

parents as (
    select connection_id, child_asin, arg_max(parent_asin, date) as parent_asin
    from traffic
    group by all
)

select * from parents
