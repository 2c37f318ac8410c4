-- Current Subscribe and Save offers: one row per connection and SKU (latest record of each offer).
with offers as (
    select * from staging.stg_mkt__replenishment_offers
),

contexts as (
    select * from intermediate.int_connections_described
),

final as (
    select
        common_columns.*,
        offers.child_asin,
        offers.sku,
        'SUBSCRIBE_AND_SAVE' as mkt_replenishment_program_type,
        offers.eligibility as mkt_replenishment_program_eligibility,
        offers.fulfillment_network_id_type as mkt_replenishment_fulfillment_network_id_type,
        offers.price,
        -- The price is in the marketplace currency when the API leaves priceCurrencyCode out.
        coalesce(offers.price_currency_code, contexts.currency) as price_currency_code,
        offers.inventory,
        offers.subscriptions,
        offers.stock_risk,
        offers.vendor_codes,
        offers.offer_program_configuration,
        offers.deliveries_conditions,
        offers.forecast_deliveries,
        timezone('UTC', offers.landed_at) as last_seen_at,
    from offers
    join contexts using (connection_id)
)

select * from final
