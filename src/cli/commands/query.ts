import { z } from 'zod';
import type { Home } from '../../home.ts';
import { withSnapshot } from '../../publish/open-snapshot.ts';
import { formatTable } from '../output.ts';

export const queryFormats = z.enum(['table', 'csv', 'json']);

/** Runs read-only SQL on the published snapshot and prints it; csv and json are written by DuckDB's COPY. */
export async function query(home: Home, sqlText: string, format: z.infer<typeof queryFormats>): Promise<void> {
  await withSnapshot(home, async (sql) => {
    if (format === 'table') {
      const reader = await sql.runAndReadAll(sqlText);
      console.log(formatTable(reader.columnNames(), reader.getRowsJson()));
      return;
    }
    const options = format === 'csv' ? 'format csv, header true' : 'format json, array true';
    await sql.run(`copy (${sqlText.replace(/;\s*$/, '')}) to '/dev/stdout' (${options})`);
  });
}
