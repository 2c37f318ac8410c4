import type { DuckDBConnection } from '@duckdb/node-api';
import { describe, quote } from '../../db/sql.ts';
import { inCents, isCentAmount } from '../../exports/export-query.ts';
import { id } from '../../exports/export-filters.ts';
import { loadModels } from '../../models/load-models.ts';
import type { Home } from '../../home.ts';
import { takeAttached } from './attached-snapshots.ts';

/** A locked-down DuckDB instance holding views of one organization's rows. */
export interface Sandbox {
  sql: DuckDBConnection;
  /** Closes the instance and forgets the files it attached. */
  close(): void;
}

/**
 * Opens a fresh in-memory DuckDB instance for one statement (./attached-snapshots.ts: the published snapshots
 * attached read-only under random aliases), creates in `main` one view per table the statement reads with only the
 * rows of `sellerOrVendorIds`, then locks it: memory cap, no external access, no local file system, configuration
 * locked.
 */
export async function openSandbox(
  home: Home,
  sellerOrVendorIds: readonly string[],
  tables: readonly string[],
  memoryLimit: string,
): Promise<Sandbox> {
  const { sql, sources, close } = await takeAttached(home);
  try {
    const ids = sellerOrVendorIds.map(quote).join(', ');
    // No connection, no row: `in ()` is not SQL.
    const rows = ids ? `seller_or_vendor_id in (${ids})` : 'false';
    for (const table of tables) {
      const union = (sources.get(table) ?? []).map((s) => `select ${columnsOf(table)} from ${s} where ${rows}`);
      if (union.length) await createView(sql, table, union.join(' union all by name '));
    }
    await sql.run(
      `set memory_limit = ${quote(memoryLimit)}; set enable_external_access = false; set disabled_filesystems = 'LocalFileSystem'; set lock_configuration = true`,
    );
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
async function createView(sql: DuckDBConnection, table: string, select: string): Promise<void> {
  try {
    await sql.run(`create view main."${table.replace(/"/g, '""')}" as ${select}`);
  } catch (error) {
    if (!/^(Binder|Catalog) Error/.test(describe(error))) throw error;
  }
}
