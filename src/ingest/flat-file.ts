import { RefusedFile, type LandContext, type StagedFile } from './source.ts';
import { isGzip, readFirstLine } from './text-file.ts';

/** How a column of a delimited upstream file is read, checked and typed. */
export interface FlatColumn {
  /** Canonical header name, e.g. `amazon-order-id`; the raw column is its snake_case form. */
  name: string;
  /** Header variants seen across marketplaces (`quantity-purchased`). */
  aliases?: string[];
  type: 'text' | 'decimal' | 'integer' | 'timestamp' | 'boolean' | 'date';
  /** `header`: the column must be present; `value`: and non-empty on every line. */
  required?: 'header' | 'value';
}

/** A delimited file format: its columns and dialect. */
export interface FlatFormat {
  columns: FlatColumn[];
  delimiter: '\t' | ',';
  /** Upstream flat files are unquoted: a `"` is data. User CSVs may quote. */
  quoted: boolean;
}

export const sqlTypes: Record<FlatColumn['type'], string> = {
  text: 'varchar',
  decimal: 'decimal(18,4)',
  integer: 'bigint',
  timestamp: 'timestamptz',
  boolean: 'boolean',
  date: 'date',
};

/** `amazon-order-id` → `amazon_order_id`, `advertisedAsin` → `advertised_asin`. */
export const rawName = (name: string) =>
  name
    .replace(/([a-z])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_');

const normalizeHeader = (field: string) =>
  field
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, '-');

/** DDL of a raw table: typed upstream columns, unknown columns as JSON, lineage columns. */
export function rawTableDdl(table: string, format: FlatFormat): string {
  const columns = format.columns.map((c) => `${rawName(c.name)} ${sqlTypes[c.type]}`);
  return `create table if not exists ${table} (${columns.join(', ')}, _extra json, ${lineageDdl})`;
}

export const lineageDdl =
  '_file_id varchar not null, _line_number bigint not null, _landed_at timestamptz not null, _connection_id varchar not null, _marketplace_id varchar not null';

/**
 * The default of a staging source's `staged` argument: its caller stages the file first (land-file.ts) and passes it.
 */
export function stagedBefore(): never {
  throw new Error('this source lands a staged file: call its stage() before land()');
}

/**
 * A file to be read into a temp table as `select` of its header fields and their mapping (its `restage` reads it);
 * refuses an empty file or a bad header. A fresh table's rowids are contiguous in file order, which gives the lines.
 */
export function fileStage(
  ctx: LandContext,
  format: FlatFormat,
  fallback: string,
  select: (fields: string[], mapped: Pick<StagedFile, 'present' | 'extra'>) => string,
) {
  const header = readFirstLine(ctx.path, fallback);
  if (header === null || header.trim() === '') throw new RefusedFile(1, 'the file is empty: no header line');
  const fields = headerFields(header, format);
  const { present, extra } = mapHeader(fields, format.columns);
  const stage = `_stage_${ctx.fileId.replace(/-/g, '')}`;
  const staged: StagedFile & { fields: string[] } = {
    stage,
    present,
    extra,
    fields,
    line: '',
    drop: () => ctx.sql.run(`drop table if exists ${stage}`).then(() => {}),
    restage: async () => {
      // By content, not by name: a gzip download saved as `.tsv` is still gzip.
      await ctx.sql.run(`create or replace temp table ${stage} as ${select(fields, { present, extra })}`, {
        path: ctx.path,
        delim: format.delimiter,
        compression: isGzip(ctx.path) ? 'gzip' : 'none',
      });
      // Rowids start from 0, or from a large base inside a transaction.
      const base = (
        await ctx.sql.runAndReadAll(`select coalesce(min(rowid), 0)::varchar from ${stage}`)
      ).getRowsJson()[0]?.[0];
      staged.line = `(rowid - ${String(base)} + 2)`;
    },
  };
  return staged;
}

/** Reads a delimited file with DuckDB into a temp table of text, refusing a bad header or ragged lines. */
export async function stageFlatFile(ctx: LandContext, format: FlatFormat, fallback: string): Promise<StagedFile> {
  const staged = fileStage(ctx, format, fallback, (fields) => readStage(fields, format, '$path'));
  const n = staged.fields.length;
  try {
    await staged.restage();
  } catch (error) {
    throw refusalFromCsvError(error, n);
  }
  const ragged = (
    await ctx.sql.runAndReadAll(
      `select ${staged.line}, _fields from ${staged.stage} where _fields <> 0 order by 1 limit 1`,
    )
  ).getRowsJson()[0];
  if (ragged) {
    await staged.drop();
    const more = Number(ragged[1]) > 0;
    throw new RefusedFile(
      Number(ragged[0]),
      `expected ${n} fields as in the header, found ${more ? 'more' : 'fewer'} (${more ? 'a delimiter inside a field, or a malformed line' : 'a truncated or malformed line'})`,
    );
  }
  return staged;
}

