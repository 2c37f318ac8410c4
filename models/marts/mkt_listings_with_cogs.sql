-- Current listings with FBA and AWD inventory and today's unit costs: one row per connection and SKU of the latest listings report.
with listings as (
    select * from staging.stg_mkt__listings
),

contexts as (
    select * from intermediate.int_connections_described
),

inventories as (
    select * from intermediate.int_sku_inventories
),

items as (
    select connection_id, sku, asin as item_asin, fnsku as item_fnsku, item_name, title_differentiation from staging.stg_mkt__listings_items
),

joined as (
    select
        listings.*,
        contexts.* exclude (connection_id, marketplace_id),
        inventories.* exclude (connection_id, sku),
        items.* exclude (connection_id, sku),
        coalesce(listings.asin, inventories.fba_asin, items.item_asin) as any_asin,
    from listings
    join contexts using (connection_id)
    left join inventories using (connection_id, sku)
    left join items using (connection_id, sku)
),

-- docs/design/PROFIT.md "Unit cost" on today's marketplace-local date (intermediate.int_current_unit_costs).
costed as (
    select joined.*, costs.* exclude (connection_id, sku_key, asin_key),
    from joined
    left join intermediate.int_current_unit_costs as costs
        on costs.connection_id = joined.connection_id
        and costs.sku_key = joined.sku
        and costs.asin_key = coalesce(joined.any_asin, '')
),

final as (
    select
        common_columns.*,
        coalesce(listing_id, '') as listing_id,
        sku,
        -- Merchant-fulfilled listings without FBA inventory have no FNSKU: empty, like other unknown required texts.
        coalesce(fba_fnsku, item_fnsku, '') as fnsku,
        coalesce(any_asin, '') as child_asin,
        title_differentiation,
        coalesce(listing_condition, '') as listing_condition,
        coalesce(listing_name, item_name, fba_product_name, '') as listing_name,
        price as listing_price_value,
        -- No fee-estimate source is landed (Product Fees API): unknown rather than guessed.
        null::decimal(18, 4) as listing_estimated_per_item_referral_fee,
        currency as listing_price_currency,
        -- The report leaves quantity empty for FBA listings: no merchant-fulfilled units.
        coalesce(quantity, 0) as listing_current_quantity,
        coalesce(pending_quantity, 0) as listing_pending_quantity,
        coalesce(fba_quantity_available, 0) as fba_quantity_available,
        coalesce(fba_quantity_pending_removal, 0) as fba_quantity_pending_removal,
        coalesce(fba_quantity_inbound, 0) as fba_quantity_inbound,
        coalesce(fba_quantity_reserved, 0) as fba_quantity_reserved,
        fba_quantity_fc_transfer,
        fba_inventory_supply_at_fba,
        -- Listed by the stranded inventory report, or sellable FBA units without an active FBA offer (stranded by definition).
        coalesce(fba_in_stranded_report, false)
            or (coalesce(fba_quantity_available, 0) > 0 and (status is distinct from 'Active' or fulfillment_channel = 'DEFAULT')) as fba_has_stranded_inventory,
        awd_total_inbound_quantity,
        awd_total_onhand_quantity,
        awd_available_distributable_quantity,
        awd_replenishment_quantity,
        awd_reserved_distributable_quantity,
        timezone('UTC', awd_next_expiration_at) as awd_next_expiration_at,
        awd_next_expiration_quantity,
        awd_expirations,
        fulfillment_channel as listing_fulfillment_channel,
        timezone(timezone, opened_at)::date as listing_open_date,
        status as listing_status,
        cost_item_value as cogs_item_value,
        cost_item_shipping_value as cogs_shipping_value,
        cost_item_value + cost_item_shipping_value as cogs_total_value,
        cost_item_value is not null as cogs_present,
        cost_currency as cogs_currency,
        item_current_supplier_name,
    from costed
)

select * from final
