// The files of the days after the generated history (bench/profit.ts), recorded as landing would have.
import type { Warehouse } from '../src/db/warehouse.ts';
import { addDays } from '../src/pipelines/run-pipeline.ts';
import { landedOn, lastDay, orderAmountColumns } from './profit.ts';

/** The raw tables the generator fills, with the source that lands each. */
const rawSources: Record<string, string> = {
  'raw.get_flat_file_all_orders_data_by_order_date_general': 'GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL',
  'raw.get_v2_settlement_report_data_flat_file_v2': 'GET_V2_SETTLEMENT_REPORT_DATA_FLAT_FILE_V2',
  'raw.get_sales_and_traffic_report': 'GET_SALES_AND_TRAFFIC_REPORT',
  'raw.ads_sp_advertised_product': 'ads.spAdvertisedProduct',
  'raw.ads_sb_campaigns': 'ads.sbCampaigns',
  'raw.ads_sb_purchased_product': 'ads.sbPurchasedProduct',
  'raw.ads_sp_targeting': 'ads.spTargeting',
};

/** The day after the generated two years. */
export const nextDay = addDays(lastDay, 1);

/**
 * Records the generated files in control.landed_files, as landing would have: one row per new `_file_id`, landed when
 * its first row was (a settlement's summary row is generated after its amount lines; no raw row is older than its
 * file).
 */
export async function registerFiles(wh: Warehouse): Promise<void> {
  for (const [table, source] of Object.entries(rawSources)) {
    await wh.sql.run(`
      insert into control.landed_files
      select _file_id, any_value(_connection_id), '${source}', sha256(_file_id), _file_id, 0, count(*), min(_landed_at)
      from ${table}
      where _file_id not in (select id from control.landed_files)
      group by _file_id`);
  }
}

/**
 * A day's files per connection (by default the day after the generated two years): an orders report of the last 28
 * days (the lines bought in the 27 days before, those of the last two days unshipped now shipped, and the day's new
 * orders, copies of the day before's), a settlement of the newly shipped lines, and a day of traffic and of each ads
 * report (copies of the day before's rows). (The generator leaves every 20th order unshipped at any age; an order
 * ships within days, so the older ones stay as they were, like the rest of the 27 days.)
 */
export async function addDay(wh: Warehouse, day: string = nextDay): Promise<void> {
  const previous = addDays(day, -1);
  const orders = 'raw.get_flat_file_all_orders_data_by_order_date_general';
  const cutoff = `timestamptz '${previous} 12:00:00+00'`;
  const shippedAt = `timestamptz '${day} 06:00:00+00'`;
  const file = (source: string) => `'${source}/' || _connection_id || '/${day}'`;
  await wh.sql.run(`
    insert into ${orders} by name
    with current as (
      select * from ${orders}
      where purchase_date > ${cutoff} - interval 27 day
      qualify row_number() over (partition by _connection_id, amazon_order_id, sku order by _landed_at desc, _line_number) = 1
    ),
    delivered as (
      select * exclude (shipping) replace (
        if(shipping, 'Shipped', order_status) as order_status,
        if(shipping and item_status = 'Unshipped', 'Shipped', item_status) as item_status,
        if(shipping, ${shippedAt}, last_updated_date) as last_updated_date)
      from (select *, order_status = 'Unshipped' and purchase_date > ${cutoff} - interval 2 day as shipping from current)
      union all by name
      select * replace (amazon_order_id || '-${day}' as amazon_order_id, purchase_date + interval 1 day as purchase_date, last_updated_date + interval 1 day as last_updated_date)
      from current
      where purchase_date > ${cutoff} - interval 1 day
    )
    select * replace (${file('orders')} as _file_id, row_number() over (partition by _connection_id order by purchase_date, _line_number) as _line_number, ${landedOn(day)} as _landed_at)
    from delivered`);
  // The settlement of the lines that shipped since: principal, commission and FBA fee, VAT for EUR; then its summary
  // line.
  const settlements = 'raw.get_v2_settlement_report_data_flat_file_v2';
  await wh.sql.run(`
    insert into ${settlements} by name
    with shipped as (
      select * from ${orders}
      where _file_id = ${file('orders')} and last_updated_date = ${shippedAt}
    ),
    lines as (
      select shipped.*, kind from shipped, (values ('Principal'), ('Commission'), ('FBAPerUnitFulfillmentFee'), ('Tax')) as k(kind)
      where kind <> 'Tax' or currency = 'EUR'
    )
    select
      'S' || _connection_id[-4:] || '-${day}' as settlement_id,
      ${orderAmountColumns},
      ${shippedAt} as posted_date_time,
      sku,
      quantity as quantity_purchased,
      'settlement/' || _connection_id || '/' || settlement_id as _file_id,
      row_number() over (partition by _connection_id) as _line_number, ${landedOn(day)} as _landed_at, _connection_id, _marketplace_id
    from lines`);
  await wh.sql.run(`
    insert into ${settlements} by name
    select settlement_id, sum(amount) as total_amount, any_value(_file_id) as _file_id, 0 as _line_number, ${landedOn(day)} as _landed_at, _connection_id, any_value(_marketplace_id) as _marketplace_id
    from ${settlements}
    where settlement_id like '%-${day}'
    group by settlement_id, _connection_id`);
  const daily: Record<string, string> = {
    'raw.get_sales_and_traffic_report': 'traffic',
    'raw.ads_sp_advertised_product': 'ads.spAdvertisedProduct',
    'raw.ads_sb_campaigns': 'ads.sbCampaigns',
    'raw.ads_sb_purchased_product': 'ads.sbPurchasedProduct',
    'raw.ads_sp_targeting': 'ads.spTargeting',
  };
  for (const [table, source] of Object.entries(daily)) {
    await wh.sql.run(`
      insert into ${table} by name
      select * replace (date '${day}' as date, ${file(source)} as _file_id, ${landedOn(day)} as _landed_at)
      from ${table}
      where date = date '${previous}'`);
  }
}

export async function countRaw(wh: Warehouse): Promise<number> {
  let rows = 0;
  for (const table of Object.keys(rawSources)) rows += await count(wh, `select count(*) from ${table}`);
  return rows;
}

export async function count(wh: Warehouse, query: string): Promise<number> {
  return Number((await wh.sql.runAndReadAll(query)).getRowsJson()[0]?.[0] ?? 0);
}
