import type { Column } from '../models/load-models.ts';
import { condition, id, invalid, Params, type Field } from './export-filters.ts';
import type { Aggregation, ExportRequest } from './export-request.ts';
import { localDate } from '../time/zone.ts';

/** The catalog table an export reads, as the published snapshot holds it. */
export interface ExportTable {
  name: string;
  columns: Column[];
  requiresDatePeriod: boolean;
  /** names of the common columns C that start every row */
  common: string[];
}

/** A selected connection and the timezone its marketplace-local dates follow. */
export interface ExportConnection {
  id: string;
  timezone: string;
}

/** A checked SELECT over the snapshot, its bound values and the names of the columns it returns. */
export interface ExportQuery {
  sql: string;
  params: Record<string, string | boolean>;
  columns: string[];
}

/**
 * Builds the SELECT of an export (docs/design/API.md "Exports"). Column names are checked against the catalog and every
 * value is a bound parameter: no text of the request becomes SQL.
 */
export function buildExportQuery(
  request: ExportRequest,
  table: ExportTable,
  connections: ExportConnection[],
): ExportQuery {
  const params = new Params();
  const fields = new Map(table.columns.map((c) => [c.name, c]));
  const field = (name: string, where: string) => {
    const found = fields.get(name);
    if (!found) throw invalid(where, `${table.name} has no column ${name}`);
    return found;
  };
  const rows = `select ${table.columns.map(exported).join(', ')} from ${id(table.name)} where ${scope(request, table, connections, params)}`;
  const filters = condition(request.filters, 'filters', (name, where) => field(name, where), params);

  const grouped = Boolean(request.groupBy?.length || request.aggregations?.length || request.dateInterval);
  if (!grouped) {
    if (request.having?.rules.length)
      throw invalid(
        'having.rules.0.field',
        'having applies to groups: give groupBy, aggregations or dateInterval, or use filters',
      );
    const all = table.columns.map((c) => c.name);
    const columns = outputColumns(request.columns, all, table.common, (name, where) => field(name, where).name);
    // A page (limit/skip) needs one order; a whole export keeps the stored order, which costs no sort.
    const paged = request.limit !== undefined || Boolean(request.skip);
    const order = ordering(request, columns, (name) => field(name, 'orderByColumn').name, paged ? columns : []);
    return {
      sql: `with rows as (${rows}) select ${columns.map(id).join(', ')} from rows${where(filters)}${order}${paging(request)}`,
      params: params.values,
      columns,
    };
  }

  if (request.dateInterval && field('date', 'dateInterval').type !== 'DATE')
    throw invalid('dateInterval', `${table.name} has no date column`);
  const keys: Field[] = table.common.map((name) => fields.get(name)!);
  const select = keys.map((k) => id(k.name));
  if (request.dateInterval) {
    keys.push(fields.get('date')!);
    select.push(`${dateBucket[request.dateInterval]} as "date"`);
  }
  for (const [i, name] of (request.groupBy ?? []).entries()) {
    const column = field(name, `groupBy.${i}`);
    if (keys.some((k) => k.name === name)) continue;
    keys.push(column);
    select.push(id(name));
  }
  const results = new Map<string, Field>(keys.map((k) => [k.name, k]));
  for (const [i, a] of (request.aggregations ?? []).entries()) {
    const where = `aggregations.${i}`;
    const column = field(a.column, `${where}.column`);
    if ((a.aggregation === 'sum' || a.aggregation === 'avg') && column.type !== 'NUMBER') {
      throw invalid(`${where}.aggregation`, `${a.aggregation} needs a NUMBER column; ${a.column} is ${column.type}`);
    }
    const alias = a.alias ?? `${a.aggregation === 'countDistinct' ? 'count_distinct' : a.aggregation}_${a.column}`;
    if (results.has(alias) || fields.has(alias))
      throw invalid(`${where}.alias`, `${alias} is already a column name; give another alias`);
    results.set(
      alias,
      a.aggregation.startsWith('count')
        ? { name: alias, type: 'NUMBER', dataType: 'BIGINT' }
        : { ...column, name: alias },
    );
    select.push(`${aggregate[a.aggregation](id(a.column))} as ${id(alias)}`);
  }
  const having = condition(
    request.having,
    'having',
    (name, where) => {
      const found = results.get(name);
      if (!found) throw invalid(where, `${name} is neither a grouping column nor an aggregation alias`);
      return found;
    },
    params,
  );
  const defaults = [...results.keys()].filter((name) => !table.common.includes(name));
  const columns = outputColumns(request.columns, defaults, table.common, (name, where) => {
    if (!results.has(name)) throw invalid(where, `${name} is neither a grouping column nor an aggregation alias`);
    return name;
  });
  const order = ordering(
    request,
    columns,
    (name) => {
      if (!results.has(name))
        throw invalid('orderByColumn', `${name} is neither a grouping column nor an aggregation alias`);
      return name;
    },
    keys.map((k) => k.name),
  );
  const groups = `select ${select.join(', ')} from rows${where(filters)} group by all`;
  return {
    sql: `with rows as (${rows}), groups as (${groups}) select ${columns.map(id).join(', ')} from groups${where(having)}${order}${paging(request)}`,
    params: params.values,
    columns,
  };
}

