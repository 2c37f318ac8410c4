-- Macros the models share: every build runs these statements before its models (src/models/load-models.ts
-- `loadMacros`), so that a step repeated across models is defined once.

-- The latest landed row of each key of a raw report table, with the lineage columns renamed and the rest as landed:
-- a report is re-pulled while its attribution window is open, and the latest landed file wins, then its later line.
-- `raw_table` is the raw table's name, `key` the key's columns as one value: row(date, campaign_id).
create or replace macro latest_landed(raw_table, key) as table
    select
        _connection_id as connection_id,
        _marketplace_id as marketplace_id,
        * exclude (_connection_id, _marketplace_id, _extra, _landed_at),
    from query_table(raw_table)
    qualify row_number() over (partition by _connection_id, key order by _landed_at desc, _line_number desc) = 1;
