import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';

// The profit tables checked against a second derivation of what they compute (test/models/reference/): rules 1-10
// from the catalog tables they read, rule 12's traffic from the sales and traffic rows, rule 11 from each row's own
// amounts. Used on the demo data (test/models/connection-lists.test.ts) and on the profit bench's data set.

const referenceDir = join(import.meta.dirname, '../models/reference');

/** The rule 1-10 measures both profit tables have. */
const measures = [
  ...'total_sales sales_tax sales_tax_missing_items total_sales_b2b total_sales_b2c unshipped_sales'.split(' '),
  ...'total_units_b2b total_units_b2c total_units_sold total_units_sold_b2b total_units_sold_b2c total_orders'.split(
    ' ',
  ),
  ...'refund_count refund_cost return_units return_cogs cogs_item cogs_shipping lost_damaged_by_mkt'.split(' '),
  ...'missing_returns cogs_total total_fees total_selling_fees fba_fees awd_fees'.split(' '),
];
const traffic = [
  ...'avg_buybox_percentage avg_buybox_percentage_b2b total_sessions sessions_b2b sessions_b2c'.split(' '),
  ...'total_page_views page_views_b2b page_views_b2c'.split(' '),
];

/** A condition true where any of `columns` of `m` differs from its `expected` value. */
const differs = (columns: string[], expected: (c: string) => string) =>
  columns.map((c) => `m.${c} is distinct from ${expected(c)}`).join(' or ');

const sku = `marts.mkt_profit_by_sku_and_date`;
const account = `marts.mkt_profit_by_date`;
const skuKey = (r: string) =>
  `m.seller_or_vendor_id = ${r}.connection_id and m.date = ${r}.date and m.child_asin is not distinct from ${r}.child_asin`;
const accountKey = (r: string) => `m.seller_or_vendor_id = ${r}.connection_id and m.date = ${r}.date`;
const percent = (part: string, whole: string) => `case when ${whole} <> 0 then round(${part} / ${whole} * 100, 4) end`;

/** Per check, the rows that break it; every count is 0 when the tables agree with the reference. */
const checks: Record<string, string> = {
  // A row of a table whose measures differ from the reference's for its key (none where it has no line: 0 and null).
  skuMeasures: `select * from ${sku} as m left join reference_measures as r on r.by_sku and ${skuKey('r')} and m.sku is not distinct from r.sku
    where ${differs(measures, (c) => `coalesce(r.${c}, 0)`)} or m.cogs_present is distinct from r.cogs_present`,
  accountMeasures: `select * from ${account} as m left join reference_measures as r on not r.by_sku and ${accountKey('r')}
    where ${differs(measures, (c) => `coalesce(r.${c}, 0)`)} or m.cogs_present is distinct from r.cogs_present`,
  // A reference row the table lacks.
  skuRowsMissing: `select * from reference_measures as r where r.by_sku
    and not exists (select 1 from ${sku} as m where ${skuKey('r')} and m.sku is not distinct from r.sku)`,
  accountRowsMissing: `select * from reference_measures as r where not r.by_sku
    and not exists (select 1 from ${account} as m where ${accountKey('r')})`,
  // Rule 11 from the row's own amounts, in both tables.
  rule11: ['sku', 'account']
    .map(
      (t) => `select m.profit from ${t === 'sku' ? sku : account} as m
    where m.profit <> m.total_sales - m.sales_tax - m.total_fees - m.cogs_total - m.ad_spend + m.refund_cost
      or m.total_cost <> m.sales_tax + m.total_fees + m.cogs_total + m.ad_spend - m.refund_cost
      or m.acos is distinct from ${percent('m.ad_spend', 'm.ad_sales')}
      or m.tacos is distinct from ${percent('m.ad_spend', 'm.total_sales')}
      or m.roi is distinct from ${percent('m.profit', 'm.total_cost')}`,
    )
    .join(' union all '),
  // Rule 12: a SKU row shows its child ASIN's traffic (0, and a null b2c buy box, without any); the account row the
  // day's averages and sums (all 0 on a day without traffic).
  skuTraffic: `select * from ${sku} as m left join reference_traffic as r on r.by_asin and ${skuKey('r')}
    where ${differs(traffic, (c) => `coalesce(r.${c}, 0)::decimal(18,4)`)}
      or m.avg_buybox_percentage_b2c is distinct from r.avg_buybox_percentage_b2c::decimal(18,4)`,
  accountTraffic: `select * from ${account} as m left join reference_traffic as r on not r.by_asin and ${accountKey('r')}
    where ${differs(traffic, (c) => `coalesce(r.${c}, 0)::decimal(18,4)`)}
      or m.avg_buybox_percentage_b2c is distinct from if(r.date is null, 0, r.avg_buybox_percentage_b2c)::decimal(18,4)`,
};

/**
 * Per check, the rows of the built profit tables that disagree with the reference: all 0 when they agree. Also the
 * reference's row counts, to show it had lines to compare.
 */
export async function profitReferenceDifferences(sql: DuckDBConnection) {
  for (const name of ['measures', 'traffic'])
    await sql.run(
      `create or replace temp table reference_${name} as ${readFileSync(join(referenceDir, `profit_${name}.sql`), 'utf8')}`,
    );
  const count = async (query: string) =>
    Number((await sql.runAndReadAll(`select count(*) from (${query})`)).getRowsJson()[0]![0]);
  const differences: Record<string, number> = {};
  for (const [name, query] of Object.entries(checks)) differences[name] = await count(query);
  return {
    differences,
    referenceRows: await count('select * from reference_measures'),
    trafficRows: await count('select * from reference_traffic'),
  };
}
