// The output formats of an export: DuckDB COPY of a buildExportQuery query with the copyOptions of write-export.ts,
// into a temporary folder, read back by independent readers (csv-parse, JSON.parse, hyparquet). writeExport itself
// opens a published home; here the same COPY statement runs on the in-memory table `t` of ./fixture.ts, whose
// expected rows (ALL_ROWS, worked out by hand there) every format must give back.
//
// The parquet files are zstd-compressed (copyOptions.PARQUET); hyparquet reads only snappy and uncompressed pages
// by itself, so hyparquet-compressors (pure JS and wasm, from the same authors) adds its ZSTD decompressor.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { parse as parseCsv } from 'csv-parse/sync';
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import { buildExportQuery } from '../../src/exports/export-query.ts';
import { exportRequestSchema, type OutputType } from '../../src/exports/export-request.ts';
import { copyOptions, fileExtensions } from '../../src/exports/write-export.ts';
import { ALL_COLUMNS, ALL_ROWS, DE, US, makeDb, table } from './fixture.ts';

let db: DuckDBConnection;
let dir: string;

beforeAll(async () => {
  db = await makeDb();
  dir = mkdtempSync(join(tmpdir(), 'mktdata-export-'));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every row of us-1 and de-1 in order_id order, written as writeExport writes it; its path and COPY's row count. */
async function write(outputType: OutputType): Promise<{ path: string; rows: number }> {
  const query = buildExportQuery(
    exportRequestSchema.parse({
      sellerOrVendorIds: ['us-1', 'de-1'],
      tableName: 't',
      orderByColumn: 'order_id',
      outputType,
    }),
    table,
    [US, DE],
  );
  const path = join(dir, `out.${fileExtensions[outputType]}`);
  const result = await db.run(
    `copy (${query.sql}) to '${path.replace(/'/g, "''")}' (${copyOptions[outputType]})`,
    query.params,
  );
  return { path, rows: Number(result.rowsChanged) };
}

describe('copyOptions', () => {
  it('names the file extension of each output type', () => {
    expect(fileExtensions).toEqual({ CSV: 'csv', JSON: 'json', PARQUET: 'parquet' });
  });

  it('writes CSV per RFC 4180: a header, CRLF line ends, quotes doubled, fields with a comma, quote or newline quoted', async () => {
    const { path, rows } = await write('CSV');
    expect(rows).toBe(9);
    const text = readFileSync(path, 'utf8');
    expect(text.startsWith(`${ALL_COLUMNS.join(',')}\r\n`)).toBe(true);
    expect(text.endsWith('\r\n')).toBe(true);
    // one CRLF after the header and after each of the 9 rows; o05's newline inside its note stays a bare LF
    expect(text.split('\r\n')).toHaveLength(11);
    expect(text).toContain(
      '\r\nATVPDKIKX0DER,US,United States,us-1,Acme US,SELLERUS,o01,2026-02-27,A-1,1.00,10.01,false,plain\r\n',
    );
    expect(text).toContain(',o02,2026-02-28,A-1,2.00,20.00,true,"has, comma"\r\n');
    expect(text).toContain(',o04,2026-03-02,b-3,3.00,-10.01,,"say ""hi"""\r\n');
    expect(text).toContain(',o05,2026-03-09,C-3,0.50,0.00,true,"line1\nline2"\r\n');
    // de-1 has no marketplace_seller_id: an empty field; o07's note is null: an empty last field
    expect(text).toContain('\r\nA1PA6795UKMFR9,DE,Germany,de-1,Acme DE,,o07,2026-03-01,A-1,4.00,100.00,true,\r\n');

    // read back, every field is its text; a null is an empty field
    const parsed = parseCsv(text, { columns: true }) as Record<string, string>[];
    const asText = ALL_ROWS.map((row) =>
      Object.fromEntries(Object.entries(row).map(([k, v]) => [k, v === null ? '' : String(v)])),
    );
    expect(parsed).toEqual(asText);
  });

  it('writes JSON as one flat array of row objects, amounts as numbers and dates as YYYY-MM-DD', async () => {
    const { path, rows } = await write('JSON');
    expect(rows).toBe(9);
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>[];
    expect(Array.isArray(parsed)).toBe(true);
    expect(parsed.map((r) => Object.keys(r))).toEqual(ALL_ROWS.map(() => ALL_COLUMNS));
    // the hand-worked rows with units and sales as JSON numbers: '10.01' → 10.01, '0.00' → 0, null stays null
    const asJson = ALL_ROWS.map((row) => ({
      ...row,
      units: Number(row.units),
      sales: row.sales === null ? null : Number(row.sales),
    }));
    expect(parsed).toEqual(asJson);
    expect(parsed[3]).toMatchObject({ order_id: 'o04', sales: -10.01, is_business: null, note: 'say "hi"' });
    expect(parsed[4]).toMatchObject({ order_id: 'o05', units: 0.5, sales: 0, note: 'line1\nline2' });
  });

  it('writes PARQUET compressed with zstd, amounts as DECIMAL(18,2), that another reader reads back', async () => {
    const { path, rows } = await write('PARQUET');
    expect(rows).toBe(9);
    const file = await asyncBufferFromFile(path);
    const metadata = await parquetMetadataAsync(file);
    expect(Number(metadata.num_rows)).toBe(9);
    expect(metadata.row_groups[0]!.columns.map((c) => c.meta_data?.codec)).toEqual(ALL_COLUMNS.map(() => 'ZSTD'));
    const sales = metadata.schema.find((s) => s.name === 'sales')!;
    expect([sales.converted_type, sales.precision, sales.scale]).toEqual(['DECIMAL', 18, 2]);

    const parsed = await parquetReadObjects({ file, compressors });
    expect(parsed.map((r) => Object.keys(r))).toEqual(ALL_ROWS.map(() => ALL_COLUMNS));
    // hyparquet gives a DECIMAL as unscaled × 10^-scale (a float: 549 × 0.01 may not be exactly 5.49), so amounts
    // are compared at 2 decimals; a DATE is a Date at midnight UTC
    const normalized = parsed.map((r) => ({
      ...r,
      date: (r.date as Date).toISOString().slice(0, 10),
      units: (r.units as number).toFixed(2),
      sales: r.sales === null ? null : (r.sales as number).toFixed(2),
    }));
    expect(normalized).toEqual(ALL_ROWS);
  });
});
