-- Sales and traffic per child ASIN (and SKU when reported) and date, with unit costs: one row per connection, date, granularity, child ASIN and SKU.
with traffic as (
    select * from staging.stg_mkt__sales_and_traffic
    where connection_id in $connection_ids and date between $from::date and $to::date
),

contexts as (
    select * from intermediate.int_connections_described
    where connection_id in $connection_ids
),

-- Per connection: a statement builds several connections, and each names its ASINs from its own orders.
product_names as (
    select * from intermediate.int_asin_product_names
    where connection_id in $connection_ids
),

-- docs/design/PROFIT.md "Unit cost" on the report date; a child-ASIN row without SKU takes the ASIN's cost.
costed as (
    select * from unit_costed(traffic, coalesce(sku, ''), child_asin, date, coalesce(units_ordered, 0))
),

final as (
    select
        common_columns.*,
        costed.date,
        costed.child_asin,
        costed.parent_asin,
        product_names.product_name,
        coalesce(costed.buy_box_percentage, 0) as buybox_percentage,
        coalesce(costed.buy_box_percentage_b2b, 0) as buybox_percentage_b2b,
        coalesce(costed.unit_session_percentage, 0) as units_session_percentage,
        coalesce(costed.page_views, 0) as page_views,
        coalesce(costed.page_views_b2b, 0) as page_views_b2b,
        coalesce(costed.browser_page_views, 0) as browser_page_views,
        coalesce(costed.mobile_app_sessions, 0) as mobile_session,
        coalesce(costed.mobile_app_page_views, 0) as mobile_page_views,
        coalesce(costed.sessions, 0) as session,
        coalesce(costed.sessions_b2b, 0) as sessions_b2b,
        coalesce(costed.browser_sessions, 0) as browser_session,
        coalesce(costed.ordered_product_sales, 0) as total_sales,
        coalesce(costed.units_ordered, 0) as total_units,
        coalesce(costed.units_ordered_b2b, 0) as total_units_b2b,
        coalesce(costed.total_order_items, 0) as total_orders,
        -- The report has shipped and refunded figures by date only, for the whole account: none per ASIN.
        null::decimal(18, 4) as shipped_product_sales,
        null::decimal(18, 4) as shipped_product_sales_b2b,
        null::decimal(18, 4) as units_shipped,
        null::decimal(18, 4) as units_shipped_b2b,
        null::decimal(18, 4) as orders_shipped,
        null::decimal(18, 4) as orders_shipped_b2b,
        null::decimal(18, 4) as units_refunded,
        null::decimal(18, 4) as units_refunded_b2b,
        null::decimal(18, 4) as refund_rate,
        null::decimal(18, 4) as refund_rate_b2b,
        costed.cogs_item_value,
        costed.cogs_shipping_value,
        costed.cogs_total_value,
        costed.cogs_present,
        costed.cogs_currency,
        costed.item_supplier_name,
    from costed
    join contexts using (connection_id)
    left join product_names
        on product_names.connection_id = costed.connection_id
        and product_names.asin = costed.child_asin
)

select * from final
