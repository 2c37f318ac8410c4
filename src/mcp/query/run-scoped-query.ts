/**
 * The MCP `query` tool's engine: read-only SQL over one organization's rows of the published snapshot.
 *
 * What it guarantees, and how (each layer holds alone; together they hold by construction, not by string filters):
 * 1. Only one SELECT runs. DuckDB's own parser reads the text (`json_serialize_sql`): any other statement
 *    (INSERT, CREATE, ATTACH, COPY, SET, PRAGMA, INSTALL, LOAD, CALL...) and stacked statements are refused, and
 *    comments hide nothing since the parser has already dropped them.
 * 2. The statement names nothing but the organization's catalog tables (plain names), its own CTEs and the table
 *    functions range, generate_series and unnest (./query-tree.ts): system and control tables, other databases and
 *    schemas, files, file and metadata functions, and functions reading settings or sequences are refused.
 * 3. It runs on a connection of its own to an in-memory DuckDB instance that holds no table (./open-sandbox.ts), where
 *    each catalog table it reads is a temporary view, seen by that connection only, of the rows whose
 *    `seller_or_vendor_id` is one of the organization's connections, over the snapshot attached read-only under a
 *    random alias. Another organization's rows are not filtered out of an answer: no table the statement can name
 *    holds them. The connection is kept, views and all, for the next call of the same connections only.
 * 4. The instance (one per published snapshot, ./attached-snapshots.ts) is locked before any statement runs:
 *    external access and the local file system off (no file is read or written, nothing is loaded or installed), no
 *    spilling to disk, QUERY_SLOTS times the memory cap, two threads, configuration locked. A statement that hits a
 *    cap retires it (its memory is given back with it); a publish replaces it.
 * 5. Caps: the statement is interrupted at its time cap, stopped at the memory cap, and its answer cut at the row
 *    cap or the size cap (`truncated`); at most QUERY_SLOTS statements run at once in a process.
 */
import { MktdataError } from '../../errors.ts';
import type { Home } from '../../home.ts';
import { checkQuery } from './check-query.ts';
import { openSandbox } from './open-sandbox.ts';
import { withQuerySlot } from './query-slots.ts';
import { streamRows } from './stream-rows.ts';

/** Whose rows a statement may read. */
export interface QueryScope {
  /** The organization's connections (catalog tables' `seller_or_vendor_id`); rows of any other are unreachable. */
  sellerOrVendorIds: string[];
  /** Catalog tables the organization may read (table names, e.g. mkt_profit_by_sku_and_date). */
  tables: string[];
}

/** The caps of one call. */
export interface QueryCaps {
  /**
   * Rows answered at most; more make the answer `truncated`.
   * @default 1000
   */
  rowCap?: number;
  /**
   * Time the statement may run, in milliseconds.
   * @default 10_000
   */
  timeoutMs?: number;
  /**
   * DuckDB's memory limit for the statement (a size such as 256MB).
   * @default '256MB'
   */
  memoryLimit?: string;
  /**
   * Size of the answer's rows as JSON, in characters, at most; more make it `truncated` (an agent reads the answer
   * whole, and the process holds it outside DuckDB's memory cap).
   * @default 4 MiB (4_194_304)
   */
  maxBytes?: number;
}

/** A statement's answer. */
export interface QueryResult {
  /** DuckDB type names, e.g. DECIMAL(18,2), DATE, VARCHAR */
  columns: { name: string; type: string }[];
  /** JSON-safe values (./json-values.ts) */
  rows: Record<string, unknown>[];
  rowCount: number;
  /** the answer was cut: more rows than the row cap existed, or they passed the size cap */
  truncated: boolean;
  /** the catalog tables the statement read (for metering) */
  tables: string[];
}

/**
 * Runs one read-only SELECT over the published snapshot, seeing only the rows of `scope`'s connections in
 * `scope`'s tables. Throws ERR_QUERY_REFUSED, ERR_QUERY_INVALID, ERR_QUERY_TIMEOUT, ERR_QUERY_MEMORY, or
 * ERR_NOT_PUBLISHED before the first publish.
 */
export async function runScopedQuery(
  home: Home,
  scope: QueryScope,
  sql: string,
  caps: QueryCaps = {},
): Promise<QueryResult> {
  return (await checkScopedQuery(home, scope, sql)).run(caps);
}

/** A statement that passed the checks: the catalog tables it reads (what it costs), and how to run it. */
export interface CheckedQuery {
  tables: string[];
  run(caps?: QueryCaps): Promise<QueryResult>;
}

/** Checks a statement (ERR_QUERY_REFUSED, ERR_QUERY_INVALID) without running it: `run` then runs it once. */
export async function checkScopedQuery(home: Home, scope: QueryScope, sql: string): Promise<CheckedQuery> {
  const { tables } = await checkQuery(sql, scope.tables);
  const run = (caps: QueryCaps = {}) => {
    const { rowCap = 1000, timeoutMs = 10_000, memoryLimit = '256MB', maxBytes = 4 * 2 ** 20 } = caps;
    return withQuerySlot(async () => {
      const sandbox = await openSandbox(home, scope.sellerOrVendorIds, tables, memoryLimit);
      let spent = true;
      try {
        const streamed = await streamRows(sandbox.sql, sql, { rowCap, timeoutMs, memoryLimit, maxBytes });
        spent = streamed.truncated;
        return { ...streamed, tables };
      } catch (error) {
        spent =
          error instanceof MktdataError && (error.code === 'ERR_QUERY_TIMEOUT' || error.code === 'ERR_QUERY_MEMORY');
        throw error;
      } finally {
        sandbox.close(spent);
      }
    });
  };
  return { tables, run };
}
