-- Amount lines of the settlement report V2, categorized: one row per amount line of the latest landed version of each settlement.
with landed as (
    select * from raw.get_v2_settlement_report_data_flat_file_v2
),

-- A settlement re-delivered in a later file replaces the earlier version whole.
latest_files as (
    select _connection_id, settlement_id, arg_max(_file_id, _landed_at) as file_id
    from landed
    group by all
),

current_rows as (
    select landed.*
    from landed
    join latest_files
        on latest_files._connection_id = landed._connection_id
        and latest_files.settlement_id = landed.settlement_id
        and latest_files.file_id = landed._file_id
),

summaries as (
    select _connection_id, settlement_id, any_value(total_amount) as settlement_total_amount, any_value(currency) as settlement_currency,
    from current_rows
    where transaction_type is null and total_amount is not null
    group by all
),

-- docs/design/PROFIT.md "Settlement categories": the first matching line of the map wins (rowid is file order).
rules as (
    select rowid as priority, * from seeds.settlement_amount_map
),

descriptions as (
    select distinct transaction_type, amount_type, amount_description
    from current_rows
    where transaction_type is not null
),

categorized as (
    select
        descriptions.*,
        arg_min(rules.category, rules.priority) as category,
        arg_min(rules.date_basis, rules.priority) as date_basis,
        -- Only the last line matches everything: a description the map does not know.
        min(rules.priority) = (select max(priority) from rules) as is_uncategorized,
    from descriptions
    join rules
        on (rules.transaction_type = '*' or lower(rules.transaction_type) = lower(coalesce(descriptions.transaction_type, '')))
        and (rules.amount_type = '*' or lower(rules.amount_type) = lower(coalesce(descriptions.amount_type, '')))
        and (rules.amount_description = '*' or lower(rules.amount_description) = lower(coalesce(descriptions.amount_description, '')))
    group by all
),

renamed as (
    select
        current_rows._connection_id as connection_id,
        current_rows._marketplace_id as marketplace_id,
        current_rows.settlement_id,
        summaries.settlement_total_amount,
        coalesce(nullif(current_rows.currency, ''), summaries.settlement_currency) as currency,
        current_rows.transaction_type,
        nullif(current_rows.order_id, '') as order_id,
        nullif(current_rows.merchant_order_id, '') as merchant_order_id,
        nullif(current_rows.adjustment_id, '') as adjustment_id,
        nullif(current_rows.shipment_id, '') as shipment_id,
        current_rows.marketplace_name,
        current_rows.amount_type,
        current_rows.amount_description,
        coalesce(current_rows.amount, 0) as amount,
        current_rows.fulfillment_id,
        settlement_posted_at(current_rows.posted_date_time, current_rows.posted_date) as posted_at,
        nullif(current_rows.order_item_code, '') as order_item_code,
        nullif(current_rows.merchant_order_item_id, '') as merchant_order_item_id,
        nullif(current_rows.merchant_adjustment_item_id, '') as merchant_adjustment_item_id,
        nullif(current_rows.sku, '') as sku,
        current_rows.quantity_purchased,
        current_rows.promotion_id,
        categorized.category,
        categorized.date_basis,
        categorized.is_uncategorized,
        current_rows._file_id as file_id,
        current_rows._line_number as line_number,
    from current_rows
    join categorized
        on categorized.transaction_type is not distinct from current_rows.transaction_type
        and categorized.amount_type is not distinct from current_rows.amount_type
        and categorized.amount_description is not distinct from current_rows.amount_description
    left join summaries
        on summaries._connection_id = current_rows._connection_id
        and summaries.settlement_id = current_rows.settlement_id
)

select * from renamed
