import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { z } from 'zod';
import { lineageParams, lineageSelectList, rawTableDdl, type FlatColumn } from './flat-file.ts';
import {
  RefusedFile,
  type BatchFile,
  type LandContext,
  type LandingConnection,
  type Source,
  type StagedFile,
} from './source.ts';
import { typedSelectList } from './flat-values.ts';
import { insertOrExplain } from './flat-values.ts';

/** A JSON record's fields, by key; nested values stay JSON. */
export type JsonRecord = Record<string, unknown>;

/** Reads a JSON document (gzip or not, UTF-8 with or without BOM); refuses a file that is not JSON. */
export function readJsonDocument(path: string): unknown {
  let bytes = readFileSync(path);
  if (bytes.length === 0) throw new RefusedFile(null, 'the file is empty');
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      bytes = gunzipSync(bytes);
    } catch {
      throw new RefusedFile(null, 'the gzip stream is damaged or truncated');
    }
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    throw new RefusedFile(null, 'invalid text encoding');
  }
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw new RefusedFile(null, `not valid JSON: ${(error as Error).message}`);
  }
  if (nestedDeeperThan(document, MAX_DEPTH))
    throw new RefusedFile(null, `the JSON is nested deeper than ${MAX_DEPTH} levels: no upstream document is`);
  return document;
}

/** Upstream documents nest a handful of levels; far deeper nesting is damage (and would overflow the stack later). */
const MAX_DEPTH = 64;

/** Whether a parsed JSON value nests deeper than `limit` arrays and objects, walked without recursion. */
function nestedDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [next, depth] = stack.pop()!;
    if (next === null || typeof next !== 'object') continue;
    if (depth >= limit) return true;
    for (const child of Object.values(next))
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}

/**
 * A schema's first complaint about a document as a refusal. One inside the document's array of records
 * (`recordsKey`) names the record, 1-based, and its field: `record 4: the record: expected object, received number`.
 */
export function refusedDocument(what: string, error: z.ZodError, recordsKey?: string): RefusedFile {
  const issue = error.issues[0]!;
  const at = recordsKey === undefined ? -1 : issue.path.indexOf(recordsKey);
  const index = issue.path[at + 1];
  if (at >= 0 && typeof index === 'number') {
    return new RefusedFile(
      index + 1,
      `record ${index + 1}: ${issue.path.slice(at + 2).join('.') || 'the record'}: ${issue.message}`,
    );
  }
  return new RefusedFile(null, `not ${what}: ${issue.path.join('.') || 'document'}: ${issue.message}`);
}

/** A field as the text DuckDB casts: numbers keep their shortest exact spelling, objects become JSON. */
function asText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/**
 * A file's records as the stage's NDJSON lines: each column's field as text (`f0`, `f1`, …, by column), the other
 * fields as JSON in `_extra`, the record's number (1-based) in `_line`, and `lineage` as it is. Refuses a record
 * without a required field.
 */
function stageLines(columns: FlatColumn[], records: JsonRecord[], lineage: Record<string, string> = {}): string[] {
  const keys = new Map<string, string>();
  columns.forEach((column, i) => [column.name, ...(column.aliases ?? [])].forEach((key) => keys.set(key, `f${i}`)));
  for (const [index, record] of records.entries()) {
    for (const column of columns) {
      if (column.required && ![column.name, ...(column.aliases ?? [])].some((key) => asText(record[key])?.trim())) {
        throw new RefusedFile(index + 1, `record ${index + 1}: ${column.name} is missing`);
      }
    }
  }
  return records.map((record, index) => {
    const row: Record<string, string | number | null> = { ...lineage, _line: index + 1 };
    const extra: JsonRecord = {};
    for (const [key, value] of Object.entries(record)) {
      const target = keys.get(key);
      if (target) row[target] ??= asText(value);
      else extra[key] = value;
    }
    row._extra = Object.keys(extra).length > 0 ? JSON.stringify(extra) : null;
    return JSON.stringify(row);
  });
}

/** `read_json` of stage lines, every column text but `_line`, with `extra` more text columns. */
function readStage(columns: FlatColumn[], extra: string[] = []): string {
  const types = [
    ...columns.map((_, i) => `'f${i}': 'VARCHAR'`),
    ...[...extra, '_extra'].map((c) => `'${c}': 'VARCHAR'`),
    `'_line': 'BIGINT'`,
  ].join(', ');
  return `read_json($path, format='newline_delimited', columns={${types}})`;
}

