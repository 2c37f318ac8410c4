-- Ad cost and attributed results per advertised child ASIN and SKU and date: one row per connection, date, ad product, child ASIN and SKU.
-- A statement builds several connections: every CTE below keeps connection_id, and every join, window and group is per connection.
with contexts as (
    select * from intermediate.int_connections_described
    where connection_id in $connection_ids
),

sponsored_products as (
    select
        connection_id,
        date,
        'SPONSORED_PRODUCTS' as ad_product,
        advertised_asin as child_asin,
        advertised_sku as sku,
        campaign_budget_currency_code as currency,
        coalesce(cost, 0) as cost,
        coalesce(impressions, 0) as impressions,
        coalesce(clicks, 0) as clicks,
        -- Same-SKU results, 7 days (spec: SP uses the 7-day window, no halo).
        coalesce(attributed_sales_same_sku7d, 0) as sales,
        coalesce(purchases_same_sku7d, 0) as orders,
        coalesce(units_sold_same_sku7d, 0) as units_sold,
        false as is_estimated,
    from staging.stg_ads__sp_advertised_product
    where connection_id in $connection_ids and date between $from::date and $to::date
),

sponsored_display as (
    select
        connection_id,
        date,
        'SPONSORED_DISPLAY',
        promoted_asin,
        promoted_sku,
        campaign_budget_currency_code,
        coalesce(cost, 0),
        coalesce(impressions, 0),
        coalesce(clicks, 0),
        -- Promoted-product click results, 14 days; units are all click-attributed units.
        coalesce(sales_promoted_clicks, 0),
        coalesce(purchases_promoted_clicks, 0),
        coalesce(units_sold_clicks, 0),
        false,
    from staging.stg_ads__sd_advertised_product
    where connection_id in $connection_ids and date between $from::date and $to::date
),

-- docs/design/PROFIT.md "SB allocation": a campaign-day's cost goes to ASINs by purchased-product sales14d shares, else orders14d shares.
brand_campaigns as (
    select connection_id, date, campaign_id, any_value(campaign_budget_currency_code) as currency, sum(cost) as cost
    from staging.stg_ads__sb_campaigns
    where connection_id in $connection_ids and date between $from::date and $to::date and cost <> 0
    group by all
),

brand_purchases as (
    select connection_id, date, campaign_id, purchased_asin as child_asin, sum(coalesce(sales14d, 0)) as sales, sum(coalesce(orders14d, 0)) as orders
    from staging.stg_ads__sb_purchased_product
    where connection_id in $connection_ids and date between $from::date and $to::date
    group by all
),

brand_asin_weights as (
    select
        brand_campaigns.connection_id,
        brand_campaigns.date,
        brand_campaigns.campaign_id,
        brand_campaigns.currency,
        brand_campaigns.cost,
        brand_purchases.child_asin,
        case
            when sum(brand_purchases.sales) over campaign_day > 0 then brand_purchases.sales
            when sum(brand_purchases.orders) over campaign_day > 0 then brand_purchases.orders
            else 0
        end as weight,
    from brand_campaigns
    join brand_purchases using (connection_id, date, campaign_id)
    window campaign_day as (partition by brand_campaigns.connection_id, brand_campaigns.date, brand_campaigns.campaign_id)
),

brand_asin_parts as (
    select * from (
        select
            *,
            sum(weight) over campaign_day as total_weight,
            -- Exact in ten-thousandths: floor(cost × weight / total weight), computed on integers, never floats.
            ((cost * 10000)::hugeint * (weight * 10000)::hugeint // (sum(weight) over campaign_day * 10000)::hugeint)::decimal(38,0) * 0.0001 as rounded,
            row_number() over (partition by connection_id, date, campaign_id order by weight desc, child_asin) as rank,
        from brand_asin_weights
        where weight > 0
        window campaign_day as (partition by connection_id, date, campaign_id)
    )
),

-- The largest share absorbs the remainder of the floors, so the parts add up to the campaign's cost exactly.
brand_asin_costs as (
    select
        connection_id,
        date,
        campaign_id,
        currency,
        child_asin,
        rounded + if(rank = 1, cost - sum(rounded) over (partition by connection_id, date, campaign_id), 0) as cost,
    from brand_asin_parts
),

-- An ASIN's part goes to its SKUs by the day's shipped sales, else shipped orders, else evenly over the SKUs it sold.
sku_signals as (
    select
        seller_or_vendor_id as connection_id,
        date,
        child_asin,
        sku,
        sum(coalesce(item_price_value, 0) + coalesce(item_shipping_price_value, 0) - coalesce(item_ship_promotion_discount_value, 0))
            filter (where item_status = 'Shipped') as sales,
        count(distinct mkt_order_id) filter (where item_status = 'Shipped') as orders,
    from marts.mkt_order_items_with_cogs
    where seller_or_vendor_id in $connection_ids and date between $from::date and $to::date
        and child_asin is not null and (item_status is null or lower(item_status) not like '%cancel%')
    group by all
),

brand_sku_weights as (
    select
        brand_asin_costs.*,
        sku_signals.sku,
        case
            when sum(coalesce(sku_signals.sales, 0)) over asin_day > 0 then coalesce(sku_signals.sales, 0)
            when sum(sku_signals.orders) over asin_day > 0 then sku_signals.orders
            else 1
        end as weight,
    from brand_asin_costs
    left join sku_signals using (connection_id, date, child_asin)
    window asin_day as (partition by brand_asin_costs.connection_id, brand_asin_costs.date, brand_asin_costs.campaign_id, brand_asin_costs.child_asin)
),

brand_sku_parts as (
    select
        *,
        ((cost * 10000)::hugeint * (weight * 10000)::hugeint // (sum(weight) over asin_day * 10000)::hugeint)::decimal(38,0) * 0.0001 as rounded,
        row_number() over (partition by connection_id, date, campaign_id, child_asin order by weight desc, sku) as rank,
    from brand_sku_weights
    where weight > 0
    window asin_day as (partition by connection_id, date, campaign_id, child_asin)
),

sponsored_brands as (
    select
        connection_id,
        date,
        'SPONSORED_BRANDS',
        child_asin,
        sku,
        currency,
        rounded + if(rank = 1, cost - sum(rounded) over (partition by connection_id, date, campaign_id, child_asin), 0),
        -- Sponsored brands has no same-SKU results; clicks and impressions stay at the account level.
        0,
        0,
        0,
        0,
        0,
        true,
    from brand_sku_parts
),

ad_rows as (
    select * from sponsored_products
    union all
    select * from sponsored_display
    union all
    select * from sponsored_brands
),

-- Each row joins its own connection's context; grouping by contexts.seller_or_vendor_id (the connection's id) keeps connections apart.
final as (
    select
        common_columns.*,
        ad_rows.date,
        ad_rows.ad_product,
        ad_rows.child_asin,
        ad_rows.sku,
        coalesce(any_value(ad_rows.currency), any_value(contexts.currency)) as currency,
        sum(ad_rows.cost) as cost,
        sum(ad_rows.impressions) as impressions,
        sum(ad_rows.clicks) as clicks,
        sum(ad_rows.sales) as sales,
        sum(ad_rows.orders) as orders,
        sum(ad_rows.units_sold) as units_sold,
        bool_or(ad_rows.is_estimated) as is_estimated,
    from ad_rows
    join contexts using (connection_id)
    group by all
)

select * from final
