-- FBA inbound shipment line items with shipment and plan metadata: one row per connection, shipment, SKU, expiration and lot code.
with items as (
    select * from staging.stg_mkt__fba_inbound_shipment_items
),

plans as (
    select * from staging.stg_mkt__fba_inbound_plans
),

contexts as (
    select * from intermediate.int_connections_described
),

-- Inbound plans belong to the seller account, not to one marketplace: a plan shows under the connections of its
-- marketplaces (all of them when its plan record has not landed).
scoped as (
    select
        items.*,
        plans.* exclude (connection_id, inbound_plan_id, landed_at),
        contexts.* exclude (connection_id),
    from items
    join contexts using (connection_id)
    left join plans using (connection_id, inbound_plan_id)
    where plans.plan_marketplace_ids is null or list_contains(plans.plan_marketplace_ids, contexts.marketplace_id)
),

final as (
    select
        common_columns.*,
        inbound_plan_id,
        shipment_id as fba_inbound_shipment_id,
        msku as seller_sku,
        fnsku,
        asin as child_asin,
        quantity,
        expiration,
        label_owner,
        manufacturing_lot_code,
        prep_instructions,
        shipment_name,
        shipment_status as fba_inbound_shipment_status,
        shipment_confirmation_id,
        amazon_reference_id as mkt_reference_id,
        destination_warehouse_id,
        destination_type,
        columns('^destination_address_'),
        columns('^source_address_'),
        -- Windows are UTC instants upstream; the catalog dates them in the marketplace timezone.
        timezone(timezone, ready_to_ship_window_start)::date as ready_to_ship_window_start,
        timezone(timezone, ready_to_ship_window_end)::date as ready_to_ship_window_end,
        timezone(timezone, selected_delivery_window_start)::date as selected_delivery_window_start,
        timezone(timezone, selected_delivery_window_end)::date as selected_delivery_window_end,
        placement_option_id,
        plan_name,
        plan_status,
        timezone('UTC', plan_created_at) as plan_created_at,
        timezone('UTC', plan_last_updated_at) as plan_last_updated_at,
        timezone('UTC', last_seen_at) as last_seen_at,
    from scoped
)

select * from final