/** The typed select list of staged records (their unknown fields already JSON in `_extra`). */
const typedRecords = (columns: FlatColumn[]) =>
  typedSelectList(
    { present: new Map(columns.map((c, i) => [c.name, `f${i}`])), extra: new Map(), extraJson: '_extra' },
    columns,
  );

/** Runs `use` with a temporary NDJSON file path, removed after. */
async function withNdjson<T>(use: (path: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'mktdata-json-'));
  try {
    return await use(join(dir, 'records.ndjson'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Lands records (objects keyed by upstream field name) into a raw table with the same typed columns,
 * `_extra` and lineage as a flat file; `_line_number` is the record's position (1-based).
 * A value that does not parse refuses the file with the record number and field.
 */
export async function landJsonRecords(
  ctx: LandContext,
  table: string,
  columns: FlatColumn[],
  records: JsonRecord[],
): Promise<number> {
  if (records.length === 0) return 0;
  const lines = stageLines(columns, records);
  return withNdjson(async (ndjson) => {
    writeFileSync(ndjson, lines.join('\n') + '\n');
    const stage = `_stage_${ctx.fileId.replace(/-/g, '')}`;
    const staged: StagedFile = {
      stage,
      present: new Map(columns.map((c, i) => [c.name, `f${i}`])),
      extra: new Map(),
      extraJson: '_extra',
      line: '_line',
      restage: async () => {
        await ctx.sql.run(`create or replace temp table ${stage} as select * from ${readStage(columns)}`, {
          path: ndjson,
        });
      },
      drop: () => ctx.sql.run(`drop table if exists ${stage}`).then(() => {}),
    };
    await staged.restage();
    try {
      // By name: a raw table created before a field left its source's columns keeps that column, null from then on.
      const insert = `insert into ${table} by name select ${typedRecords(columns)}, ${lineageSelectList(staged)} from ${stage}`;
      const result = await insertOrExplain(ctx, staged, columns, insert, lineageParams(ctx));
      return Number(result.rowsChanged);
    } catch (error) {
      if (error instanceof RefusedFile && error.line !== null)
        throw new RefusedFile(error.line, `record ${error.line}: ${error.reason}`);
      throw error;
    } finally {
      await staged.drop();
    }
  });
}

/** Staged text read per insert of a batch: a batch of large documents lands in several inserts. */
const BATCH_TEXT = 32 * 1024 * 1024;

/**
 * Lands the records of several files in one insert per 32 MB of staged text, each row with its file's lineage.
 * Any bad file or value throws (`Source.batch`: the caller lands the files one by one, where the bad one is named).
 */
async function landJsonFiles(
  sql: DuckDBConnection,
  table: string,
  columns: FlatColumn[],
  records: Records,
  files: BatchFile[],
): Promise<Map<string, number>> {
  const rows = new Map<string, number>();
  const lineage = ['_file_id', '_landed_at', '_connection_id', '_marketplace_id'];
  // By name, as in landJsonRecords.
  const insert = `insert into ${table} by name select ${typedRecords(columns)}, _file_id, _line as _line_number, _landed_at::timestamptz as _landed_at,
    _connection_id, _marketplace_id from ${readStage(columns, lineage)}`;
  return withNdjson(async (ndjson) => {
    let lines: string[] = [];
    let size = 0;
    const flush = async () => {
      if (lines.length === 0) return;
      writeFileSync(ndjson, lines.join('\n') + '\n');
      await sql.run(insert, { path: ndjson });
      lines = [];
      size = 0;
    };
    for (const file of files) {
      const own = {
        _file_id: file.fileId,
        _landed_at: file.landedAt,
        _connection_id: file.connection.id,
        _marketplace_id: file.connection.marketplaceId,
      };
      const more = stageLines(columns, records(readJsonDocument(file.path), file.connection), own);
      rows.set(file.fileId, more.length);
      for (const line of more) {
        lines.push(line);
        size += line.length;
      }
      if (size >= BATCH_TEXT) await flush();
    }
    await flush();
    return rows;
  });
}

/** A JSON source's records of a document, which may depend on the connection the file is landed for. */
type Records = (document: unknown, connection: LandingConnection) => JsonRecord[];

/** A source whose file is one JSON document, turned into records by `records`; its files land together. */
export function jsonSource(name: string, table: string, columns: FlatColumn[], records: Records): Source {
  return {
    name,
    table,
    createTable: rawTableDdl(table, { columns, delimiter: '\t', quoted: false }),
    land: (ctx) => landJsonRecords(ctx, table, columns, records(readJsonDocument(ctx.path), ctx.connection)),
    batch: { key: () => 'json', land: (sql, _key, files) => landJsonFiles(sql, table, columns, records, files) },
  };
}
