// A small hand-made catalog table `t` for the export tests, created in an in-memory DuckDB.
//
// Connections: us-1 (Amazon.com, America/Los_Angeles: UTC-8 until 2026-03-08) and de-1 (Amazon.de, Europe/Berlin:
// UTC+1 until 2026-03-29); xx-9 is a third connection no test selects, so its row must never come out.
// 2026-02-27 is a Friday, 02-28 Saturday, 03-01 Sunday, 03-02 Monday, 03-03 Tuesday, 03-09 Monday, 04-01 Wednesday.
//
// The warehouse keeps amounts at 4 decimals; an export rounds a DECIMAL(18,4) NUMBER to cents with DuckDB's
// round(DECIMAL, 2), which adds (or, below zero, subtracts) half of 10^(4-2) to the unscaled value and divides by
// 10^2 truncating: round half away from zero. So 10.0050 → 10.01 and -10.0050 → -10.01 (half-even would give
// 10.00 and -10.00), 7.1250 → 7.13 (half-even: 7.12), 99.9950 → 100.00, 12.3450 → 12.35, 5.4949 → 5.49, 0.0049 → 0.00.
//
//  order_id  connection  date        sku  units   sales     → exported   is_business  note
//  o01       us-1        2026-02-27  A-1  1.0000  10.0050   1.00 10.01   false        plain
//  o02       us-1        2026-02-28  A-1  2.0000  20.0000   2.00 20.00   true         has, comma
//  o03       us-1        2026-03-01  B-2  1.0000   5.4949   1.00 5.49    false        null
//  o04       us-1        2026-03-02  b-3  3.0000  -10.0050  3.00 -10.01  null         say "hi"
//  o05       us-1        2026-03-09  C-3  0.5000   0.0049   0.50 0.00    true         line1⏎line2
//  o06       de-1        2026-02-28  A-1  1.0000   7.1250   1.00 7.13    false        50% off
//  o07       de-1        2026-03-01  A-1  4.0000  99.9950   4.00 100.00  true         null
//  o08       de-1        2026-03-03  D-4  2.0000  null      2.00 null    false        Plain text
//  o09       de-1        2026-04-01  B-2  1.0000  12.3450   1.00 12.35   true         ok_1
//  o10       xx-9        2026-03-01  A-1  1.0000   1.0000   (never selected)         other
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import type { ExportConnection, ExportTable } from '../../src/exports/export-query.ts';
import type { Column } from '../../src/models/load-models.ts';

const column = (name: string, type: Column['type'], dataType: string, nullable = true): Column => ({
  name,
  type,
  dataType,
  nullable,
  description: null,
  checks: [],
});

export const COMMON = [
  'marketplace_id',
  'marketplace_country_code',
  'marketplace_country_name',
  'seller_or_vendor_id',
  'seller_or_vendor_name',
  'marketplace_seller_id',
];

const columns: Column[] = [
  ...COMMON.map((name) => column(name, 'TEXT', 'VARCHAR', name === 'marketplace_seller_id')),
  column('order_id', 'TEXT', 'VARCHAR', false),
  column('date', 'DATE', 'DATE', false),
  column('sku', 'TEXT', 'VARCHAR', false),
  column('units', 'NUMBER', 'DECIMAL(18,4)', false),
  column('sales', 'NUMBER', 'DECIMAL(18,4)'),
  column('is_business', 'LOGIC', 'BOOLEAN'),
  column('note', 'TEXT', 'VARCHAR'),
];

/** `t` without a date period (most tests). */
export const table: ExportTable = { name: 't', columns, requiresDatePeriod: false, common: COMMON };
/** The same table when it requires a date period. */
export const datedTable: ExportTable = { ...table, requiresDatePeriod: true };

export const US: ExportConnection = { id: 'us-1', timezone: 'America/Los_Angeles' };
export const DE: ExportConnection = { id: 'de-1', timezone: 'Europe/Berlin' };

/** The common columns of each connection, as the export returns them. */
export const US_C = {
  marketplace_id: 'ATVPDKIKX0DER',
  marketplace_country_code: 'US',
  marketplace_country_name: 'United States',
  seller_or_vendor_id: 'us-1',
  seller_or_vendor_name: 'Acme US',
  marketplace_seller_id: 'SELLERUS',
};
export const DE_C = {
  marketplace_id: 'A1PA6795UKMFR9',
  marketplace_country_code: 'DE',
  marketplace_country_name: 'Germany',
  seller_or_vendor_id: 'de-1',
  seller_or_vendor_name: 'Acme DE',
  marketplace_seller_id: null,
};

