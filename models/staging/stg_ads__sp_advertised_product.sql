-- Sponsored Products advertised-product rows: the latest landed row of each key, one row per date and campaign_id and ad_group_id and ad_id and advertised_sku.
select * from latest_landed(raw.ads_sp_advertised_product, row(date, campaign_id, ad_group_id, ad_id, advertised_sku))
-- Date order lets date-window readers skip row groups.
order by connection_id, date
