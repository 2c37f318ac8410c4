-- DSP campaign report rows: the latest landed row of each key, one row per date and order_id and line_item_id.
select * from latest_landed(raw.ads_dsp_campaign, row(date, order_id, line_item_id))
-- Date order lets date-window readers skip row groups.
order by connection_id, date
