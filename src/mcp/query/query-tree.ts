import { MktdataError } from '../../errors.ts';

// The checks on the tree DuckDB's parser gives for a SELECT (`json_serialize_sql`). Three kinds of objects make it
// up: query nodes (`modifiers` and `cte_map`), table references (`sample`, no `class`) and expressions (`class`).
// Every object is visited, whatever key holds it, so a table or function hidden in a subquery, a CTE, a lambda or a
// join condition is seen like one in the top FROM.

/**
 * Table functions a statement may call: pure generators (numbers, dates, the items of a list), which read neither
 * files nor the database's metadata and settings. Every other one (read_csv, read_parquet, glob, query,
 * query_table, duckdb_settings(), duckdb_tables(), pragma_*, ...) is refused.
 */
const TABLE_FUNCTIONS = new Set(['range', 'generate_series', 'unnest']);

/** Scalar functions refused, with why: they reach outside the statement's rows. */
const DENIED_FUNCTIONS: Record<string, string> = {
  current_setting: "reads the server's settings",
  // not in the DuckDB mktdata ships (the CLI's own), refused should a later one have it
  getenv: "reads the server's environment",
  getvariable: "reads the session's variables",
  nextval: 'reads and moves sequences',
  currval: 'reads sequences',
  sleep_ms: 'holds a thread without working',
  pg_sleep: 'holds a thread without working',
  json_serialize_sql: 'handles SQL text',
  json_deserialize_sql: 'handles SQL text',
  json_execute_serialized_sql: 'runs another statement',
};

const QUERY_NODES = new Set(['SELECT_NODE', 'SET_OPERATION_NODE', 'RECURSIVE_CTE_NODE', 'CTE_NODE']);
const TABLE_REFS = new Set(['BASE_TABLE', 'JOIN', 'SUBQUERY', 'TABLE_FUNCTION', 'EXPRESSION_LIST', 'EMPTY', 'PIVOT']);

type Node = Record<string, unknown>;

/** A query node's CTEs as the parser lists them, in the order written. */
interface CteMap {
  map?: { key: string; value: { query?: { node?: Node } } }[];
}

interface Walk {
  /** the catalog tables the organization may read, lower case (DuckDB's names are case-insensitive) */
  allowed: Set<string>;
  /** the catalog tables the statement reads */
  read: Set<string>;
}

/** Checks a serialized SELECT statement; returns the catalog tables it reads, sorted. Throws ERR_QUERY_REFUSED. */
export function checkTree(statement: unknown, allowed: readonly string[]): string[] {
  const walk: Walk = { allowed: new Set(allowed.map((t) => t.toLowerCase())), read: new Set() };
  visit(statement, new Set(), walk);
  return [...walk.read].sort();
}

function visit(value: unknown, ctes: ReadonlySet<string>, walk: Walk): void {
  if (Array.isArray(value)) {
    for (const item of value) visit(item, ctes, walk);
    return;
  }
  if (!value || typeof value !== 'object') return;
  const node = value as Node;
  let visible = ctes;
  if (typeof node.class === 'string') expression(node);
  else if ('modifiers' in node && 'cte_map' in node) visible = queryNode(node, ctes, walk);
  // (`table_name` too: should a table reference ever come without its sample, it is still checked)
  else if (('sample' in node || 'table_name' in node) && typeof node.type === 'string') tableRef(node, ctes, walk);
  for (const [key, child] of Object.entries(node)) if (key !== 'cte_map') visit(child, visible, walk);
}

/**
 * A query node's CTEs: each sees the ones before it (and itself when recursive), the node's body sees them all. A
 * name is a CTE only where DuckDB would bind it as one; anywhere else it must be an allowed table.
 */
function queryNode(node: Node, outer: ReadonlySet<string>, walk: Walk): ReadonlySet<string> {
  if (!QUERY_NODES.has(String(node.type))) throw refused(`a ${String(node.type)} is not answered`);
  const entries = (node.cte_map as CteMap | null)?.map ?? [];
  const visible = new Set(outer);
  for (const { key, value } of entries) {
    const name = key.toLowerCase();
    const recursive = value.query?.node?.type === 'RECURSIVE_CTE_NODE';
    visit(value, recursive ? new Set([...visible, name]) : visible, walk);
    visible.add(name);
  }
  return visible;
}

function tableRef(node: Node, ctes: ReadonlySet<string>, walk: Walk): void {
  const type = String(node.type);
  if (type === 'SHOW_REF')
    throw refused('DESCRIBE, SHOW and SUMMARIZE are not answered: the catalog tools describe the tables');
  if (!TABLE_REFS.has(type)) throw refused(`a ${type} table reference is not answered`);
  if (type === 'TABLE_FUNCTION') {
    const name = String((node.function as Node | undefined)?.function_name ?? '').toLowerCase();
    if (!TABLE_FUNCTIONS.has(name))
      throw refused(
        `table function ${name} may read files, settings or the database's metadata; the allowed ones are ${[...TABLE_FUNCTIONS].join(', ')}`,
      );
  }
  if (type === 'BASE_TABLE') baseTable(node, ctes, walk);
}

function baseTable(node: Node, ctes: ReadonlySet<string>, walk: Walk): void {
  const name = String(node.table_name ?? '');
  const table = name.toLowerCase();
  const schema = String(node.schema_name ?? '').toLowerCase();
  const catalog = String(node.catalog_name ?? '');
  const written = [catalog, schema, name].filter(Boolean).join('.');
  if (node.at_clause) throw refused(`${written} AT (...): reading a table as of another version is refused`);
  if (catalog || (schema && schema !== 'main'))
    throw refused(
      `${written} names another database or schema; the organization's catalog tables are read by their plain names`,
    );
  if (!schema && ctes.has(table)) return;
  if (walk.allowed.has(table)) {
    walk.read.add(table);
    return;
  }
  if (/[./\\:]/.test(name)) throw refused(`"${name}" looks like a file or an address; reading files is refused`);
  throw refused(`${name} is not a catalog table this organization may read`);
}

function expression(node: Node): void {
  if (typeof node.function_name !== 'string') return;
  const name = node.function_name.toLowerCase();
  const why = DENIED_FUNCTIONS[name];
  if (why) throw refused(`function ${name} ${why}`);
  const schema = String(node.schema ?? '').toLowerCase();
  // The parser itself names `main` for what it rewrites (a list comprehension becomes main.list_apply).
  if (node.catalog || (schema && schema !== 'main'))
    throw refused(`${[node.catalog, schema, name].filter(Boolean).join('.')}: functions are called by plain name`);
}

/** An ERR_QUERY_REFUSED saying why. */
export const refused = (reason: string) => new MktdataError('ERR_QUERY_REFUSED', { reason });
