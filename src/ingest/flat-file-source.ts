import { LIST, listValue, VARCHAR, type DuckDBConnection } from '@duckdb/node-api';
import {
  fileStage,
  headerFields,
  lineageParams,
  lineageSelectList,
  mapHeader,
  rawTableDdl,
  readStage,
  stagedBefore,
  stageFlatFile,
  type FlatFormat,
} from './flat-file.ts';
import { RefusedFile, type BatchFile, type LandContext, type Source, type StagedFile } from './source.ts';
import { fallbackEncoding, isGzip, readFirstLine } from './text-file.ts';
import { explainBadValue, typedSelectList } from './flat-values.ts';

/** A source whose file is one delimited file landed as delivered into `table`. */
export function flatFileSource(name: string, table: string, format: FlatFormat): Source {
  return {
    name,
    table,
    createTable: rawTableDdl(table, format),
    stage: (ctx) => stageTyped(ctx, format, fallbackEncoding(ctx.connection.marketplaceId)),
    async land(ctx, staged = stagedBefore()) {
      const result = await ctx.sql.run(
        `insert into ${table} select * exclude (_path), ${lineageSelectList(staged)} from ${staged.stage}`,
        lineageParams(ctx),
      );
      return Number(result.rowsChanged);
    },
    batch: {
      // Plain files with the same header line; gzip ones land on their own.
      key: (file) =>
        isGzip(file.path) ? null : readFirstLine(file.path, fallbackEncoding(file.connection.marketplaceId)) || null,
      land: (sql, header, files) => landFlatFiles(sql, table, format, header, files),
    },
  };
}

/**
 * Reads a delimited file straight into the raw table's typed columns and `_extra`, so that a good file is read once
 * and the insert only copies it (a fifth faster than through a text stage). A file that fails
 * to read so (a ragged line, a value that does not parse) is staged again as text, where its first bad line is named.
 */
async function stageTyped(ctx: LandContext, format: FlatFormat, fallback: string): Promise<StagedFile> {
  const staged = fileStage(ctx, format, fallback, (fields, mapped) => typedRows(fields, mapped, format, '$path'));
  try {
    await staged.restage();
    return staged;
  } catch (error) {
    await staged.drop();
    const text = await stageFlatFile(ctx, format, fallback);
    try {
      await explainBadValue(ctx.sql, text, format.columns);
    } finally {
      await text.drop();
    }
    throw new RefusedFile(null, String(error instanceof Error ? error.message : error).split('\n')[0]!);
  }
}

/**
 * The rows of delimited files (`readStage`) in the raw table's typed columns, `_extra` and `_path`; a ragged line
 * fails.
 */
const typedRows = (
  fields: string[],
  mapped: Pick<StagedFile, 'present' | 'extra'>,
  format: FlatFormat,
  paths: string,
) =>
  `select ${typedSelectList(mapped, format.columns)}, _path from (${readStage(fields, format, paths)})
   where case when _fields = 0 then true else error('a line with another number of fields than its header') end`;

/**
 * Lands files with the same header (not gzip) in one read and one insert: a line's file id and number are its
 * file's, by `_path`. Any bad line or value fails the whole call; the caller then lands the files one by one, where
 * the first bad one is named.
 */
async function landFlatFiles(
  sql: DuckDBConnection,
  table: string,
  format: FlatFormat,
  header: string,
  files: BatchFile[],
): Promise<Map<string, number>> {
  const fields = headerFields(header, format);
  const mapped = mapHeader(fields, format.columns);
  const list = (values: string[]) => listValue(values);
  const types = {
    paths: LIST(VARCHAR),
    ids: LIST(VARCHAR),
    landed: LIST(VARCHAR),
    connections: LIST(VARCHAR),
    marketplaces: LIST(VARCHAR),
  };
  try {
    await sql.run(
      `create or replace temp table _batch_stage as ${typedRows(fields, mapped, format, '$paths')}`,
      { paths: list(files.map((f) => f.path)), delim: format.delimiter, compression: 'none' },
      { paths: LIST(VARCHAR) },
    );
    // Each file's first row: rows read into a transaction-local table get rowids contiguous in file order.
    await sql.run(
      `
      create or replace temp table _batch_files as
      select f.*, b.base, b.rows
      from (select unnest($paths) as path, unnest($ids) as file_id, unnest($landed)::timestamptz as landed_at,
                   unnest($connections) as connection_id, unnest($marketplaces) as marketplace_id) as f
      join (select _path, min(rowid) as base, count(*)::bigint as rows from _batch_stage group by _path) as b on b._path = f.path`,
      {
        paths: list(files.map((f) => f.path)),
        ids: list(files.map((f) => f.fileId)),
        landed: list(files.map((f) => f.landedAt)),
        connections: list(files.map((f) => f.connection.id)),
        marketplaces: list(files.map((f) => f.connection.marketplaceId)),
      },
      types,
    );
    await sql.run(`
      insert into ${table}
      select stage_rows.* exclude (_path), files.file_id as _file_id, stage_rows.rowid - files.base + 2 as _line_number,
             files.landed_at as _landed_at, files.connection_id as _connection_id, files.marketplace_id as _marketplace_id
      from _batch_stage as stage_rows join _batch_files as files on files.path = stage_rows._path`);
    const reader = await sql.runAndReadAll(`select file_id, rows from _batch_files`);
    return new Map(reader.getRowsJson().map(([id, rows]) => [String(id), Number(rows)]));
  } finally {
    await sql.run(`drop table if exists _batch_stage; drop table if exists _batch_files`).catch(() => {});
  }
}
