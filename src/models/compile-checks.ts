import type { DateRange } from './date-ranges.ts';
import type { Model } from './load-models.ts';
import { quote } from '../db/sql.ts';

/** A check compiled to a query that returns the bad rows. */
export interface CompiledCheck {
  name: string;
  severity: 'error' | 'warn';
  sql: string;
  /** For row-level checks: the condition a bad row of `relation as this` meets, so checks can share one scan. */
  badRow?: string;
}

/** A row-level check: the bad-row query of a condition. */
const rowCheck = (name: string, severity: 'error' | 'warn', relation: string, badRow: string): CompiledCheck => ({
  name,
  severity,
  badRow,
  sql: `select * from ${relation} as this where ${badRow}`,
});

/** A value of an accepted_values list as SQL. */
const literal = (value: string | number | boolean) => (typeof value === 'string' ? quote(value) : String(value));

/**
 * The keys of `relation` that the whole table holds more than once: for a window or the changed keys of a table, a
 * repeat may be a row of another date (an event that moved, its old row left behind).
 */
function repeatedKeys(columns: string[], relation: string, near?: { table: string; where: string }): string {
  const cols = columns.join(', ');
  if (!near) return `select ${cols}, count(*) as n from ${relation} group by all having count(*) > 1`;
  const same = columns.map((c) => `t.${c} is not distinct from r.${c}`).join(' and ');
  return `select ${columns.map((c) => `t.${c}`).join(', ')}, count(*) as n from ${near.table} as t semi join (select distinct ${cols} from ${relation}) as r on ${same} where ${near.where} group by all having count(*) > 1`;
}

/**
 * Compiles a model's `.yml` checks to bad-row queries over `relation` (the table, or the rows a run wrote as a
 * subquery, of the dates `whole.dates` of `whole.table`). Keys are unique among those rows; for a model whose rows can
 * move to another date (`window.dates_move`), the rows written are looked for in the table as far as they can move.
 */
export function compileChecks(
  model: Model,
  relation: string,
  whole?: { table: string; dates: DateRange },
): CompiledCheck[] {
  const checks: CompiledCheck[] = [];
  // The rest of the table was checked when it was written. (Literal bounds: the scan skips the row groups of other
  // dates.)
  const window = model.config.window;
  const reach = window?.dates_move && whole ? window.dates_move.within_days : null;
  const near = (columns: string[]) =>
    reach !== null && !columns.includes(window!.date_column)
      ? {
          table: whole!.table,
          where: `t.${window!.date_column} between date '${whole!.dates.from}' - interval ${reach} day and date '${whole!.dates.to}' + interval ${reach} day`,
        }
      : undefined;
  const repeats = (columns: string[]) => repeatedKeys(columns, relation, near(columns));
  for (const column of model.config.columns) {
    const c = column.name;
    for (const check of column.checks) {
      if (check === 'not_null') {
        checks.push(rowCheck(`${c} not_null`, 'error', relation, `${c} is null`));
      } else if (check === 'unique') {
        checks.push({
          name: `${c} unique`,
          severity: 'error',
          sql: `select * from (${repeats([c])}) where ${c} is not null`,
        });
      } else if ('accepted_values' in check) {
        const { values, severity } = check.accepted_values;
        checks.push(
          rowCheck(
            `${c} accepted_values`,
            severity,
            relation,
            `${c} is not null and ${c} not in (${values.map(literal).join(', ')})`,
          ),
        );
      } else if ('relationships' in check) {
        const { to, field, severity } = check.relationships;
        checks.push(
          rowCheck(
            `${c} relationships ${to}.${field}`,
            severity,
            relation,
            `${c} is not null and ${c} not in (select ${field} from ${to})`,
          ),
        );
      } else {
        const { sql, severity } = check.expression;
        checks.push(rowCheck(`${c} expression ${sql}`, severity, relation, `not (${sql})`));
      }
    }
  }
  for (const check of model.config.checks) {
    if ('unique' in check) {
      const cols = check.unique.columns.join(', ');
      checks.push({ name: `unique (${cols})`, severity: check.unique.severity, sql: repeats(check.unique.columns) });
    } else {
      const { sql, severity, description } = check.expression;
      checks.push(rowCheck(description ?? `expression ${sql}`, severity, relation, `not (${sql})`));
    }
  }
  return checks;
}
