-- FBA recommended removals: one row per connection, marketplace-local snapshot date, SKU, FNSKU and condition.
with recommendations as (
    select * from staging.stg_mkt__fba_removal_recommendations
    where connection_id in $connection_ids
),

-- A line without snapshot-date belongs to the day its file landed.
localized as (
    select * from localize(recommendations, coalesce(snapshot_at, landed_at), $timezone, $from, $to)
),

-- Each day's report is a whole snapshot: the latest file of a day replaces earlier ones, lines it lacks included.
-- Per connection: a statement builds several, and one connection's file must not replace another's day.
latest_snapshot as (
    select *
    from localized
    qualify dense_rank() over (partition by connection_id, local_date order by landed_at desc, file_id desc) = 1
        and row_number() over (partition by connection_id, local_date, sku, fnsku, condition order by landed_at desc, file_id desc, line_number desc) = 1
),

final as (
    select
        common_columns.*,
        local_date as date,
        timezone($timezone, snapshot_at)::date as snapshot_date,
        sku,
        fnsku,
        asin as child_asin,
        product_name,
        condition,
        sellable_quantity,
        sellable_121_180_days,
        sellable_181_270_days,
        sellable_271_365_days,
        sellable_365_plus_days,
        sellable_removal_quantity,
        unsellable_quantity,
        unsellable_0_7_days,
        unsellable_8_60_days,
        unsellable_61_90_days,
    from latest_snapshot
)

select * from final
