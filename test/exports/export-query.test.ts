// buildExportQuery against a real in-memory DuckDB holding the hand-made table `t` of ./fixture.ts (rows o01-o10,
// their rounded amounts and weekdays are listed there). Every expected row is worked out by hand from that table.
// Filters and aggregations see the exported (rounded) amounts. SQL comparisons with null are unknown, so a row
// whose field is null matches neither an operator nor its negation (only null/notNull look at nulls).
import { beforeAll, describe, expect, it } from 'vitest';
import type { DuckDBConnection } from '@duckdb/node-api';
import { MktdataError } from '../../src/errors.ts';
import { buildExportQuery, type ExportConnection, type ExportTable } from '../../src/exports/export-query.ts';
import { exportRequestSchema, type ExportRequestInput } from '../../src/exports/export-request.ts';
import { ALL_COLUMNS, ALL_ROWS, COMMON, DE, DE_C, US, US_C, datedTable, makeDb, table } from './fixture.ts';

type Fields = Omit<ExportRequestInput, 'sellerOrVendorIds' | 'tableName'> & { sellerOrVendorIds?: string[] };
type Rule = { field: string; operator: string; value?: unknown; not?: boolean };

let db: DuckDBConnection;

beforeAll(async () => {
  db = await makeDb();
});

/** The request as the API would hand it over: parsed by exportRequestSchema. */
const request = (fields: Fields) =>
  exportRequestSchema.parse({ sellerOrVendorIds: ['us-1', 'de-1'], tableName: 't', ...fields });

const build = (fields: Fields, on: ExportTable = table, connections: ExportConnection[] = [US, DE]) =>
  buildExportQuery(request(fields), on, connections);

async function run(fields: Fields, on: ExportTable = table, connections: ExportConnection[] = [US, DE]) {
  const query = build(fields, on, connections);
  return (await db.runAndReadAll(query.sql, query.params)).getRowObjectsJson();
}

/** The order_ids an export returns, in order_id order. */
async function ids(fields: Fields, on: ExportTable = table): Promise<string[]> {
  const rows = await run({ columns: ['order_id'], orderByColumn: 'order_id', ...fields }, on);
  return rows.map((r) => String(r.order_id));
}

/** The order_ids matching one filter rule. */
const matching = (rule: Rule) => ids({ filters: { rules: [rule as never] } });

/** The code and `where` of the refusal of a request, or a thrown Error when it is accepted. */
function refusal(fields: Fields, on: ExportTable = table): { code: string; where: unknown } {
  try {
    build(fields, on);
  } catch (error) {
    if (error instanceof MktdataError) return { code: error.code, where: error.params.where };
    throw error;
  }
  throw new Error('the request was accepted');
}
const refused = (where: string) => ({ code: 'ERR_INPUT_INVALID', where });

