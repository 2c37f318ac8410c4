import type { Model } from './load-models.ts';

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

const quote = (value: string | number | boolean) => (typeof value === 'string' ? `'${value.replace(/'/g, "''")}'` : String(value));

/**
 * Compiles a model's `.yml` checks to bad-row queries over `relation`
 * (the table, or its current window as a subquery).
 */
export function compileChecks(model: Model, relation: string): CompiledCheck[] {
  const checks: CompiledCheck[] = [];
  for (const column of model.config.columns) {
    const c = column.name;
    for (const check of column.checks) {
      if (check === 'not_null') {
        checks.push(rowCheck(`${c} not_null`, 'error', relation, `${c} is null`));
      } else if (check === 'unique') {
        checks.push({ name: `${c} unique`, severity: 'error', sql: `select ${c}, count(*) as n from ${relation} where ${c} is not null group by ${c} having count(*) > 1` });
      } else if ('accepted_values' in check) {
        const { values, severity } = check.accepted_values;
        checks.push(rowCheck(`${c} accepted_values`, severity, relation, `${c} is not null and ${c} not in (${values.map(quote).join(', ')})`));
      } else if ('relationships' in check) {
        const { to, field, severity } = check.relationships;
        checks.push(rowCheck(`${c} relationships ${to}.${field}`, severity, relation, `${c} is not null and ${c} not in (select ${field} from ${to})`));
      } else {
        const { sql, severity } = check.expression;
        checks.push(rowCheck(`${c} expression ${sql}`, severity, relation, `not (${sql})`));
      }
    }
  }
  for (const check of model.config.checks) {
    if ('unique' in check) {
      const cols = check.unique.columns.join(', ');
      checks.push({ name: `unique (${cols})`, severity: check.unique.severity, sql: `select ${cols}, count(*) as n from ${relation} group by all having count(*) > 1` });
    } else {
      const { sql, severity, description } = check.expression;
      checks.push(rowCheck(description ?? `expression ${sql}`, severity, relation, `not (${sql})`));
    }
  }
  return checks;
}
