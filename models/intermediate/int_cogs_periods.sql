-- Unit costs as validity periods: one row per connection, ASIN, SKU, currency and fromDate, valid until the next fromDate of the item.
with cogs as (
    select * from control.cogs
),

-- PROFIT.md: the latest fromDate on or before the day wins, whatever its currency.
from_dates as (
    select
        connection_id,
        asin,
        sku,
        from_date,
        coalesce(lead(from_date) over (partition by connection_id, asin, sku order by from_date) - interval 1 day, date '9999-12-31')::date as valid_to,
    from (select distinct connection_id, asin, sku, from_date from cogs)
),

periods as (
    select
        cogs.connection_id,
        nullif(cogs.asin, '') as asin,
        cogs.sku,
        cogs.cost_currency,
        cogs.from_date as valid_from,
        from_dates.valid_to,
        cogs.cost_item_value,
        cogs.cost_item_shipping_value,
        cogs.item_supplier_name,
    from cogs
    join from_dates using (connection_id, asin, sku, from_date)
)

select * from periods
