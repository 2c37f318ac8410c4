import { renameSync, rmSync } from 'node:fs';
import { dirname, basename, join } from 'node:path';
import type { Home } from '../home.ts';
import { withSnapshot } from '../publish/open-snapshot.ts';
import { buildExportQuery, copyOptions, fileExportSchema, type FileExport } from './export-query.ts';

/** Writes one export with DuckDB COPY from the published snapshot; the file appears whole or not at all. */
export async function exportFile(home: Home, input: FileExport, out: string): Promise<{ rows: number }> {
  const request = fileExportSchema.parse(input);
  const { sql, params } = buildExportQuery(request);
  const partial = join(dirname(out), `.${basename(out)}.partial`);
  return withSnapshot(home, async (db) => {
    try {
      const result = await db.run(`copy (${sql}) to '${partial.replace(/'/g, "''")}' (${copyOptions[request.format]})`, params);
      renameSync(partial, out);
      return { rows: Number(result.rowsChanged) };
    } finally {
      rmSync(partial, { force: true });
    }
  });
}
