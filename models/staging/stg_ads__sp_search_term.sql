-- Sponsored Products search-term rows: the latest landed row of each key, one row per date and campaign_id and ad_group_id and keyword_id and search_term.
select * from latest_landed(raw.ads_sp_search_term, row(date, campaign_id, ad_group_id, keyword_id, search_term))
-- Date order lets date-window readers skip row groups.
order by connection_id, date
