import type { DuckDBConnection } from '@duckdb/node-api';
import { describe, quote } from '../../db/sql.ts';
import { inCents, isCentAmount } from '../../exports/export-query.ts';
import { id } from '../../exports/export-filters.ts';
import { loadModels } from '../../models/load-models.ts';
import type { Home } from '../../home.ts';
import { connectReader } from './attached-snapshots.ts';

/** A locked-down DuckDB instance holding views of one organization's rows. */
export interface Sandbox {
  sql: DuckDBConnection;
  /** Closes the connection; `spent` (the statement hit a cap) also retires the reader, giving its memory back. */
  close(spent?: boolean): void;
}

/**
 * A connection of its own to the home's locked reader (./attached-snapshots.ts: the published snapshots attached
 * read-only under random aliases, external access and the local file system off, configuration locked), holding one
 * temporary view per table the statement reads with only the rows of `sellerOrVendorIds`: views no other connection
 * sees. The connection is kept for the next call of the same connections, views and all, and closed with its reader.
 */
export async function openSandbox(
  home: Home,
  sellerOrVendorIds: readonly string[],
  tables: readonly string[],
  memoryLimit: string,
): Promise<Sandbox> {
  const ids = [...sellerOrVendorIds].sort().map(quote).join(', ');
  // A pooled connection holds the views of exactly these connections' rows: only a call of the same ids gets it.
  const { sql, sources, views, close } = await connectReader(home, memoryLimit, ids);
  try {
    // No connection, no row: `in ()` is not SQL.
    const rows = ids ? `seller_or_vendor_id in (${ids})` : 'false';
    for (const table of tables.filter((t) => !views.has(t))) {
      const union = (sources.get(table) ?? []).map((s) => `select ${columnsOf(table)} from ${s} where ${rows}`);
      if (union.length && (await createView(sql, table, union.join(' union all by name ')))) views.add(table);
    }
    return { sql, close };
  } catch (error) {
    close();
    throw error;
  }
}

/** A catalog table's columns as clients read them: its amounts rounded to the cent, as an export has them. */
function columnsOf(table: string): string {
  const model = loadModels().find((m) => m.schema === 'marts' && m.name === table);
  const amounts = (model?.config.columns ?? []).filter(isCentAmount).map((c) => `${inCents(c.name)} as ${id(c.name)}`);
  return amounts.length ? `* replace (${amounts.join(', ')})` : '*';
}

/**
 * Every catalog table starts with the common columns (models/common-columns.yml), `seller_or_vendor_id` among
 * them; a table without it (or missing from the file its manifest describes) gets no view, and the statement then
 * fails on an unknown table, as it would for a table not published yet.
 */
async function createView(sql: DuckDBConnection, table: string, select: string): Promise<boolean> {
  try {
    await sql.run(`create temporary view "${table.replace(/"/g, '""')}" as ${select}`);
    return true;
  } catch (error) {
    if (!/^(Binder|Catalog) Error/.test(describe(error))) throw error;
    return false;
  }
}
