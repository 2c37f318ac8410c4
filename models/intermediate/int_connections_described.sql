-- Each connection with its marketplace context (the common columns C, timezone, currency): one row per connection.
with connections as (
    select * from control.connections
),

marketplaces as (
    select * from seeds.marketplaces
),

described as (
    select
        connections.id as connection_id,
        marketplaces.marketplace_id,
        marketplaces.country_code as marketplace_country_code,
        marketplaces.country_name as marketplace_country_name,
        connections.id as seller_or_vendor_id,
        connections.name as seller_or_vendor_name,
        connections.seller_id as marketplace_seller_id,
        marketplaces.timezone,
        marketplaces.currency,
        marketplaces.domain,
        marketplaces.prices_include_tax,
    from connections
    join marketplaces on marketplaces.marketplace_id = connections.marketplace_id
)

select * from described
