-- Macros the models share: every build runs these statements before its models (src/models/load-models.ts
-- `loadMacros`), so that a step repeated across models is defined once.

-- A settlement row's posting time: posted-date-time when the file has it, else posted-date, which is locale formatted
-- (09/06/25 = 9 June).
create or replace macro settlement_posted_at(posted_date_time, posted_date) as
    coalesce(posted_date_time, try_strptime(posted_date, ['%Y-%m-%d', '%d.%m.%Y', '%d/%m/%Y', '%d/%m/%y', '%d.%m.%y'])::timestamptz);

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

-- The latest version of each key of a raw table whose records carry `updated_at` (the AWD operations): the greatest
-- updated_at wins, then the latest landed file, then its later line; `first_seen_at` and `last_seen_at` are the
-- first and last landings of the key. Lineage columns other than the connection and marketplace stay as landed.
-- `raw_table` is the raw table's name, or a model's CTE of its raw rows (an operation's lines, unnested from them).
create or replace macro latest_version(raw_table, key) as table
    select
        _connection_id as connection_id,
        _marketplace_id as marketplace_id,
        * exclude (_connection_id, _marketplace_id),
        min(_landed_at) over versions as first_seen_at,
        max(_landed_at) over versions as last_seen_at,
    from query_table(raw_table)
    window versions as (partition by _connection_id, key)
    qualify row_number() over (partition by _connection_id, key order by updated_at desc nulls last, _landed_at desc, _line_number desc) = 1;

-- The rows of each connection's latest landed file of a snapshot report, one per `key`, its later line winning: each
-- such report is the whole current state, so the latest file replaces the earlier ones, and one with no rows empties
-- it (control.landed_files knows files without rows). `raw_table` is the raw table's name, `source_name` its report.
create or replace macro latest_snapshot(raw_table, source_name, key) as table
    select landed.*
    from query_table(raw_table) as landed
    semi join (
        select connection_id as _connection_id, arg_max(id, landed_at) as _file_id
        from control.landed_files
        where source = source_name
        group by all
    ) as latest_files using (_connection_id, _file_id)
    qualify row_number() over (partition by _connection_id, key order by _line_number desc) = 1;

-- An AWD DistributionQuantity object (awd 2024-05-09) with its unit named as the enum names it: the sandbox writes CASE
-- where the enum says CASES. NULL stays NULL.
create or replace macro awd_quantity(q) as
    if(q is null, null, json_merge_patch(q, json_object('unitOfMeasurement', case q ->> 'unitOfMeasurement'
        when 'CASE' then 'CASES' when 'PALLET' then 'PALLETS' when 'PRODUCT_UNIT' then 'PRODUCT_UNITS'
        else q ->> 'unitOfMeasurement' end)));

-- The parts of an AWD Address object (awd 2024-05-09), snake_case in the API's order; a model spreads them under its
-- own prefix: a struct column `destination` holding it, then columns(destination.*) as 'destination_address_\0'.
create or replace macro awd_address(j) as {
    name: j ->> 'name',
    address_line1: j ->> 'addressLine1',
    address_line2: j ->> 'addressLine2',
    address_line3: j ->> 'addressLine3',
    city: j ->> 'city',
    county: j ->> 'county',
    district: j ->> 'district',
    state_or_region: j ->> 'stateOrRegion',
    postal_code: j ->> 'postalCode',
    country_code: j ->> 'countryCode',
    phone_number: j ->> 'phoneNumber',
};

-- The parts of a Fulfillment Inbound Address object (2024-03-20), as the catalog names them, to spread the same way.
create or replace macro inbound_address(j) as {
    name: j ->> 'name',
    address_line1: j ->> 'addressLine1',
    address_line2: j ->> 'addressLine2',
    city: j ->> 'city',
    company_name: j ->> 'companyName',
    country_code: j ->> 'countryCode',
    district_or_county: j ->> 'districtOrCounty',
    email: j ->> 'email',
    phone_number: j ->> 'phoneNumber',
    postal_code: j ->> 'postalCode',
    state_or_province_code: j ->> 'stateOrProvinceCode',
};

-- The rows of `staged` (a mart's import of a staging model: connection_id and the event's time) whose event falls in
-- the window, dated in the marketplace timezone: `local_date` is `event_at`'s date in `tz`, and `common_columns` the
-- connection's common columns C (intermediate.int_connections_described), which a mart's rows start with.
create or replace macro localize(staged, event_at, tz, date_from, date_to) as table
    select staged_rows.*, contexts.common_columns, timezone(tz, event_at)::date as local_date,
    from query_table(staged) as staged_rows
    join intermediate.int_connections_described as contexts using (connection_id)
    where local_date between date_from::date and date_to::date;

-- docs/design/PROFIT.md "Unit cost": each row of `priced` (with connection_id) with the cost of `quantity_of` units at the unit cost
-- of its lookup keys on `cost_date`, from the period of intermediate.int_unit_costs that holds the date: the cogs
-- columns of the catalog (cogs_present false and the amounts null where no period holds it), and the supplier.
-- `sku_key_of` and `asin_key_of` are the row's SKU and ASIN as the periods key them: '' for none.
create or replace macro unit_costed(priced, sku_key_of, asin_key_of, cost_date, quantity_of) as table
    select
        priced_rows.*,
        costs.cost_item_value * quantity_of as cogs_item_value,
        costs.cost_item_shipping_value * quantity_of as cogs_shipping_value,
        (costs.cost_item_value + costs.cost_item_shipping_value) * quantity_of as cogs_total_value,
        costs.cost_item_value is not null as cogs_present,
        costs.cost_currency as cogs_currency,
        costs.item_supplier_name,
    from query_table(priced) as priced_rows
    left join intermediate.int_unit_costs as costs
        on costs.connection_id = priced_rows.connection_id
        and costs.sku_key = sku_key_of
        and costs.asin_key = asin_key_of
        and cost_date between costs.valid_from and costs.valid_to;

-- Rule 11 (docs/design/PROFIT.md): a row's profit and total cost from its amounts. Fees and costs are positive;
-- refund_cost is the negative cost of refunds, so it adds to profit.
create or replace macro profit_of(total_sales, sales_tax, total_fees, cogs_total, ad_spend, refund_cost) as
    total_sales - sales_tax - total_fees - cogs_total - ad_spend + refund_cost;
create or replace macro total_cost_of(sales_tax, total_fees, cogs_total, ad_spend, refund_cost) as
    sales_tax + total_fees + cogs_total + ad_spend - refund_cost;

-- Rule 11's ratios (acos, tacos, roi): a part of a whole in percent, to 4 places; null when the whole is 0.
create or replace macro percent_of(part, whole) as if(whole = 0, null, round(part / whole * 100, 4));

-- Rule 12: a b2c share of traffic, what is left of the total after business buyers' (never below 0).
create or replace macro b2c_part(total, b2b) as greatest(coalesce(total, 0) - coalesce(b2b, 0), 0);

-- Rule 12: the b2c buy-box percentage of a child ASIN's day, from its buy box and page views in all and to business
-- buyers; undefined, so null, when page views equal business page views (docs/design/PROFIT.md "Traffic").
create or replace macro buybox_b2c(buybox, buybox_b2b, page_views, page_views_b2b) as
    if(coalesce(page_views, 0) = coalesce(page_views_b2b, 0), null,
        (coalesce(buybox, 0) * coalesce(page_views, 0) - coalesce(buybox_b2b, 0) * coalesce(page_views_b2b, 0))
        / (coalesce(page_views, 0) - coalesce(page_views_b2b, 0)));

-- An order's status as the API names it (Pending, Unshipped, Shipped, Canceled), from a report's text (Cancelled,
-- Complete, Shipping, PartiallyShipped, Pending - …): the orders tables and the order events name statuses alike.
create or replace macro mkt_order_status(report_status) as
    case
        when report_status in ('Cancelled', 'Canceled') then 'Canceled'
        when report_status in ('Shipped', 'Complete') then 'Shipped'
        when report_status like 'Pending%' then 'Pending'
        when report_status in ('Unshipped', 'PartiallyShipped', 'Shipping') then 'Unshipped'
        else report_status
    end;