const XX = `'ATVPDKIKX0DER', 'US', 'United States', 'xx-9', 'Other Co', 'SELLERXX'`;
const US_SQL = `'ATVPDKIKX0DER', 'US', 'United States', 'us-1', 'Acme US', 'SELLERUS'`;
const DE_SQL = `'A1PA6795UKMFR9', 'DE', 'Germany', 'de-1', 'Acme DE', null`;

/** A fresh in-memory DuckDB holding `t`. */
export async function makeDb(): Promise<DuckDBConnection> {
  const db = await (await DuckDBInstance.create(':memory:')).connect();
  await db.run(`create table t (
    marketplace_id varchar not null, marketplace_country_code varchar not null, marketplace_country_name varchar not null,
    seller_or_vendor_id varchar not null, seller_or_vendor_name varchar not null, marketplace_seller_id varchar,
    order_id varchar not null, "date" date not null, sku varchar not null, units decimal(18,4) not null,
    sales decimal(18,4), is_business boolean, note varchar)`);
  await db.run(`insert into t values
    (${US_SQL}, 'o01', '2026-02-27', 'A-1', 1.0000, 10.0050, false, 'plain'),
    (${US_SQL}, 'o02', '2026-02-28', 'A-1', 2.0000, 20.0000, true, 'has, comma'),
    (${US_SQL}, 'o03', '2026-03-01', 'B-2', 1.0000, 5.4949, false, null),
    (${US_SQL}, 'o04', '2026-03-02', 'b-3', 3.0000, -10.0050, null, 'say "hi"'),
    (${US_SQL}, 'o05', '2026-03-09', 'C-3', 0.5000, 0.0049, true, E'line1\\nline2'),
    (${DE_SQL}, 'o06', '2026-02-28', 'A-1', 1.0000, 7.1250, false, '50% off'),
    (${DE_SQL}, 'o07', '2026-03-01', 'A-1', 4.0000, 99.9950, true, null),
    (${DE_SQL}, 'o08', '2026-03-03', 'D-4', 2.0000, null, false, 'Plain text'),
    (${DE_SQL}, 'o09', '2026-04-01', 'B-2', 1.0000, 12.3450, true, 'ok_1'),
    (${XX}, 'o10', '2026-03-01', 'A-1', 1.0000, 1.0000, false, 'other')`);
  return db;
}

/**
 * Every row of us-1 and de-1 as an export returns it (JSON form of @duckdb/node-api: dates and decimals as
 * text), in order_id order; amounts rounded to cents as worked out in the table above.
 */
export const ALL_ROWS = [
  {
    ...US_C,
    order_id: 'o01',
    date: '2026-02-27',
    sku: 'A-1',
    units: '1.00',
    sales: '10.01',
    is_business: false,
    note: 'plain',
  },
  {
    ...US_C,
    order_id: 'o02',
    date: '2026-02-28',
    sku: 'A-1',
    units: '2.00',
    sales: '20.00',
    is_business: true,
    note: 'has, comma',
  },
  {
    ...US_C,
    order_id: 'o03',
    date: '2026-03-01',
    sku: 'B-2',
    units: '1.00',
    sales: '5.49',
    is_business: false,
    note: null,
  },
  {
    ...US_C,
    order_id: 'o04',
    date: '2026-03-02',
    sku: 'b-3',
    units: '3.00',
    sales: '-10.01',
    is_business: null,
    note: 'say "hi"',
  },
  {
    ...US_C,
    order_id: 'o05',
    date: '2026-03-09',
    sku: 'C-3',
    units: '0.50',
    sales: '0.00',
    is_business: true,
    note: 'line1\nline2',
  },
  {
    ...DE_C,
    order_id: 'o06',
    date: '2026-02-28',
    sku: 'A-1',
    units: '1.00',
    sales: '7.13',
    is_business: false,
    note: '50% off',
  },
  {
    ...DE_C,
    order_id: 'o07',
    date: '2026-03-01',
    sku: 'A-1',
    units: '4.00',
    sales: '100.00',
    is_business: true,
    note: null,
  },
  {
    ...DE_C,
    order_id: 'o08',
    date: '2026-03-03',
    sku: 'D-4',
    units: '2.00',
    sales: null,
    is_business: false,
    note: 'Plain text',
  },
  {
    ...DE_C,
    order_id: 'o09',
    date: '2026-04-01',
    sku: 'B-2',
    units: '1.00',
    sales: '12.35',
    is_business: true,
    note: 'ok_1',
  },
];

/** The names of `t`'s columns in table order. */
export const ALL_COLUMNS = [...COMMON, 'order_id', 'date', 'sku', 'units', 'sales', 'is_business', 'note'];
