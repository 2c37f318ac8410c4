-- Each settlement with its summary total and the sum of its amount lines: one row per connection and settlement.
with settlement_rows as (
    select * from staging.stg_mkt__settlement_rows
),

reconciled as (
    select
        connection_id,
        settlement_id,
        any_value(settlement_total_amount) as settlement_total_amount,
        sum(amount) as sum_of_amounts,
        count(*) as amount_lines,
    from settlement_rows
    group by all
)

select * from reconciled
