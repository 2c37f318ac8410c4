-- Subscribe and Save offers (listOffers), latest landed record per SKU: one row per connection and SKU.
with landed as (
    select * from raw.replenishment_list_offers
),

-- Each page of listOffers is a file: an offer keeps its latest record even when later pages no longer list it.
latest as (
    select *
    from landed
    qualify row_number() over (
        partition by _connection_id, sku
        order by _landed_at desc, _line_number desc
    ) = 1
),

renamed as (
    select
        _connection_id as connection_id,
        _marketplace_id as marketplace_id,
        asin as child_asin,
        sku,
        program_type,
        eligibility,
        fulfillment_network_id_type,
        price,
        price_currency_code,
        inventory::json as inventory,
        subscriptions::json as subscriptions,
        stock_risk,
        vendor_codes::json as vendor_codes,
        offer_program_configuration::json as offer_program_configuration,
        deliveries_conditions::json as deliveries_conditions,
        forecast_deliveries::json as forecast_deliveries,
        _landed_at as landed_at,
        _file_id as file_id,
        _line_number as line_number,
    from latest
)

select * from renamed
