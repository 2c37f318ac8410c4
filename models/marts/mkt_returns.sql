-- FBA customer returns with unit costs on the return date: one row per connection and return line; date is marketplace-local.
with returns as (
    select * from staging.stg_mkt__returns
    where connection_id in $connection_ids
),

-- Keyed by connection: a statement builds several connections, and an order id is only unique within one.
order_dates as (
    select items.seller_or_vendor_id as connection_id, items.mkt_order_id as order_id, min(items.date) as order_date
    from marts.mkt_order_items_with_cogs as items
    -- Only the orders looked up, each in its own connection: grouping every order of the connections costs more than this filter.
    semi join returns
        on returns.connection_id = items.seller_or_vendor_id
        and returns.order_id = items.mkt_order_id
    where items.seller_or_vendor_id in $connection_ids
    group by all
),

localized as (
    select
        dated.*,
        order_dates.order_date,
        md5(concat_ws('|', dated.order_id, dated.sku, dated.returned_at, coalesce(dated.license_plate_number, ''), coalesce(dated.fnsku, ''))) as return_id,
    from localize(returns, returned_at, $timezone, $from, $to) as dated
    left join order_dates using (connection_id, order_id)
),

-- docs/design/PROFIT.md "Unit cost": the returned quantity, costed on the return date.
costed as (
    select * from unit_costed(localized, sku, coalesce(asin, ''), local_date, quantity)
),

final as (
    select
        common_columns.*,
        local_date as date,
        timezone('UTC', returned_at) as returned_at_utc,
        return_id,
        order_id as mkt_order_id,
        order_date,
        sku,
        asin as child_asin,
        fnsku,
        product_name,
        quantity,
        fulfillment_center_id,
        detailed_disposition,
        reason,
        status,
        license_plate_number,
        customer_comments,
        cogs_item_value,
        cogs_shipping_value,
        cogs_total_value,
        cogs_present,
        cogs_currency,
        item_supplier_name,
    from costed
)

select * from final
