-- Sponsored Brands campaign rows: the latest landed row of each key, one row per date and campaign_id.
select * from latest_landed(raw.ads_sb_campaigns, row(date, campaign_id))
-- Date order lets date-window readers skip row groups.
order by connection_id, date
