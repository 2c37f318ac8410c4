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
),

-- The common columns C in the spec's order, as one value: a mart starts its rows with `common_columns.*`.
with_common_columns as (
    select
        *,
        struct_pack(marketplace_id, marketplace_country_code, marketplace_country_name, seller_or_vendor_id, seller_or_vendor_name, marketplace_seller_id) as common_columns,
    from described
)

select * from with_common_columns
