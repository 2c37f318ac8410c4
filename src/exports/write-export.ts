import { renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Home } from '../home.ts';
import { withSnapshot } from '../publish/open-snapshot.ts';
import type { ExportQuery } from './export-query.ts';
import type { OutputType } from './export-request.ts';
import { quote } from '../db/sql.ts';

/** DuckDB COPY options per output type: CSV per RFC 4180 (CRLF), JSON as one flat array of row objects. */
export const copyOptions: Record<OutputType, string> = {
  CSV: "format csv, header true, new_line '\\r\\n'",
  JSON: 'format json, array true',
  PARQUET: 'format parquet, compression zstd',
};

export const fileExtensions: Record<OutputType, string> = { CSV: 'csv', JSON: 'json', PARQUET: 'parquet' };

/**
 * Writes an export's rows with DuckDB COPY from the published snapshot (a read-only connection, outside any
 * write transaction); the file appears whole under `out` or not at all. The CLI and the export workers both
 * come here, so the same request gives the same bytes.
 */
export async function writeExport(
  home: Home,
  query: ExportQuery,
  outputType: OutputType,
  out: string,
): Promise<{ rows: number; bytes: number }> {
  const partial = join(dirname(out), `.${basename(out)}.partial`);
  return withSnapshot(home, async (db) => {
    try {
      // COPY takes no parameter for its target; the path is ours or the CLI user's own, quoted as a literal.
      const result = await db.run(
        `copy (${query.sql}) to ${quote(partial)} (${copyOptions[outputType]})`,
        query.params,
      );
      renameSync(partial, out);
      return { rows: Number(result.rowsChanged), bytes: statSync(out).size };
    } finally {
      rmSync(partial, { force: true });
    }
  });
}
