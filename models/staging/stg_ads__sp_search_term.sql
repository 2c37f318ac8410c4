-- Sponsored Products search-term rows: the latest landed row of each key, one row per date and campaign_id and ad_group_id and keyword_id and search_term.
with landed as (
    select * from raw.ads_sp_search_term
),

-- Reports are re-pulled while their attribution window is open: the latest landed file wins.
latest as (
    select *
    from landed
    qualify row_number() over (partition by _connection_id, date, campaign_id, ad_group_id, keyword_id, search_term order by _landed_at desc, _line_number desc) = 1
),

renamed as (
    select
        _connection_id as connection_id,
        _marketplace_id as marketplace_id,
        * exclude (_connection_id, _marketplace_id, _extra, _landed_at),
    from latest
)

select * from renamed
-- Date order lets date-window readers skip row groups.
order by connection_id, date
