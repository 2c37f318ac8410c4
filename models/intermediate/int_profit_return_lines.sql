-- Each return line with its part in profit measure rules 6 and 7 (spec 001): returned units' cost back in stock
-- (SELLABLE) offsets refunds, any other disposition adds to them; one row per return line.
with return_parts as (
    select
        seller_or_vendor_id as connection_id,
        date,
        child_asin,
        sku,
        quantity as return_units,
        coalesce(cogs_total_value, 0) as return_cogs,
        case
            when upper(detailed_disposition) = 'SELLABLE' then cogs_total_value
            when upper(detailed_disposition) <> 'SELLABLE' then -cogs_total_value
        end as refund_cost,
        1 as costable_lines,
        if(not cogs_present, 1, 0) as uncosted_lines,
    from marts.mkt_returns
)

select * from return_parts
