import { createReadStream, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import type { Home } from '../../home.ts';
import { copyOptions } from '../../exports/write-export.ts';
import { withSnapshot } from '../../publish/open-snapshot.ts';
import { formatTable, type QueryFormat } from '../output.ts';

/** Runs read-only SQL on the published snapshot and prints it; csv and json are written by DuckDB's COPY. */
export async function query(home: Home, sqlText: string, format: QueryFormat): Promise<void> {
  await withSnapshot(home, async (sql) => {
    if (format === 'table') {
      const reader = await sql.runAndReadAll(sqlText);
      console.log(formatTable(reader.columnNames(), reader.getRowsJson()));
      return;
    }
    // COPY to a file, then stream it: /dev/stdout is not reliable when stdout is a pipe.
    mkdirSync(home.tmp, { recursive: true });
    const file = join(home.tmp, `query-${randomUUID()}.${format}`);
    try {
      await sql.run(
        `copy (${sqlText.replace(/;\s*$/, '')}) to '${file}' (${copyOptions[format === 'csv' ? 'CSV' : 'JSON']})`,
      );
      await pipeline(createReadStream(file), process.stdout, { end: false });
    } finally {
      rmSync(file, { force: true });
    }
  });
}