describe('buildExportQuery', () => {
  describe('rows and columns', () => {
    it('returns every column of every row of the selected connections, amounts rounded half away from zero to cents', async () => {
      const query = build({ orderByColumn: 'order_id' });
      expect(query.columns).toEqual(ALL_COLUMNS);
      const rows = (await db.runAndReadAll(query.sql, query.params)).getRowObjectsJson();
      // o10 belongs to xx-9, which is not selected; 10.0050 → 10.01, -10.0050 → -10.01, 7.1250 → 7.13, 99.9950 → 100.00
      expect(rows).toEqual(ALL_ROWS);
      expect(rows.map((r) => Object.keys(r))).toEqual(ALL_ROWS.map(() => ALL_COLUMNS));
    });

    it('returns only the rows of the connections it is given', async () => {
      const rows = await run({ sellerOrVendorIds: ['de-1'], orderByColumn: 'order_id' }, table, [DE]);
      expect(rows).toEqual(ALL_ROWS.slice(5)); // o06-o09
    });

    it('puts the common columns first, then the requested ones in their order, each once', async () => {
      const query = build({
        columns: ['sales', 'sku', 'marketplace_id', 'sku', 'seller_or_vendor_id'],
        orderByColumn: 'order_id',
      });
      expect(query.columns).toEqual([...COMMON, 'sales', 'sku']);
      const rows = (await db.runAndReadAll(query.sql, query.params)).getRowObjectsJson();
      expect(rows.map((r) => Object.keys(r))).toEqual(ALL_ROWS.map(() => [...COMMON, 'sales', 'sku']));
      expect(rows[0]).toEqual({ ...US_C, sales: '10.01', sku: 'A-1' }); // o01
      expect(rows[8]).toEqual({ ...DE_C, sales: '12.35', sku: 'B-2' }); // o09
    });

    it('returns every column when no column list is given, and only the common columns for an empty one (as the clients mean it)', () => {
      expect(build({}).columns).toEqual(ALL_COLUMNS);
      expect(build({ columns: [] }).columns).toEqual(COMMON);
    });

    it('returns only the common columns when only common columns are asked for', () => {
      expect(build({ columns: ['marketplace_country_code'] }).columns).toEqual(COMMON);
    });
  });

  describe('comparison operators', () => {
    it('compares a NUMBER with = against the rounded cents', async () => {
      expect(await matching({ field: 'sales', operator: '=', value: 10.01 })).toEqual(['o01']); // stored 10.0050
      // no exported amount is 10.005
      expect(await matching({ field: 'sales', operator: '=', value: 10.005 })).toEqual([]);
      expect(await matching({ field: 'sales', operator: '=', value: '20' })).toEqual(['o02']); // a number given as text
    });

    it('keeps rows with another value and drops nulls with !=', async () => {
      // every non-null sales but o02's 20.00; o08 (null) matches neither = nor !=
      expect(await matching({ field: 'sales', operator: '!=', value: 20 })).toEqual([
        'o01',
        'o03',
        'o04',
        'o05',
        'o06',
        'o07',
        'o09',
      ]);
    });

    it('orders NUMBERs with > >= < <=', async () => {
      // sales: o01 10.01, o02 20.00, o03 5.49, o04 -10.01, o05 0.00, o06 7.13, o07 100.00, o09 12.35
      expect(await matching({ field: 'sales', operator: '>', value: 7.13 })).toEqual(['o01', 'o02', 'o07', 'o09']);
      expect(await matching({ field: 'sales', operator: '>=', value: 7.13 })).toEqual([
        'o01',
        'o02',
        'o06',
        'o07',
        'o09',
      ]);
      expect(await matching({ field: 'sales', operator: '<', value: 5.49 })).toEqual(['o04', 'o05']);
      expect(await matching({ field: 'sales', operator: '<=', value: 5.49 })).toEqual(['o03', 'o04', 'o05']);
      expect(await matching({ field: 'sales', operator: '<', value: -10.01 })).toEqual([]);
    });

    it('compares DATEs given as YYYY-MM-DD', async () => {
      expect(await matching({ field: 'date', operator: '=', value: '2026-02-28' })).toEqual(['o02', 'o06']);
      // 03-09, 03-03, 04-01
      expect(await matching({ field: 'date', operator: '>', value: '2026-03-02' })).toEqual(['o05', 'o08', 'o09']);
      expect(await matching({ field: 'date', operator: '<=', value: '2026-02-28' })).toEqual(['o01', 'o02', 'o06']);
    });

    it('compares LOGIC with a boolean or with the text true/false, leaving null out', async () => {
      expect(await matching({ field: 'is_business', operator: '=', value: true })).toEqual([
        'o02',
        'o05',
        'o07',
        'o09',
      ]);
      expect(await matching({ field: 'is_business', operator: '=', value: 'false' })).toEqual([
        'o01',
        'o03',
        'o06',
        'o08',
      ]); // o04 is null
      expect(await matching({ field: 'is_business', operator: '!=', value: true })).toEqual([
        'o01',
        'o03',
        'o06',
        'o08',
      ]);
    });

    it('compares TEXT with = exactly, case included', async () => {
      expect(await matching({ field: 'sku', operator: '=', value: 'B-2' })).toEqual(['o03', 'o09']);
      expect(await matching({ field: 'sku', operator: '=', value: 'b-2' })).toEqual([]);
      expect(await matching({ field: 'note', operator: '=', value: 'say "hi"' })).toEqual(['o04']);
    });

    it('filters on a common column', async () => {
      expect(await matching({ field: 'seller_or_vendor_id', operator: '=', value: 'de-1' })).toEqual([
        'o06',
        'o07',
        'o08',
        'o09',
      ]);
    });
  });

  describe('text operators', () => {
    it('matches contains, beginsWith and endsWith ignoring case', async () => {
      // plain, Plain text
      expect(await matching({ field: 'note', operator: 'contains', value: 'PLAIN' })).toEqual(['o01', 'o08']);
      // B-2, b-3, B-2
      expect(await matching({ field: 'sku', operator: 'beginsWith', value: 'b' })).toEqual(['o03', 'o04', 'o09']);
      expect(await matching({ field: 'note', operator: 'endsWith', value: 'TEXT' })).toEqual(['o08']);
      expect(await matching({ field: 'note', operator: 'endsWith', value: '"hi"' })).toEqual(['o04']);
    });

    it('takes % and _ literally, not as wildcards', async () => {
      expect(await matching({ field: 'note', operator: 'contains', value: '%' })).toEqual(['o06']); // 50% off
      expect(await matching({ field: 'note', operator: 'contains', value: '_' })).toEqual(['o09']); // ok_1
      expect(await matching({ field: 'note', operator: 'beginsWith', value: '_' })).toEqual([]);
    });

    it('matches a number given to a text operator as its text', async () => {
      // line1⏎line2, ok_1
      expect(await matching({ field: 'note', operator: 'contains', value: 1 })).toEqual(['o05', 'o09']);
    });

    it('finds text across a newline', async () => {
      expect(await matching({ field: 'note', operator: 'contains', value: '1\nline' })).toEqual(['o05']);
    });

    it('keeps the non-null rows that fail the test with doesNotContain, doesNotBeginWith and doesNotEndWith', async () => {
      // notes with an "a": o01 plain, o02 has, comma, o04 say "hi", o08 Plain text; o03 and o07 are null
      expect(await matching({ field: 'note', operator: 'doesNotContain', value: 'A' })).toEqual(['o05', 'o06', 'o09']);
      // skus: A-1 (o01 o02 o06 o07), B-2 (o03 o09), b-3 (o04), C-3 (o05), D-4 (o08)
      expect(await matching({ field: 'sku', operator: 'doesNotBeginWith', value: 'a' })).toEqual([
        'o03',
        'o04',
        'o05',
        'o08',
        'o09',
      ]);
      expect(await matching({ field: 'sku', operator: 'doesNotEndWith', value: '2' })).toEqual([
        'o01',
        'o02',
        'o04',
        'o05',
        'o06',
        'o07',
        'o08',
      ]);
    });
  });

  describe('list and range operators', () => {
    it('matches in with an array or a comma-separated text, trimming the items', async () => {
      expect(await matching({ field: 'sku', operator: 'in', value: ['A-1', 'D-4'] })).toEqual([
        'o01',
        'o02',
        'o06',
        'o07',
        'o08',
      ]);
      expect(await matching({ field: 'sku', operator: 'in', value: 'C-3, D-4' })).toEqual(['o05', 'o08']);
      expect(await matching({ field: 'sales', operator: 'in', value: [0, -10.01] })).toEqual(['o04', 'o05']);
      expect(await matching({ field: 'sales', operator: 'in', value: '7.13,100' })).toEqual(['o06', 'o07']);
      expect(await matching({ field: 'date', operator: 'in', value: '2026-02-27, 2026-04-01' })).toEqual([
        'o01',
        'o09',
      ]);
      expect(await matching({ field: 'is_business', operator: 'in', value: [true] })).toEqual([
        'o02',
        'o05',
        'o07',
        'o09',
      ]);
    });

    it('matches notIn on the non-null values outside the list', async () => {
      // b-3 is not B-2
      expect(await matching({ field: 'sku', operator: 'notIn', value: ['A-1', 'B-2'] })).toEqual(['o04', 'o05', 'o08']);
      expect(await matching({ field: 'sales', operator: 'notIn', value: '10.01, 20' })).toEqual([
        'o03',
        'o04',
        'o05',
        'o06',
        'o07',
        'o09',
      ]);
    });

    it('matches between both ends included, with an array or a comma-separated text', async () => {
      // sales in [0, 10.01]: o01 10.01, o03 5.49, o05 0.00, o06 7.13
      expect(await matching({ field: 'sales', operator: 'between', value: [0, 10.01] })).toEqual([
        'o01',
        'o03',
        'o05',
        'o06',
      ]);
      expect(await matching({ field: 'sales', operator: 'between', value: '0,10.01' })).toEqual([
        'o01',
        'o03',
        'o05',
        'o06',
      ]);
      expect(await matching({ field: 'date', operator: 'between', value: '2026-02-28, 2026-03-01' })).toEqual([
        'o02',
        'o03',
        'o06',
        'o07',
      ]);
      // low above high
      expect(await matching({ field: 'date', operator: 'between', value: ['2026-03-01', '2026-02-28'] })).toEqual([]);
    });

    it('matches notBetween on the non-null values outside the range', async () => {
      // -10.01, 100.00
      expect(await matching({ field: 'sales', operator: 'notBetween', value: [0, 20] })).toEqual(['o04', 'o07']);
      expect(await matching({ field: 'date', operator: 'notBetween', value: ['2026-02-28', '2026-03-03'] })).toEqual([
        'o01',
        'o05',
        'o09',
      ]);
    });
  });

  describe('null operators', () => {
    it('matches null and notNull on TEXT, NUMBER and LOGIC columns', async () => {
      expect(await matching({ field: 'note', operator: 'null' })).toEqual(['o03', 'o07']);
      expect(await matching({ field: 'sales', operator: 'null' })).toEqual(['o08']);
      expect(await matching({ field: 'is_business', operator: 'null', value: null })).toEqual(['o04']);
      expect(await matching({ field: 'sales', operator: 'notNull', value: '' })).toEqual([
        'o01',
        'o02',
        'o03',
        'o04',
        'o05',
        'o06',
        'o07',
        'o09',
      ]);
      expect(await matching({ field: 'marketplace_seller_id', operator: 'null' })).toEqual([
        'o06',
        'o07',
        'o08',
        'o09',
      ]); // de-1 has none
    });
  });

  describe('not and combinators', () => {
    it('negates a rule with not', async () => {
      expect(await matching({ field: 'sku', operator: '=', value: 'A-1', not: true })).toEqual([
        'o03',
        'o04',
        'o05',
        'o08',
        'o09',
      ]);
      expect(await matching({ field: 'note', operator: 'null', not: true })).toEqual([
        'o01',
        'o02',
        'o04',
        'o05',
        'o06',
        'o08',
        'o09',
      ]);
      // not contains "a" is doesNotContain "a": null notes stay out of both
      expect(await matching({ field: 'note', operator: 'contains', value: 'a', not: true })).toEqual([
        'o05',
        'o06',
        'o09',
      ]);
      expect(await matching({ field: 'sales', operator: 'between', value: [0, 20], not: true })).toEqual([
        'o04',
        'o07',
      ]);
    });

    it('joins rules with and by default', async () => {
      const rules = [
        { field: 'sku', operator: '=', value: 'A-1' },
        { field: 'is_business', operator: '=', value: true },
      ] as never[];
      expect(await ids({ filters: { rules } })).toEqual(['o02', 'o07']);
      expect(await ids({ filters: { combinator: 'and', rules } })).toEqual(['o02', 'o07']);
    });

    it('joins rules with or', async () => {
      const rules = [
        { field: 'sku', operator: '=', value: 'D-4' },
        { field: 'sales', operator: '>', value: 50 },
      ] as never[];
      expect(await ids({ filters: { combinator: 'or', rules } })).toEqual(['o07', 'o08']);
    });

    it('returns every row for an empty rule list', async () => {
      expect(await ids({ filters: { rules: [] } })).toEqual([
        'o01',
        'o02',
        'o03',
        'o04',
        'o05',
        'o06',
        'o07',
        'o08',
        'o09',
      ]);
    });
  });

  describe('ordering and paging', () => {
    it('orders by a column descending, nulls last, with lower-case desc accepted', async () => {
      const rows = await run({ columns: ['order_id', 'sales'], orderByColumn: 'sales', orderByDirection: 'desc' });
      // 100.00 o07, 20.00 o02, 12.35 o09, 10.01 o01, 7.13 o06, 5.49 o03, 0.00 o05, -10.01 o04, null o08 (DuckDB: nulls
      // last)
      expect(rows.map((r) => [r.order_id, r.sales])).toEqual([
        ['o07', '100.00'],
        ['o02', '20.00'],
        ['o09', '12.35'],
        ['o01', '10.01'],
        ['o06', '7.13'],
        ['o03', '5.49'],
        ['o05', '0.00'],
        ['o04', '-10.01'],
        ['o08', null],
      ]);
    });

    it('breaks ties of the order column by the output columns in their order', async () => {
      const rows = await run({ columns: ['sku', 'order_id'], orderByColumn: 'sku', orderByDirection: 'ASC' });
      // sku: A-1 < B-2 < C-3 < D-4 < b-3 (bytes); ties by marketplace_id: A1PA6795UKMFR9 (de-1) < ATVPDKIKX0DER (us-1),
      // then order_id
      expect(rows.map((r) => r.order_id)).toEqual(['o06', 'o07', 'o01', 'o02', 'o09', 'o03', 'o05', 'o08', 'o04']);
    });

    it('orders by a column that is not among the output columns', async () => {
      const rows = await run({ columns: ['order_id'], orderByColumn: 'date', orderByDirection: 'DESC' });
      // 04-01 o09, 03-09 o05, 03-03 o08, 03-02 o04, 03-01 o03 (us-1) and o07 (de-1: first by marketplace_id),
      // 02-28 o02 and o06 (de-1 first), 02-27 o01
      expect(rows.map((r) => r.order_id)).toEqual(['o09', 'o05', 'o08', 'o04', 'o07', 'o03', 'o06', 'o02', 'o01']);
    });

    it('skips and limits rows after ordering', async () => {
      expect(await ids({ limit: 3, skip: 2 })).toEqual(['o03', 'o04', 'o05']);
      expect(await ids({ limit: 2 })).toEqual(['o01', 'o02']);
      expect(await ids({ skip: 7 })).toEqual(['o08', 'o09']);
      expect(await ids({ skip: 0, limit: 1 })).toEqual(['o01']);
      expect(await ids({ skip: 9 })).toEqual([]);
    });
  });

  describe('groups and aggregations', () => {
    it('groups by a column within each connection, with every aggregation, default aliases and an explicit one', async () => {
      const query = build({
        groupBy: ['sku'],
        aggregations: [
          { column: 'note', aggregation: 'count' },
          { column: 'date', aggregation: 'countDistinct' },
          { column: 'sales', aggregation: 'sum' },
          { column: 'units', aggregation: 'avg' },
          { column: 'date', aggregation: 'min' },
          { column: 'sales', aggregation: 'max', alias: 'top_sale' },
        ],
      });
      expect(query.columns).toEqual([
        ...COMMON,
        'sku',
        'count_note',
        'count_distinct_date',
        'sum_sales',
        'avg_units',
        'min_date',
        'top_sale',
      ]);
      const rows = (await db.runAndReadAll(query.sql, query.params)).getRowObjectsJson();
      // default order: common columns (de-1's marketplace_id first), then sku by bytes (C-3 before b-3)
      expect(rows).toEqual([
        // o06 7.13 + o07 100.00; units (1 + 4) / 2; o07's note is null
        {
          ...DE_C,
          sku: 'A-1',
          count_note: '1',
          count_distinct_date: '2',
          sum_sales: '107.13',
          avg_units: '2.5000',
          min_date: '2026-02-28',
          top_sale: '100.00',
        },
        {
          ...DE_C,
          sku: 'B-2',
          count_note: '1',
          count_distinct_date: '1',
          sum_sales: '12.35',
          avg_units: '1.0000',
          min_date: '2026-04-01',
          top_sale: '12.35',
        },
        // o08's sales is null: sum and max of nothing are null
        {
          ...DE_C,
          sku: 'D-4',
          count_note: '1',
          count_distinct_date: '1',
          sum_sales: null,
          avg_units: '2.0000',
          min_date: '2026-03-03',
          top_sale: null,
        },
        // o01 10.01 + o02 20.00; units (1 + 2) / 2
        {
          ...US_C,
          sku: 'A-1',
          count_note: '2',
          count_distinct_date: '2',
          sum_sales: '30.01',
          avg_units: '1.5000',
          min_date: '2026-02-27',
          top_sale: '20.00',
        },
        {
          ...US_C,
          sku: 'B-2',
          count_note: '0',
          count_distinct_date: '1',
          sum_sales: '5.49',
          avg_units: '1.0000',
          min_date: '2026-03-01',
          top_sale: '5.49',
        },
        {
          ...US_C,
          sku: 'C-3',
          count_note: '1',
          count_distinct_date: '1',
          sum_sales: '0.00',
          avg_units: '0.5000',
          min_date: '2026-03-09',
          top_sale: '0.00',
        },
        {
          ...US_C,
          sku: 'b-3',
          count_note: '1',
          count_distinct_date: '1',
          sum_sales: '-10.01',
          avg_units: '3.0000',
          min_date: '2026-03-02',
          top_sale: '-10.01',
        },
      ]);
    });

    it('aggregates each connection as one group when only aggregations are given', async () => {
      const rows = await run({
        aggregations: [
          { column: 'order_id', aggregation: 'count' },
          { column: 'units', aggregation: 'avg' },
        ],
      });
      expect(rows).toEqual([
        { ...DE_C, count_order_id: '4', avg_units: '2.0000' }, // (1 + 4 + 2 + 1) / 4
        { ...US_C, count_order_id: '5', avg_units: '1.5000' }, // (1 + 2 + 1 + 3 + 0.5) / 5 = 7.5 / 5
      ]);
    });

    it('sums the rounded cents, not the 4-decimal amounts', async () => {
      // o03 5.4949 + o05 0.0049 = 5.4998 would round to 5.50; the exported 5.49 + 0.00 = 5.49
      const rows = await run({
        filters: { rules: [{ field: 'order_id', operator: 'in', value: ['o03', 'o05'] }] },
        aggregations: [{ column: 'sales', aggregation: 'sum' }],
      });
      expect(rows).toEqual([{ ...US_C, sum_sales: '5.49' }]);
    });

    it('filters the rows before grouping', async () => {
      const rows = await run({
        filters: { rules: [{ field: 'is_business', operator: '=', value: true }] },
        groupBy: ['sku'],
        aggregations: [{ column: 'units', aggregation: 'sum' }],
      });
      // true: o02 A-1 2.00, o05 C-3 0.50 (us-1); o07 A-1 4.00, o09 B-2 1.00 (de-1)
      expect(rows).toEqual([
        { ...DE_C, sku: 'A-1', sum_units: '4.00' },
        { ...DE_C, sku: 'B-2', sum_units: '1.00' },
        { ...US_C, sku: 'A-1', sum_units: '2.00' },
        { ...US_C, sku: 'C-3', sum_units: '0.50' },
      ]);
    });

    it('keeps the groups that pass having, on an aggregation alias', async () => {
      const rows = await run({
        groupBy: ['sku'],
        aggregations: [{ column: 'sales', aggregation: 'sum' }],
        having: { rules: [{ field: 'sum_sales', operator: '>', value: 10 }] },
      });
      // sums: de-1 A-1 107.13, B-2 12.35, D-4 null; us-1 A-1 30.01, B-2 5.49, C-3 0.00, b-3 -10.01
      expect(rows).toEqual([
        { ...DE_C, sku: 'A-1', sum_sales: '107.13' },
        { ...DE_C, sku: 'B-2', sum_sales: '12.35' },
        { ...US_C, sku: 'A-1', sum_sales: '30.01' },
      ]);
    });

    it('joins having rules with or and takes a grouping column in having', async () => {
      const rows = await run({
        groupBy: ['sku'],
        aggregations: [
          { column: 'sales', aggregation: 'sum' },
          { column: 'order_id', aggregation: 'count', alias: 'lines' },
        ],
        having: {
          combinator: 'or',
          rules: [
            { field: 'sum_sales', operator: '<', value: 0 },
            { field: 'lines', operator: '>=', value: 2 },
            { field: 'sku', operator: '=', value: 'D-4' },
          ],
        },
      });
      // lines: A-1 has 2 in both connections; us-1 b-3 sums to -10.01; de-1 D-4 by sku
      expect(rows).toEqual([
        { ...DE_C, sku: 'A-1', sum_sales: '107.13', lines: '2' },
        { ...DE_C, sku: 'D-4', sum_sales: null, lines: '1' },
        { ...US_C, sku: 'A-1', sum_sales: '30.01', lines: '2' },
        { ...US_C, sku: 'b-3', sum_sales: '-10.01', lines: '1' },
      ]);
    });

    it('returns the requested grouped columns after the common ones', async () => {
      const query = build(
        {
          groupBy: ['sku'],
          aggregations: [{ column: 'sales', aggregation: 'sum' }],
          columns: ['sum_sales', 'sku'],
          sellerOrVendorIds: ['us-1'],
        },
        table,
        [US],
      );
      expect(query.columns).toEqual([...COMMON, 'sum_sales', 'sku']);
      const rows = (await db.runAndReadAll(query.sql, query.params)).getRowObjectsJson();
      expect(rows.map((r) => Object.keys(r))).toEqual([0, 1, 2, 3].map(() => [...COMMON, 'sum_sales', 'sku']));
      expect(rows.map((r) => [r.sku, r.sum_sales])).toEqual([
        ['A-1', '30.01'],
        ['B-2', '5.49'],
        ['C-3', '0.00'],
        ['b-3', '-10.01'],
      ]);
    });

    it('orders groups by an aggregation descending, then limits and skips them', async () => {
      const fields: Fields = {
        groupBy: ['sku'],
        aggregations: [{ column: 'sales', aggregation: 'sum' }],
        orderByColumn: 'sum_sales',
        orderByDirection: 'DESC',
      };
      const rows = await run(fields);
      // 107.13 de A-1, 30.01 us A-1, 12.35 de B-2, 5.49 us B-2, 0.00 us C-3, -10.01 us b-3, null de D-4 (nulls last)
      expect(rows.map((r) => [r.seller_or_vendor_id, r.sku, r.sum_sales])).toEqual([
        ['de-1', 'A-1', '107.13'],
        ['us-1', 'A-1', '30.01'],
        ['de-1', 'B-2', '12.35'],
        ['us-1', 'B-2', '5.49'],
        ['us-1', 'C-3', '0.00'],
        ['us-1', 'b-3', '-10.01'],
        ['de-1', 'D-4', null],
      ]);
      const page = await run({ ...fields, skip: 2, limit: 2 });
      expect(page.map((r) => [r.seller_or_vendor_id, r.sku])).toEqual([
        ['de-1', 'B-2'],
        ['us-1', 'B-2'],
      ]);
    });

    it('pages groups in their default order', async () => {
      const rows = await run({
        groupBy: ['sku'],
        aggregations: [{ column: 'units', aggregation: 'max' }],
        limit: 2,
        skip: 1,
      });
      // default order: de-1 A-1, de-1 B-2, de-1 D-4, us-1 A-1, …
      expect(rows).toEqual([
        { ...DE_C, sku: 'B-2', max_units: '1.00' },
        { ...DE_C, sku: 'D-4', max_units: '2.00' },
      ]);
    });
  });

  describe('date intervals', () => {
    it('groups by day with DAY', async () => {
      const rows = await run(
        { sellerOrVendorIds: ['us-1'], dateInterval: 'DAY', aggregations: [{ column: 'units', aggregation: 'sum' }] },
        table,
        [US],
      );
      expect(rows).toEqual([
        { ...US_C, date: '2026-02-27', sum_units: '1.00' },
        { ...US_C, date: '2026-02-28', sum_units: '2.00' },
        { ...US_C, date: '2026-03-01', sum_units: '1.00' },
        { ...US_C, date: '2026-03-02', sum_units: '3.00' },
        { ...US_C, date: '2026-03-09', sum_units: '0.50' },
      ]);
    });

    it('groups by ISO week starting on Monday with WEEK', async () => {
      const rows = await run({ dateInterval: 'WEEK', aggregations: [{ column: 'units', aggregation: 'sum' }] });
      // week of Monday 02-23: Fri 02-27, Sat 02-28 and Sun 03-01; 03-02 (Mon) and 03-03 (Tue) in the week of 03-02;
      // 03-09 is a Monday; Wed 04-01 is in the week of Monday 03-30
      expect(rows).toEqual([
        { ...DE_C, date: '2026-02-23', sum_units: '5.00' }, // o06 1 + o07 4
        { ...DE_C, date: '2026-03-02', sum_units: '2.00' }, // o08
        { ...DE_C, date: '2026-03-30', sum_units: '1.00' }, // o09
        { ...US_C, date: '2026-02-23', sum_units: '4.00' }, // o01 1 + o02 2 + o03 1
        { ...US_C, date: '2026-03-02', sum_units: '3.00' }, // o04
        { ...US_C, date: '2026-03-09', sum_units: '0.50' }, // o05
      ]);
    });

    it('groups by month with MONTH, together with a groupBy column', async () => {
      const rows = await run({
        dateInterval: 'MONTH',
        groupBy: ['is_business'],
        aggregations: [{ column: 'sales', aggregation: 'sum' }],
      });
      // de-1: 02 false o06 7.13; 03 false o08 null, true o07 100.00; 04 true o09 12.35
      // us-1: 02 false o01 10.01, true o02 20.00; 03 false o03 5.49, true o05 0.00, null o04 -10.01 (nulls last)
      expect(rows).toEqual([
        { ...DE_C, date: '2026-02-01', is_business: false, sum_sales: '7.13' },
        { ...DE_C, date: '2026-03-01', is_business: false, sum_sales: null },
        { ...DE_C, date: '2026-03-01', is_business: true, sum_sales: '100.00' },
        { ...DE_C, date: '2026-04-01', is_business: true, sum_sales: '12.35' },
        { ...US_C, date: '2026-02-01', is_business: false, sum_sales: '10.01' },
        { ...US_C, date: '2026-02-01', is_business: true, sum_sales: '20.00' },
        { ...US_C, date: '2026-03-01', is_business: false, sum_sales: '5.49' },
        { ...US_C, date: '2026-03-01', is_business: true, sum_sales: '0.00' },
        { ...US_C, date: '2026-03-01', is_business: null, sum_sales: '-10.01' },
      ]);
    });

    it('sums a month of one connection', async () => {
      const rows = await run(
        { sellerOrVendorIds: ['us-1'], dateInterval: 'MONTH', aggregations: [{ column: 'sales', aggregation: 'sum' }] },
        table,
        [US],
      );
      // 02: 10.01 + 20.00 = 30.01; 03: 5.49 - 10.01 + 0.00 = -4.52
      expect(rows).toEqual([
        { ...US_C, date: '2026-02-01', sum_sales: '30.01' },
        { ...US_C, date: '2026-03-01', sum_sales: '-4.52' },
      ]);
    });
  });

  describe('date period', () => {
    it('keeps the rows from the from date to the to date, both included', async () => {
      expect(await ids({ from: '2026-02-28', to: '2026-03-01' }, datedTable)).toEqual(['o02', 'o03', 'o06', 'o07']);
      expect(await ids({ from: '2026-03-03', to: '2026-03-03' }, datedTable)).toEqual(['o08']);
    });

    it('takes the marketplace-local date of ISO date-times for each connection', async () => {
      // from 2026-03-01T05:00Z: 21:00 on 02-28 in Los Angeles (UTC-8), 06:00 on 03-01 in Berlin (UTC+1);
      // to 2026-03-02T23:30Z: 15:30 on 03-02 in Los Angeles, 00:30 on 03-03 in Berlin.
      // us-1 [02-28, 03-02]: o02, o03, o04; de-1 [03-01, 03-03]: o07, o08 (not o06 of 02-28)
      expect(await ids({ from: '2026-03-01T05:00:00Z', to: '2026-03-02T23:30:00Z' }, datedTable)).toEqual([
        'o02',
        'o03',
        'o04',
        'o07',
        'o08',
      ]);
    });

    it('reads the offset of a date-time', async () => {
      // 2026-03-01T00:30+01:00 is 2026-02-28T23:30Z: 15:30 on 02-28 in Los Angeles, 00:30 on 03-01 in Berlin; to 03-01
      // us-1 [02-28, 03-01]: o02, o03; de-1 [03-01, 03-01]: o07
      expect(await ids({ from: '2026-03-01T00:30:00+01:00', to: '2026-03-01' }, datedTable)).toEqual([
        'o02',
        'o03',
        'o07',
      ]);
    });

    it('combines the period with filters and groups', async () => {
      const rows = await run(
        {
          from: '2026-02-01',
          to: '2026-03-01',
          aggregations: [{ column: 'sales', aggregation: 'sum' }],
          filters: { rules: [{ field: 'sku', operator: '=', value: 'A-1' }] },
        },
        datedTable,
      );
      // de-1: o06 7.13 + o07 100.00; us-1: o01 10.01 + o02 20.00
      expect(rows).toEqual([
        { ...DE_C, sum_sales: '107.13' },
        { ...US_C, sum_sales: '30.01' },
      ]);
    });
  });

  describe('refusals', () => {
    it('refuses an unknown column wherever a column is named', () => {
      expect(refusal({ filters: { rules: [{ field: 'nope', operator: '=', value: 'x' }] } })).toEqual(
        refused('filters.rules.0.field'),
      );
      expect(
        refusal({
          filters: {
            rules: [
              { field: 'sku', operator: 'notNull' },
              { field: 'Sku', operator: '=', value: 'x' },
            ],
          },
        }),
      ).toEqual(refused('filters.rules.1.field'));
      expect(refusal({ columns: ['sku', 'nope'] })).toEqual(refused('columns.1'));
      expect(refusal({ orderByColumn: 'nope' })).toEqual(refused('orderByColumn'));
      expect(refusal({ groupBy: ['nope'] })).toEqual(refused('groupBy.0'));
      expect(refusal({ aggregations: [{ column: 'nope', aggregation: 'count' }] })).toEqual(
        refused('aggregations.0.column'),
      );
    });

    it('refuses a value of the wrong type for the column', () => {
      const rule = (field: string, operator: string, value: unknown) => ({
        filters: { rules: [{ field, operator, value } as never] },
      });
      expect(refusal(rule('sales', '=', 'abc'))).toEqual(refused('filters.rules.0.value'));
      expect(refusal(rule('sales', '=', true))).toEqual(refused('filters.rules.0.value'));
      expect(refusal(rule('sales', '=', '1e3'))).toEqual(refused('filters.rules.0.value'));
      expect(refusal(rule('sales', '=', '0.12345678901'))).toEqual(refused('filters.rules.0.value')); // 11 decimals
      expect(refusal(rule('date', '=', '01/03/2026'))).toEqual(refused('filters.rules.0.value'));
      expect(refusal(rule('date', '=', '2026-13-01'))).toEqual(refused('filters.rules.0.value'));
      expect(refusal(rule('date', '=', 20260301))).toEqual(refused('filters.rules.0.value'));
      expect(refusal(rule('is_business', '=', 'yes'))).toEqual(refused('filters.rules.0.value'));
      expect(refusal(rule('is_business', '=', 1))).toEqual(refused('filters.rules.0.value'));
      expect(refusal(rule('sales', 'in', [1, 'x']))).toEqual(refused('filters.rules.0.value.1'));
      expect(refusal(rule('date', 'between', '2026-03-01, tomorrow'))).toEqual(refused('filters.rules.0.value.1'));
    });

    it('refuses a date that does not exist in the calendar', () => {
      // 2026 is not a leap year: February has 28 days. JavaScript's Date.parse takes 2026-02-30 as 2026-03-02,
      // but DuckDB's cast to DATE fails on it, so the builder must refuse it.
      expect(refusal({ filters: { rules: [{ field: 'date', operator: '=', value: '2026-02-30' }] } })).toEqual(
        refused('filters.rules.0.value'),
      );
    });

    it('refuses a single value where a list is needed, and a list where one value is needed', () => {
      const rule = (field: string, operator: string, value: unknown) => ({
        filters: { rules: [{ field, operator, value } as never] },
      });
      expect(refusal(rule('sales', 'between', [5]))).toEqual(refused('filters.rules.0.value'));
      expect(refusal(rule('sales', 'between', '5'))).toEqual(refused('filters.rules.0.value'));
      expect(refusal(rule('sales', 'notBetween', [1, 2, 3]))).toEqual(refused('filters.rules.0.value'));
      expect(refusal(rule('sku', 'in', []))).toEqual(refused('filters.rules.0.value'));
      expect(refusal(rule('sku', 'in', null))).toEqual(refused('filters.rules.0.value'));
      expect(refusal(rule('sales', '=', [1, 2]))).toEqual(refused('filters.rules.0.value'));
      expect(refusal(rule('sales', '>', null))).toEqual(refused('filters.rules.0.value'));
    });

    it('refuses a value given to null or notNull', () => {
      expect(refusal({ filters: { rules: [{ field: 'note', operator: 'null', value: 'x' }] } })).toEqual(
        refused('filters.rules.0.value'),
      );
      expect(refusal({ filters: { rules: [{ field: 'note', operator: 'notNull', value: false }] } })).toEqual(
        refused('filters.rules.0.value'),
      );
    });

    it('refuses an empty or boolean text for a text operator', () => {
      expect(refusal({ filters: { rules: [{ field: 'note', operator: 'contains', value: '' }] } })).toEqual(
        refused('filters.rules.0.value'),
      );
      expect(refusal({ filters: { rules: [{ field: 'note', operator: 'beginsWith', value: true }] } })).toEqual(
        refused('filters.rules.0.value'),
      );
      expect(refusal({ filters: { rules: [{ field: 'note', operator: 'endsWith' }] } })).toEqual(
        refused('filters.rules.0.value'),
      );
    });

    it('refuses sum and avg of a column that is not a NUMBER', () => {
      expect(refusal({ aggregations: [{ column: 'sku', aggregation: 'sum' }] })).toEqual(
        refused('aggregations.0.aggregation'),
      );
      expect(
        refusal({
          aggregations: [
            { column: 'units', aggregation: 'sum' },
            { column: 'date', aggregation: 'avg' },
          ],
        }),
      ).toEqual(refused('aggregations.1.aggregation'));
    });

    it('refuses an alias that is already a column or an earlier alias', () => {
      expect(refusal({ aggregations: [{ column: 'sales', aggregation: 'sum', alias: 'sales' }] })).toEqual(
        refused('aggregations.0.alias'),
      );
      expect(refusal({ aggregations: [{ column: 'sales', aggregation: 'sum', alias: 'marketplace_id' }] })).toEqual(
        refused('aggregations.0.alias'),
      );
      // note is a column of t even when it is not grouped
      expect(
        refusal({ groupBy: ['sku'], aggregations: [{ column: 'sku', aggregation: 'count', alias: 'note' }] }),
      ).toEqual(refused('aggregations.0.alias'));
      // the default alias sum_sales, twice
      expect(
        refusal({
          aggregations: [
            { column: 'sales', aggregation: 'sum' },
            { column: 'sales', aggregation: 'sum' },
          ],
        }),
      ).toEqual(refused('aggregations.1.alias'));
      expect(
        refusal({
          aggregations: [
            { column: 'sales', aggregation: 'max', alias: 'top' },
            { column: 'units', aggregation: 'max', alias: 'top' },
          ],
        }),
      ).toEqual(refused('aggregations.1.alias'));
    });

    it('refuses having, columns and orderByColumn on a column that is neither grouped nor aggregated', () => {
      const grouped: Fields = { groupBy: ['sku'], aggregations: [{ column: 'sales', aggregation: 'sum' }] };
      expect(refusal({ ...grouped, having: { rules: [{ field: 'sales', operator: '>', value: 0 }] } })).toEqual(
        refused('having.rules.0.field'),
      );
      expect(
        refusal({
          ...grouped,
          having: {
            rules: [
              { field: 'sum_sales', operator: '>', value: 0 },
              { field: 'nope', operator: 'null' },
            ],
          },
        }),
      ).toEqual(refused('having.rules.1.field'));
      expect(refusal({ ...grouped, columns: ['sku', 'units'] })).toEqual(refused('columns.1'));
      expect(refusal({ ...grouped, orderByColumn: 'date' })).toEqual(refused('orderByColumn'));
    });

    it('refuses having when nothing is grouped or aggregated', () => {
      // without groupBy, aggregations or dateInterval no column is aggregated, so a having rule can never apply; it
      // must be refused rather than dropped (dropping it exports every row, sales 100.00 and null included)
      expect(refusal({ having: { rules: [{ field: 'sales', operator: '>', value: 10 }] } })).toEqual(
        refused('having.rules.0.field'),
      );
    });

    it('refuses a request without a full period for a table that requires one', () => {
      expect(refusal({}, datedTable)).toEqual(refused('from'));
      expect(refusal({ to: '2026-03-01' }, datedTable)).toEqual(refused('from'));
      expect(refusal({ from: '2026-03-01' }, datedTable)).toEqual(refused('to'));
    });

    it('refuses a period for a table without one', () => {
      expect(refusal({ from: '2026-03-01', to: '2026-03-02' })).toEqual(refused('from'));
      expect(refusal({ to: '2026-03-02' })).toEqual(refused('to'));
    });

    it('refuses a from date after the to date', () => {
      expect(refusal({ from: '2026-03-02', to: '2026-03-01' }, datedTable)).toEqual(refused('from'));
      // 2026-03-02T07:00Z is 03-01 23:00 in Los Angeles but 03-02 in Berlin, after to 03-01
      expect(refusal({ from: '2026-03-02T07:00:00Z', to: '2026-03-01' }, datedTable)).toEqual(refused('from'));
    });

    it('refuses a dateInterval on a table without a date column', () => {
      const undated: ExportTable = { ...table, columns: table.columns.filter((c) => c.name !== 'date') };
      expect(refusal({ dateInterval: 'DAY' }, undated)).toEqual(refused('dateInterval'));
    });
  });

  describe('injection', () => {
    const attack = "'); drop table t; --";

    it('binds a value with SQL in it as a value: no row matches and the table stays', async () => {
      const query = build({
        filters: {
          combinator: 'or',
          rules: [
            { field: 'note', operator: '=', value: attack },
            { field: 'sku', operator: 'contains', value: attack },
            { field: 'sku', operator: 'in', value: `A-1'); drop table t; --, x` },
          ],
        },
      });
      expect(query.sql).not.toContain('drop table');
      // the in-list splits at the comma into "A-1'); drop table t; --" and "x": neither is a sku
      const rows = (await db.runAndReadAll(query.sql, query.params)).getRowObjectsJson();
      expect(rows).toEqual([]);
      expect((await db.runAndReadAll('select count(*)::int as n from t')).getRowObjectsJson()).toEqual([{ n: 10 }]);
    });

    it('refuses a column name with SQL in it', () => {
      expect(refusal({ filters: { rules: [{ field: 'sku = sku or 1=1 --', operator: '=', value: 'x' }] } })).toEqual(
        refused('filters.rules.0.field'),
      );
      expect(refusal({ columns: ['sku" from t; drop table t; --'] })).toEqual(refused('columns.0'));
      expect(refusal({ orderByColumn: 'sku; drop table t' })).toEqual(refused('orderByColumn'));
      expect(refusal({ groupBy: ['1; drop table t'] })).toEqual(refused('groupBy.0'));
      expect(refusal({ aggregations: [{ column: '*) from t; drop table t; --', aggregation: 'count' }] })).toEqual(
        refused('aggregations.0.column'),
      );
      const grouped: Fields = { aggregations: [{ column: 'sales', aggregation: 'sum' }] };
      expect(refusal({ ...grouped, having: { rules: [{ field: 'sum_sales) or (1=1', operator: 'null' }] } })).toEqual(
        refused('having.rules.0.field'),
      );
    });

    it('leaves aliases with SQL in them to the request schema, which refuses them', () => {
      const parsed = exportRequestSchema.safeParse({
        sellerOrVendorIds: ['us-1'],
        tableName: 't',
        aggregations: [{ column: 'sales', aggregation: 'sum', alias: 'x" from t; --' }],
      });
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues[0]?.path).toEqual(['aggregations', 0, 'alias']);
    });
  });
});
