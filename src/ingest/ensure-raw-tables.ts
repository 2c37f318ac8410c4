import type { DuckDBConnection } from '@duckdb/node-api';
import { sources } from './sources/index.ts';

/** Creates every source's raw table that does not exist yet, so models can read them before anything landed. */
export async function ensureRawTables(sql: DuckDBConnection): Promise<void> {
  for (const source of sources) await sql.run(source.createTable);
}
