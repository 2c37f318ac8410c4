-- FBA inbound plans, latest version of each: one row per connection and inbound plan.
with landed as (
    select * from raw.fulfillment_inbound_shipments
    where record_type = 'plan'
),

-- Plans come from list pages and single plans alike: the latest lastUpdatedAt wins, then the latest file.
latest as (
    select *
    from landed
    qualify row_number() over (
        partition by _connection_id, inbound_plan_id
        order by plan_last_updated_at desc nulls last, _landed_at desc, _line_number desc
    ) = 1
),

renamed as (
    select
        _connection_id as connection_id,
        inbound_plan_id,
        plan_name,
        plan_status,
        plan_created_at,
        plan_last_updated_at,
        plan_marketplace_ids::json::varchar[] as plan_marketplace_ids,
        _landed_at as landed_at,
    from latest
)

select * from renamed
