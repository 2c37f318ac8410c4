-- Sponsored Products targeting rows: the latest landed row of each key, one row per date and campaign_id and ad_group_id and keyword_id and targeting.
select * from latest_landed(raw.ads_sp_targeting, row(date, campaign_id, ad_group_id, keyword_id, targeting))
-- Date order lets date-window readers skip row groups.
order by connection_id, date
