import type { DuckDBConnection } from '@duckdb/node-api';
import { RefusedFile, type LandContext, type StagedFile } from './source.ts';
import { isGzip, readFirstLine } from './text-file.ts';
import { quote } from '../db/sql.ts';

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

const sqlTypes: Record<FlatColumn['type'], string> = {
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

/**
 * Runs the typed insert of a staged file. Good files pay for one pass: the casts themselves reject
 * bad values, and only then is the stage scanned again to name the first bad line and column.
 */
export async function insertOrExplain(
  ctx: LandContext,
  staged: StagedFile,
  columns: FlatColumn[],
  insert: string,
  params: Record<string, string>,
) {
  try {
    return await ctx.sql.run(insert, params);
  } catch (error) {
    // The failed statement aborted the transaction: start a clean one to look for the bad line.
    await ctx.sql.run('rollback');
    await ctx.sql.run('begin transaction');
    await staged.restage();
    await explainBadValue(ctx.sql, staged, columns);
    throw new RefusedFile(null, String(error instanceof Error ? error.message : error).split('\n')[0]!);
  }
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

/** Day-first and locale forms seen in upstream files besides ISO (upstream-formats b1, f1). */
const timestampPatterns = [
  '%d.%m.%Y %H:%M:%S %Z',
  '%d/%m/%Y %H:%M:%S %Z',
  '%d.%m.%Y %H:%M:%S',
  '%d/%m/%Y %H:%M:%S',
  '%d.%m.%Y',
  '%d/%m/%Y',
];
const datePatterns = ['%Y-%m-%d', '%d.%m.%Y', '%d/%m/%Y', '%d/%m/%y', '%d.%m.%y'];
const list = (patterns: string[]) => `[${patterns.map((p) => `'${p}'`).join(', ')}]`;

/** The typed value of a non-empty text expression `v`, or null when it does not parse. */
function parsed(type: FlatColumn['type'], v: string): string {
  switch (type) {
    case 'decimal':
      // Amounts are DECIMAL; some EU files write a decimal comma (`-12,34`).
      return `coalesce(try_cast(${v} as decimal(18,4)), try_cast(replace(${v}, ',', '.') as decimal(18,4)))`;
    case 'integer':
      return `try_cast(${v} as bigint)`;
    case 'timestamp':
      return `coalesce(try_cast(${v} as timestamptz), try_strptime(${v}, ${list(timestampPatterns)})::timestamptz)`;
    case 'date':
      return `coalesce(try_strptime(${v}, ${list(datePatterns)})::date, try_cast(${v} as timestamptz)::date)`;
    case 'boolean':
      return `try_cast(${v} as boolean)`;
    default:
      return v;
  }
}

/** A value of a typed column that does not parse, as a SQL condition on the stage column. */
function badValue(column: FlatColumn, ref: string): string | null {
  if (column.type === 'text') return null;
  const v = `nullif(trim(${ref}), '')`;
  return `${v} is not null and ${parsed(column.type, v)} is null`;
}

/** Finds the first bad value of a staged file in one scan and throws it as a RefusedFile. */
export async function explainBadValue(sql: DuckDBConnection, staged: StagedFile, columns: FlatColumn[]): Promise<void> {
  const probes: { why: string; select: string }[] = [];
  for (const column of columns) {
    const ref = staged.present.get(column.name);
    if (!ref) continue;
    const bad = badValue(column, ref);
    const label = column.name.replace(/'/g, "''");
    if (bad)
      probes.push({
        why: `'${label}: ' || any_value(${ref}) filter (where ${bad}) || ' is not a valid ${column.type}'`,
        select: `min(${staged.line}) filter (where ${bad})`,
      });
    if (column.required === 'value') {
      const empty = `nullif(trim(${ref}), '') is null`;
      probes.push({ why: `'${label} is empty'`, select: `min(${staged.line}) filter (where ${empty})` });
    }
  }
  if (probes.length === 0) return;
  const reader = await sql.runAndReadAll(
    `select ${probes.map((p, i) => `${p.select} as l${i}, ${p.why} as w${i}`).join(', ')} from ${staged.stage}`,
  );
  const row = reader.getRowsJson()[0] ?? [];
  let first: { line: number; why: string } | null = null;
  for (let i = 0; i < probes.length; i++) {
    const line = row[2 * i];
    if (line === null || line === undefined) continue;
    if (!first || Number(line) < first.line) first = { line: Number(line), why: String(row[2 * i + 1]) };
  }
  if (first) throw new RefusedFile(first.line, first.why);
}

/** The select list that casts staged text into the raw table's typed columns, unknown columns to JSON. */
export function typedSelectList(
  staged: Pick<StagedFile, 'present' | 'extra' | 'extraJson'>,
  columns: FlatColumn[],
): string {
  const typed = columns.map((column) => {
    const ref = staged.present.get(column.name);
    if (!ref) return `null::${sqlTypes[column.type]} as ${rawName(column.name)}`;
    const v = `nullif(trim(${ref}), '')`;
    const value =
      column.type === 'text'
        ? ref
        : `coalesce(${parsed(column.type, v)}, error('${column.name} is not a valid ${column.type}'))`;
    const empty = column.required === 'value' ? `error('${column.name} is empty')` : `null`;
    const checked =
      column.type === 'text' && !column.required ? ref : `case when ${v} is null then ${empty} else ${value} end`;
    return `${checked} as ${rawName(column.name)}`;
  });
  const extras = [...staged.extra].map(([name, ref]) => `${quote(name)}, ${ref}`);
  if (staged.extraJson) typed.push(`${staged.extraJson}::json as _extra`);
  else typed.push(extras.length > 0 ? `json_object(${extras.join(', ')}) as _extra` : 'null::json as _extra');
  return typed.join(',\n    ');
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