/**
 * The rows of delimited files with the header `fields` as text columns f0…, with `_fields` telling a line with a
 * field too many (1) or too few (-1), and `_path` the file each came from; `$delim` and `$compression` are bound.
 * One column more than the header is read, padded with NULL, and empty fields as '' (no field is ever \x01): a line
 * with a field too many has '' or text in f{n}, one with a field too few NULL in f{n-1}. (DuckDB's strict mode
 * alone lets one extra empty field pass: a tab inside a field followed by empty ones would shift the line.)
 */
export function readStage(fields: string[], format: FlatFormat, paths: string): string {
  const n = fields.length;
  const columns = [...fields, ''].map((_, i) => `'f${i}': 'VARCHAR'`).join(', ');
  const quote = format.quoted ? `quote='"', escape='"'` : `quote='', escape=''`;
  const texts = fields.map((_, i) => `nullif(f${i}, '') as f${i}`).join(', ');
  return `select ${texts}, case when f${n} is not null then 1 when f${n - 1} is null then -1 else 0 end as _fields, filename as _path
    from read_csv(${paths}, delim=$delim, ${quote}, header=false, skip=1, auto_detect=false, columns={${columns}}, compression=$compression,
      strict_mode=true, null_padding=true, nullstr='\x01', filename=true)`;
}

export const headerFields = (header: string, format: FlatFormat) =>
  header.split(format.delimiter).map((f) => (format.quoted ? f.replace(/^"|"$/g, '') : f));

export function mapHeader(fields: string[], columns: FlatColumn[]) {
  const byName = new Map<string, FlatColumn>();
  for (const column of columns) {
    for (const name of [column.name, ...(column.aliases ?? [])]) byName.set(normalizeHeader(name), column);
  }
  const present = new Map<string, string>();
  const extra = new Map<string, string>();
  fields.forEach((field, i) => {
    const column = byName.get(normalizeHeader(field));
    const target = column ? present : extra;
    const key = column ? column.name : field.trim();
    if (key === '') return;
    if (target.has(key)) throw new RefusedFile(1, `column ${key} appears twice in the header`);
    target.set(key, `f${i}`);
  });
  const missing = columns.filter((c) => c.required && !present.has(c.name)).map((c) => c.name);
  if (missing.length > 0) {
    throw new RefusedFile(
      1,
      `missing column(s) ${missing.join(', ')}; the header has: ${fields.slice(0, 12).join(', ')}${fields.length > 12 ? ', …' : ''}`,
    );
  }
  return { present, extra };
}

function refusalFromCsvError(error: unknown, fields: number): RefusedFile {
  const text = String(error instanceof Error ? error.message : error);
  const line = Number(/CSV Error on Line: (\d+)/.exec(text)?.[1] ?? NaN);
  const counts = /Expected Number of Columns: (\d+) Found: (\d+)/.exec(text);
  let reason = text.split('\n')[0] ?? 'unreadable file';
  if (counts)
    reason = `expected ${fields} fields as in the header, found ${counts[2]} (a delimiter inside a field, or a malformed line)`;
  else if (/Invalid unicode/i.test(text)) reason = 'invalid text encoding';
  else if (/gzip|compress|inflate/i.test(text)) reason = 'the gzip stream is damaged or truncated';
  return new RefusedFile(Number.isFinite(line) ? line : null, reason);
}

/** Lineage columns of a landed row. */
export function lineageSelectList(staged: StagedFile): string {
  return `$fileId as _file_id, ${staged.line} as _line_number, $landedAt::timestamptz as _landed_at, $connectionId as _connection_id, $marketplaceId as _marketplace_id`;
}

/** Named parameters for `lineageSelectList`. */
export function lineageParams(ctx: LandContext) {
  return {
    fileId: ctx.fileId,
    landedAt: ctx.landedAt,
    connectionId: ctx.connection.id,
    marketplaceId: ctx.connection.marketplaceId,
  };
}
