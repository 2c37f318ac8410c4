import { MktdataError } from '../errors.ts';
import type { Column } from '../models/load-models.ts';
import type { Aggregation, ExportRequest, FilterGroup, FilterRule } from './export-request.ts';
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

type Field = Pick<Column, 'name' | 'type' | 'dataType'>;

const invalid = (where: string, reason: string) => new MktdataError('ERR_INPUT_INVALID', { where, reason });
// Column names come from the catalog (checked /^[a-z_][a-z0-9_]*$/) or from validated aliases.
const id = (name: string) => `"${name}"`;

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
  if (column.type === 'NUMBER' && column.dataType === 'DECIMAL(18,4)')
    return `round(${id(column.name)}, 2)::decimal(18,2) as ${id(column.name)}`;
  return id(column.name);
}

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

function condition(
  group: FilterGroup | undefined,
  at: string,
  field: (name: string, where: string) => Field,
  params: Params,
): string | null {
  if (!group?.rules.length) return null;
  const rules = group.rules.map((rule, i) =>
    compileRule(rule, field(rule.field, `${at}.rules.${i}.field`), `${at}.rules.${i}`, params),
  );
  return `(${rules.join(` ${group.combinator} `)})`;
}

function compileRule(rule: FilterRule, column: Field, at: string, params: Params): string {
  const x = id(column.name);
  const one = () => params.add(bindable(single(rule, at), column, `${at}.value`), cast(column));
  const text = () => {
    const value = single(rule, at);
    if (typeof value === 'boolean' || value === '')
      throw invalid(`${at}.value`, `${rule.operator} needs a non-empty text`);
    return `lower(${x}::varchar), lower(${params.add(String(value))})`;
  };
  const list = (size?: number) => {
    const values = Array.isArray(rule.value)
      ? rule.value
      : typeof rule.value === 'string'
        ? rule.value.split(',').map((v) => v.trim())
        : null;
    if (!values || values.length === 0 || (size !== undefined && values.length !== size)) {
      throw invalid(
        `${at}.value`,
        size ? `${rule.operator} needs [low, high]` : `${rule.operator} needs a list of values`,
      );
    }
    return values.map((v, i) => params.add(bindable(v, column, `${at}.value.${i}`), cast(column)));
  };
  const sql: Record<FilterRule['operator'], () => string> = {
    '=': () => `${x} = ${one()}`,
    '!=': () => `${x} <> ${one()}`,
    '>': () => `${x} > ${one()}`,
    '>=': () => `${x} >= ${one()}`,
    '<': () => `${x} < ${one()}`,
    '<=': () => `${x} <= ${one()}`,
    contains: () => `contains(${text()})`,
    beginsWith: () => `starts_with(${text()})`,
    endsWith: () => `ends_with(${text()})`,
    doesNotContain: () => `not contains(${text()})`,
    doesNotBeginWith: () => `not starts_with(${text()})`,
    doesNotEndWith: () => `not ends_with(${text()})`,
    in: () => `${x} in (${list().join(', ')})`,
    notIn: () => `${x} not in (${list().join(', ')})`,
    between: () => `${x} between ${list(2).join(' and ')}`,
    notBetween: () => `${x} not between ${list(2).join(' and ')}`,
    null: () => `${x} is null`,
    notNull: () => `${x} is not null`,
  };
  if (
    (rule.operator === 'null' || rule.operator === 'notNull') &&
    rule.value !== undefined &&
    rule.value !== null &&
    rule.value !== ''
  ) {
    throw invalid(`${at}.value`, `${rule.operator} takes no value`);
  }
  const compiled = sql[rule.operator]();
  return rule.not ? `not (${compiled})` : `(${compiled})`;
}

function single(rule: FilterRule, at: string): string | number | boolean {
  if (rule.value === undefined || rule.value === null || Array.isArray(rule.value))
    throw invalid(`${at}.value`, `${rule.operator} needs one value`);
  return rule.value;
}

const cast = (column: Field) =>
  column.type === 'NUMBER' ? 'decimal(38,10)' : column.type === 'JSON' ? 'varchar' : column.dataType.toLowerCase();

/** The value as text DuckDB casts to the column's type, after checking it has that type's form. */
function bindable(value: string | number | boolean, column: Field, at: string): string | boolean {
  const text = String(value);
  const bad = (expected: string) =>
    invalid(at, `${column.name} is ${column.type}: expected ${expected}, got ${JSON.stringify(value)}`);
  switch (column.type) {
    case 'NUMBER':
      if (typeof value === 'boolean' || !/^-?\d{1,28}(\.\d{1,10})?$/.test(text))
        throw bad('a number with at most 10 decimals');
      return text;
    case 'DATE': {
      // A DATE column takes a calendar date; a timestamp column (data_type TIMESTAMP) also a date-time.
      const dateTime =
        column.dataType !== 'DATE' && /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?$/.test(text);
      if (!dateTime && !isCalendarDate(text))
        throw bad(column.dataType === 'DATE' ? 'YYYY-MM-DD' : 'YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS (UTC)');
      if (dateTime && !isCalendarDate(text.slice(0, 10))) throw bad('a real calendar date');
      return text;
    }
    case 'LOGIC':
      if (value !== true && value !== false && text !== 'true' && text !== 'false') throw bad('true or false');
      return value === true || text === 'true';
    default:
      return text;
  }
}

/** Whether text is YYYY-MM-DD and that day exists (Date.parse would read 2026-02-30 as 2 March). */
const isCalendarDate = (text: string) => {
  const day = Date.parse(`${text}T00:00:00Z`);
  return /^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(day) && new Date(day).toISOString().slice(0, 10) === text;
};

/** Bound values named p0, p1, … */
class Params {
  readonly values: Record<string, string | boolean> = {};
  private next = 0;

  add(value: string | boolean, type?: string): string {
    const name = `p${this.next++}`;
    this.values[name] = value;
    return type ? `$${name}::${type}` : `$${name}`;
  }
}
