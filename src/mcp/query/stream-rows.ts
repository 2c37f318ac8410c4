import type { DuckDBConnection, Json } from '@duckdb/node-api';
import { describe } from '../../db/sql.ts';
import { MktdataError } from '../../errors.ts';
import { jsonValue } from './json-values.ts';

/** The rows a statement gave, up to the row cap. */
export interface StreamedRows {
  columns: { name: string; type: string }[];
  rows: Record<string, Json>[];
  rowCount: number;
  truncated: boolean;
}

/** The caps of one run. */
export interface StreamCaps {
  rowCap: number;
  timeoutMs: number;
  memoryLimit: string;
  /** characters of the rows as JSON */
  maxBytes: number;
}

/**
 * Runs `statement` streaming: reads chunks until `rowCap` + 1 rows (the one more says the answer is truncated), or
 * until the rows as JSON would pass `maxBytes` (DuckDB's memory cap does not count what it has handed over), and
 * interrupts it after `timeoutMs`. DuckDB's errors become ERR_QUERY_TIMEOUT, ERR_QUERY_MEMORY or ERR_QUERY_INVALID
 * (the statement's own fault, with DuckDB's message); any other is rethrown.
 */
export async function streamRows(sql: DuckDBConnection, statement: string, caps: StreamCaps): Promise<StreamedRows> {
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    sql.interrupt();
  }, caps.timeoutMs);
  try {
    const result = await sql.stream(statement);
    // Duplicate names (select 1 as a, 2 as a) get suffixes, so that every column has its key in a row object.
    const names = result.deduplicatedColumnNames();
    const columns = names.map((name, i) => ({ name, type: result.columnType(i).toString() }));
    const rows: Record<string, Json>[] = [];
    let truncated = false;
    let bytes = 0;
    while (!truncated) {
      const chunk = await result.fetchChunk();
      if (!chunk || chunk.rowCount === 0) break;
      for (const values of chunk.convertRows(jsonValue)) {
        const row = Object.fromEntries(names.map((name, i) => [name, values[i] ?? null]));
        const size = JSON.stringify(row).length;
        if (rows.length === caps.rowCap || bytes + size > caps.maxBytes) {
          truncated = true;
          break;
        }
        rows.push(row);
        bytes += size;
      }
    }
    return { columns, rows, rowCount: rows.length, truncated };
  } catch (error) {
    throw queryError(error, timedOut, caps);
  } finally {
    clearTimeout(timer);
  }
}

/** DuckDB's error classes that say the statement itself is wrong (a bad column, a bad cast, a division by zero...). */
const STATEMENT_ERRORS =
  /^(Parser|Syntax|Binder|Catalog|Conversion|Invalid Input|Invalid|Out of Range|Decimal|Mismatch Type|Divide by Zero|Invalid type|Not implemented|Constraint|Parameter Not Resolved|Parameter Not Allowed|Dependency|Sequence|Missing Extension) Error: /;

function queryError(error: unknown, timedOut: boolean, caps: StreamCaps): unknown {
  // The attached snapshots' aliases are nobody's business: DuckDB may name them in a suggestion ("Did you mean").
  const message = describe(error).replace(/\bs_[0-9a-f]{16}\b/g, 'snapshot');
  if (timedOut || message.startsWith('INTERRUPT Error'))
    return new MktdataError('ERR_QUERY_TIMEOUT', { seconds: caps.timeoutMs / 1000 }, { cause: error });
  if (message.startsWith('Out of Memory Error'))
    return new MktdataError('ERR_QUERY_MEMORY', { limit: caps.memoryLimit, reason: message }, { cause: error });
  // External access is off: a file, an extension or a spill to disk the statement tried.
  if (message.startsWith('Permission Error'))
    return new MktdataError('ERR_QUERY_REFUSED', { reason: message }, { cause: error });
  if (STATEMENT_ERRORS.test(message))
    return new MktdataError('ERR_QUERY_INVALID', { reason: message }, { cause: error });
  return error;
}
