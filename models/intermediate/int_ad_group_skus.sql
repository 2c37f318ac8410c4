-- The SKUs each sponsored products ad group advertises, from every advertised-product report row: one row per
-- connection, campaign, ad group and SKU.
select distinct connection_id, campaign_id, ad_group_id, advertised_sku as sku
from staging.stg_ads__sp_advertised_product
