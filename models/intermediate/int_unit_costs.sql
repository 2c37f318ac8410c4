-- Unit costs as non-overlapping validity periods per lookup key: one row per connection, SKU key, ASIN key and fromDate.
with cogs as (
    select
        cogs.*,
        nullif(cogs.asin, '') as asin_or_null,
        marketplaces.currency as marketplace_currency,
    from control.cogs as cogs
    join control.connections as connections on connections.id = cogs.connection_id
    left join seeds.marketplaces as marketplaces on marketplaces.marketplace_id = connections.marketplace_id
),

-- docs/design/PROFIT.md "Unit cost": an item matches on SKU and ASIN, on SKU alone when its ASIN is null;
-- a sales and traffic row without SKU matches on its ASIN alone. Each way of matching is a key.
keyed as (
    select *, sku as sku_key, coalesce(asin_or_null, '') as asin_key from cogs
    union all
    select *, sku, '' from cogs
    union all
    select *, '', asin_or_null from cogs where asin_or_null is not null
),

-- Among the rows of one fromDate, the one in the marketplace's currency wins.
chosen as (
    select *
    from keyed
    qualify row_number() over (
        partition by connection_id, sku_key, asin_key, from_date
        order by (cost_currency = marketplace_currency) desc nulls last, cost_currency, asin, sku
    ) = 1
),

-- The latest fromDate on or before a day wins: a row applies until the day before the key's next fromDate.
periods as (
    select
        connection_id,
        sku_key,
        asin_key,
        from_date as valid_from,
        coalesce(lead(from_date) over (partition by connection_id, sku_key, asin_key order by from_date) - interval 1 day, date '9999-12-31')::date as valid_to,
        cost_item_value,
        cost_item_shipping_value,
        cost_currency,
        item_supplier_name,
    from chosen
)

select * from periods
