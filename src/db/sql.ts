import type { DuckDBConnection } from '@duckdb/node-api';

// What every layer that speaks SQL to DuckDB uses.

/** A SQL string literal. */
export const quote = (value: string) => `'${value.replace(/'/g, "''")}'`;

/** The first line of an error's message. */
export function describe(error: unknown): string {
  return error instanceof Error ? error.message.split('\n')[0]! : String(error);
}

/**
 * A table's columns as `name TYPE`, in order; undefined when there is no such table. `pragma_table_info`
 * reads one catalog entry, where `information_schema` and `duckdb_columns()` list every column of every table.
 */
export async function tableColumns(sql: DuckDBConnection, table: string): Promise<string[] | undefined> {
  try {
    const reader = await sql.runAndReadAll(`select name, type from pragma_table_info(${quote(table)})`);
    return reader.getRowsJson().map(([name, type]) => `${name} ${type}`);
  } catch (error) {
    if (/^Catalog Error/.test(describe(error))) return undefined;
    throw error;
  }
}

/** The rows of a table or query. */
export async function countRows(sql: DuckDBConnection, table: string): Promise<number> {
  return Number((await sql.runAndReadAll(`select count(*)::bigint from ${table}`)).getRowsJson()[0]?.[0] ?? 0);
}

/** Runs `work` in a transaction, rolling back on any error. */
export async function inTransaction<T>(sql: DuckDBConnection, work: () => Promise<T>): Promise<T> {
  await sql.run('begin transaction');
  try {
    const result = await work();
    await sql.run('commit');
    return result;
  } catch (error) {
    await sql.run('rollback');
    throw error;
  }
}
