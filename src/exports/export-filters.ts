// The WHERE of an export's filters and having: each rule compiled to SQL over a checked column, each value bound as a
// parameter after checking it has the column type's form (export-query.ts builds the rest of the SELECT).
import { MktdataError } from '../errors.ts';
import type { Column } from '../models/load-models.ts';
import type { FilterGroup, FilterRule } from './export-request.ts';

/** A column as a rule sees it: its name and types. */
export type Field = Pick<Column, 'name' | 'type' | 'dataType'>;

/** ERR_INPUT_INVALID at a field of the request, with the reason. */
export const invalid = (where: string, reason: string) => new MktdataError('ERR_INPUT_INVALID', { where, reason });
/** A column name quoted; names come from the catalog (checked /^[a-z_][a-z0-9_]*$/) or from validated aliases. */
export const id = (name: string) => `"${name}"`;

/** The rules of a group joined by its combinator, or null when it has none. */
export function condition(
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
export class Params {
  readonly values: Record<string, string | boolean> = {};
  private next = 0;

  add(value: string | boolean, type?: string): string {
    const name = `p${this.next++}`;
    this.values[name] = value;
    return type ? `$${name}::${type}` : `$${name}`;
  }
}
