-- FBA stranded inventory as of each connection's latest report: one row per connection, SKU and FNSKU; dates are marketplace-local.
with stranded as (
    select * from staging.stg_mkt__fba_stranded_inventory
),

contexts as (
    select * from intermediate.int_connections_described
),

final as (
    select
        common_columns.*,
        stranded.sku,
        stranded.fnsku,
        stranded.asin as child_asin,
        stranded.primary_action,
        timezone(contexts.timezone, stranded.stranded_at)::date as date_stranded,
        timezone(contexts.timezone, stranded.auto_removal_at)::date as date_to_take_auto_removal,
        stranded.status_primary,
        stranded.status_secondary,
        stranded.error_message,
        stranded.stranded_reason,
        stranded.product_name,
        stranded.condition,
        stranded.fulfilled_by,
        stranded.fulfillable_qty,
        stranded.your_price,
        stranded.unfulfillable_qty,
        stranded.reserved_quantity,
        stranded.inbound_shipped_qty,
    from stranded
    join contexts using (connection_id)
)

select * from final