/**
 * Amounts are kept at 4 decimals in the warehouse and rounded to the currency's minor unit (cents) at export
 * (docs/design/PROFIT.md); filters and sums see the rounded values, so they agree with the rows a user reads.
 */
function exported(column: Column): string {
  return isCentAmount(column) ? `${inCents(column.name)} as ${id(column.name)}` : id(column.name);
}

/**
 * An amount the warehouse keeps to 4 decimals: every client reads it rounded to the cent (an export's projection, the
 * views an MCP query reads), so that filters, sums and the rows themselves agree wherever they are read.
 */
export const isCentAmount = (column: Pick<Column, 'type' | 'dataType'>) =>
  column.type === 'NUMBER' && column.dataType === 'DECIMAL(18,4)';

/** The amount `name` as clients read it: rounded to the cent. */
export const inCents = (name: string) => `round(${id(name)}, 2)::decimal(18,2)`;

const dateBucket = {
  DAY: '"date"',
  WEEK: `date_trunc('week', "date")::date`, // ISO weeks, starting on Monday
  MONTH: `date_trunc('month', "date")::date`,
} as const;

const aggregate: Record<Aggregation['aggregation'], (column: string) => string> = {
  count: (c) => `count(${c})`,
  countDistinct: (c) => `count(distinct ${c})`,
  sum: (c) => `sum(${c})`,
  avg: (c) => `avg(${c})::decimal(18,4)`,
  min: (c) => `min(${c})`,
  max: (c) => `max(${c})`,
};

/** The selected connections and, for dated tables, the period in each connection's marketplace-local dates. */
function scope(request: ExportRequest, table: ExportTable, connections: ExportConnection[], params: Params): string {
  const hasPeriod = request.from !== undefined || request.to !== undefined;
  if (table.requiresDatePeriod && (request.from === undefined || request.to === undefined)) {
    throw invalid(
      request.from === undefined ? 'from' : 'to',
      `${table.name} requires a date period: give both from and to`,
    );
  }
  if (!table.requiresDatePeriod && hasPeriod)
    throw invalid(request.from !== undefined ? 'from' : 'to', `${table.name} takes no date period`);
  const periods = new Map<string, string[]>();
  for (const c of connections) {
    const ids = [c.id];
    if (!hasPeriod) {
      periods.set('', [...(periods.get('') ?? []), ...ids]);
      continue;
    }
    const from = localDateOf(request.from!, c.timezone);
    const to = localDateOf(request.to!, c.timezone);
    if (from > to || Date.parse(request.from!) > Date.parse(request.to!))
      throw invalid('from', `from ${request.from} is after to ${request.to}`);
    const key = `${from}/${to}`;
    periods.set(key, [...(periods.get(key) ?? []), ...ids]);
  }
  const parts = [...periods].map(([period, ids]) => {
    const inIds = `seller_or_vendor_id in (${ids.map((i) => params.add(i)).join(', ')})`;
    if (!period) return inIds;
    const [from, to] = period.split('/') as [string, string];
    return `(${inIds} and "date" between ${params.add(from)}::date and ${params.add(to)}::date)`;
  });
  return parts.length === 1 ? parts[0]! : `(${parts.join(' or ')})`;
}

/** The marketplace-local date of a date-time; a plain date is taken as it is. */
export function localDateOf(value: string, timezone: string): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return value;
  return localDate(Date.parse(value), timezone);
}

/**
 * C first, then the requested columns in their order, each once. No list: `fallback`; an empty list: C alone, as the
 * hosted service's clients mean `columns: []` (docs/design/service-clients.md).
 */
function outputColumns(
  requested: string[] | undefined,
  fallback: string[],
  common: string[],
  check: (name: string, where: string) => string,
): string[] {
  const names = requested ? requested.map((name, i) => check(name, `columns.${i}`)) : fallback;
  const rest = names.filter((name) => !common.includes(name));
  return [...common, ...new Set(rest)];
}

/** ORDER BY the requested column, then every output column so that ties come out in one order; else `fallback`. */
function ordering(
  request: ExportRequest,
  columns: string[],
  check: (name: string) => string,
  fallback: string[] = [],
): string {
  if (!request.orderByColumn) return fallback.length ? ` order by ${fallback.map(id).join(', ')}` : '';
  const first = check(request.orderByColumn);
  const rest = columns.filter((c) => c !== first);
  return ` order by ${id(first)} ${request.orderByDirection ?? 'ASC'}${rest.map((c) => `, ${id(c)}`).join('')}`;
}

const paging = (request: ExportRequest) =>
  `${request.limit !== undefined ? ` limit ${request.limit}` : ''}${request.skip ? ` offset ${request.skip}` : ''}`;

const where = (condition: string | null) => (condition ? ` where ${condition}` : '');
