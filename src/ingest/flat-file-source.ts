import { LIST, listValue, VARCHAR, type DuckDBConnection } from '@duckdb/node-api';
import { headerFields, insertOrExplain, lineageParams, lineageSelectList, mapHeader, rawTableDdl, readStage, stagedBefore, stageFlatFile, typedSelectList, type FlatFormat } from './flat-file.ts';
import { RefusedFile, type BatchFile, type Source } from './source.ts';
import { fallbackEncoding, isGzip, readFirstLine } from './text-file.ts';

/** A source whose file is one delimited file landed as delivered into `table`. */
export function flatFileSource(name: string, table: string, format: FlatFormat): Source {
  return {
    name,
    table,
    createTable: rawTableDdl(table, format),
    stage: (ctx) => stageFlatFile(ctx, format, fallbackEncoding(ctx.connection.marketplaceId)),
    async land(ctx, staged = stagedBefore()) {
      const insert = `insert into ${table} select ${typedSelectList(staged, format.columns)}, ${lineageSelectList(staged)} from ${staged.stage}`;
      const result = await insertOrExplain(ctx, staged, format.columns, insert, lineageParams(ctx));
      return Number(result.rowsChanged);
    },
    batch: {
      // Plain files with the same header line; gzip ones land on their own.
      key: (file) => (isGzip(file.path) ? null : readFirstLine(file.path, fallbackEncoding(file.connection.marketplaceId)) || null),
      land: (sql, header, files) => landFlatFiles(sql, table, format, header, files),
    },
  };
}

/**
 * Lands files with the same header (not gzip) in one read and one insert: a line's file id and number are its
 * file's, by `_path`. Any bad line or value fails the whole call; the caller then lands the files one by one, where
 * the first bad one is named.
 */
async function landFlatFiles(sql: DuckDBConnection, table: string, format: FlatFormat, header: string, files: BatchFile[]): Promise<Map<string, number>> {
  const fields = headerFields(header, format);
  const mapped = mapHeader(fields, format.columns);
  const list = (values: string[]) => listValue(values);
  const types = { paths: LIST(VARCHAR), ids: LIST(VARCHAR), landed: LIST(VARCHAR), connections: LIST(VARCHAR), marketplaces: LIST(VARCHAR) };
  try {
    await sql.run(`create or replace temp table _batch_stage as ${readStage(fields, format, '$paths')}`,
      { paths: list(files.map((f) => f.path)), delim: format.delimiter, compression: 'none' }, { paths: LIST(VARCHAR) });
    const ragged = await sql.runAndReadAll(`select 1 from _batch_stage where _fields <> 0 limit 1`);
    if (ragged.currentRowCount > 0) throw new RefusedFile(null, 'a line with another number of fields than its header');
    // Each file's first row: rows read into a transaction-local table get rowids contiguous in file order.
    await sql.run(`
      create or replace temp table _batch_files as
      select f.*, b.base, b.rows
      from (select unnest($paths) as path, unnest($ids) as file_id, unnest($landed)::timestamptz as landed_at,
                   unnest($connections) as connection_id, unnest($marketplaces) as marketplace_id) as f
      join (select _path, min(rowid) as base, count(*)::bigint as rows from _batch_stage group by _path) as b on b._path = f.path`,
      { paths: list(files.map((f) => f.path)), ids: list(files.map((f) => f.fileId)), landed: list(files.map((f) => f.landedAt)),
        connections: list(files.map((f) => f.connection.id)), marketplaces: list(files.map((f) => f.connection.marketplaceId)) }, types);
    await sql.run(`
      insert into ${table}
      select ${typedSelectList(mapped, format.columns)}, files.file_id as _file_id, stage_rows.rowid - files.base + 2 as _line_number,
             files.landed_at as _landed_at, files.connection_id as _connection_id, files.marketplace_id as _marketplace_id
      from _batch_stage as stage_rows join _batch_files as files on files.path = stage_rows._path`);
    const reader = await sql.runAndReadAll(`select file_id, rows from _batch_files`);
    return new Map(reader.getRowsJson().map(([id, rows]) => [String(id), Number(rows)]));
  } finally {
    await sql.run(`drop table if exists _batch_stage; drop table if exists _batch_files`).catch(() => {});
  }
}
