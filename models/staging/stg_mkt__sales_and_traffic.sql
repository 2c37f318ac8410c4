-- By-ASIN rows of one-day sales and traffic reports, latest report per day: one row per connection, date, granularity, child ASIN and SKU.
with landed as (
    select * from raw.get_sales_and_traffic_report
),

latest as (
    select *
    from landed
    qualify row_number() over (
        partition by _connection_id, date, coalesce(asin_granularity, ''), child_asin, coalesce(sku, '')
        order by _landed_at desc, _line_number desc
    ) = 1
),

renamed as (
    select
        _connection_id as connection_id,
        _marketplace_id as marketplace_id,
        date,
        coalesce(asin_granularity, if(sku is null, 'CHILD', 'SKU')) as asin_granularity,
        parent_asin,
        child_asin,
        sku,
        currency_code as currency,
        * exclude (_connection_id, _marketplace_id, date, asin_granularity, parent_asin, child_asin, sku, currency_code, _extra, _landed_at),
    from latest
)

select * from renamed
-- Date order lets date-window readers skip row groups.
order by connection_id, date
