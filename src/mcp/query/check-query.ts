import { DuckDBInstance } from '@duckdb/node-api';
import { MktdataError } from '../../errors.ts';
import { checkTree, refused } from './query-tree.ts';

/** The longest statement checked: DuckDB's parser holds the whole text and its tree in memory. */
const MAX_SQL_CHARS = 100_000;

/** A statement the sandbox may run, and the catalog tables it reads. */
export interface CheckedQuery {
  tables: string[];
}

/** DuckDB's answer of `json_serialize_sql`: the parsed statements, or why there are none. */
interface Serialized {
  error: boolean;
  error_type?: string;
  error_message?: string;
  statements?: unknown[];
}

/**
 * Parses `sql` with DuckDB's own parser and checks its tree (./query-tree.ts): one SELECT, reading only the
 * `allowed` catalog tables by plain name, CTEs, and a few generator table functions. Throws ERR_QUERY_INVALID for a
 * syntax error, ERR_QUERY_REFUSED for anything else it does not answer.
 */
export async function checkQuery(sql: string, allowed: readonly string[]): Promise<CheckedQuery> {
  if (sql.length > MAX_SQL_CHARS)
    throw refused(`the statement has ${sql.length} characters; the longest answered has ${MAX_SQL_CHARS}`);
  const parsed = await serialize(sql);
  if (parsed.error) {
    if (parsed.error_type === 'parser')
      throw new MktdataError('ERR_QUERY_INVALID', { reason: `syntax error: ${parsed.error_message}` });
    // json_serialize_sql serializes SELECT statements only: every other kind lands here.
    throw refused(
      'it is not a SELECT statement (writes, DDL, ATTACH, COPY, INSTALL and LOAD, SET, PRAGMA, CALL, EXPLAIN and transactions are refused)',
    );
  }
  const statements = parsed.statements ?? [];
  if (statements.length !== 1)
    throw refused(`${statements.length} statements were given (one after another, separated by ";"); send one SELECT`);
  return { tables: checkTree(statements[0], allowed) };
}

/**
 * One in-memory instance parses for the whole process: it never holds a table or a row, only parses text (the
 * statement is a bound parameter), so sharing it leaks nothing between organizations, and each check saves an
 * instance's start-up.
 */
let parser: Promise<DuckDBInstance> | undefined;

async function serialize(sql: string): Promise<Serialized> {
  parser ??= DuckDBInstance.create(':memory:', {
    threads: '1',
    autoload_known_extensions: 'false',
    autoinstall_known_extensions: 'false',
    enable_external_access: 'false',
    lock_configuration: 'true',
  });
  const connection = await (await parser).connect();
  try {
    const reader = await connection.runAndReadAll('select json_serialize_sql($1::varchar)', [sql]);
    return JSON.parse(String(reader.getRowsJson()[0]?.[0])) as Serialized;
  } finally {
    connection.closeSync();
  }
}
