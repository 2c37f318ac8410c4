-- Sponsored Brands purchased-product rows: the latest landed row of each key, one row per date and campaign_id and ad_group_id and purchased_asin.
select * from latest_landed(raw.ads_sb_purchased_product, row(date, campaign_id, ad_group_id, purchased_asin))
-- Date order lets date-window readers skip row groups.
order by connection_id, date
