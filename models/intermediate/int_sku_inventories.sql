-- FBA and AWD inventory of each SKU as last reported: one row per connection and SKU found in any inventory source.
with fba as (
    select * from staging.stg_mkt__fba_inventory
),

awd as (
    select * from staging.stg_mkt__awd_inventory
),

stranded as (
    select distinct connection_id, sku from staging.stg_mkt__fba_stranded_inventory
),

-- Units still to leave FBA: in-process units of removal orders that are neither completed nor cancelled.
pending_removals as (
    select connection_id, sku, sum(coalesce(in_process_quantity, 0)) as pending_removal_quantity
    from staging.stg_mkt__fba_removal_orders
    where lower(coalesce(order_status, '')) not in ('completed', 'cancelled')
    group by all
),

skus as (
    select connection_id, sku from fba
    union
    select connection_id, sku from awd
    union
    select connection_id, sku from stranded
    union
    select connection_id, sku from pending_removals
),

-- FBA buckets (spec 001 mkt_listings_with_cogs): totalQuantity is the FBA total that already holds every bucket;
-- FC transfers (pendingTransshipmentQuantity) are a part of the reserved units. AWD quantities are not FBA
-- quantities: they stay in their own columns and are never added to the FBA ones.
combined as (
    select
        skus.connection_id,
        skus.sku,
        fba.asin as fba_asin,
        fba.fnsku as fba_fnsku,
        fba.product_name as fba_product_name,
        fba.fulfillable_quantity as fba_quantity_available,
        coalesce(pending_removals.pending_removal_quantity, 0) as fba_quantity_pending_removal,
        coalesce(fba.inbound_working_quantity, 0) + coalesce(fba.inbound_shipped_quantity, 0) + coalesce(fba.inbound_receiving_quantity, 0) as fba_quantity_inbound,
        fba.total_reserved_quantity as fba_quantity_reserved,
        fba.pending_transshipment_quantity as fba_quantity_fc_transfer,
        fba.total_quantity as fba_inventory_supply_at_fba,
        stranded.sku is not null as fba_in_stranded_report,
        awd.total_inbound_quantity as awd_total_inbound_quantity,
        awd.total_onhand_quantity as awd_total_onhand_quantity,
        awd.available_distributable_quantity as awd_available_distributable_quantity,
        awd.replenishment_quantity as awd_replenishment_quantity,
        awd.reserved_distributable_quantity as awd_reserved_distributable_quantity,
        awd.next_expiration_at as awd_next_expiration_at,
        awd.next_expiration_quantity as awd_next_expiration_quantity,
        awd.expirations as awd_expirations,
    from skus
    left join fba using (connection_id, sku)
    left join awd using (connection_id, sku)
    left join stranded using (connection_id, sku)
    left join pending_removals using (connection_id, sku)
)

select * from combined
