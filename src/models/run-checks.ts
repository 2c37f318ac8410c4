import type { DuckDBConnection } from '@duckdb/node-api';
import { compileChecks, type CompiledCheck } from './compile-checks.ts';
import type { DateRange } from './date-ranges.ts';
import type { Model } from './load-models.ts';

/** A check that found bad rows. */
export interface CheckFinding {
  name: string;
  severity: 'error' | 'warn';
  badRows: number;
  /** For a set-level check (uniqueness): the first few bad keys, their values joined by ` / `. */
  examples?: string[];
}

/** A check with `error` severity found bad rows: the model's change is rolled back. */
export class CheckFailure extends Error {
  constructor(readonly findings: CheckFinding[]) {
    super(
      `check failed: ${findings
        .filter((f) => f.severity === 'error')
        .map((f) => `${f.name} (${f.badRows} bad rows${f.examples?.length ? `: ${f.examples.join(', ')}` : ''})`)
        .join('; ')}`,
    );
  }
}

/**
 * Runs a model's checks on `relation`: the row-level ones together in one scan, each set-level one on its own
 * (uniqueness in `table`, see compileChecks).
 */
export async function runChecks(
  sql: DuckDBConnection,
  model: Model,
  relation: string,
  whole?: { table: string; dates: DateRange },
) {
  const checks = compileChecks(model, relation, whole);
  const rowChecks = checks.filter((c) => c.badRow);
  const counts = new Map<CompiledCheck, number>();
  if (rowChecks.length > 0) {
    const select = rowChecks.map((c) => `count_if(${c.badRow})::integer`).join(', ');
    const row = (await sql.runAndReadAll(`select ${select} from ${relation} as this`)).getRowsJson()[0] ?? [];
    rowChecks.forEach((c, i) => counts.set(c, Number(row[i] ?? 0)));
  }
  const examples = new Map<CompiledCheck, string[]>();
  for (const check of checks.filter((c) => !c.badRow)) {
    const reader = await sql.runAndReadAll(`select count(*)::integer as n from (${check.sql})`);
    const n = Number(reader.getRowsJson()[0]?.[0] ?? 0);
    counts.set(check, n);
    // The keys a uniqueness check found repeated, so that the failure names them (its last column is the count).
    if (n > 0)
      examples.set(
        check,
        (await sql.runAndReadAll(`select * from (${check.sql}) limit 3`))
          .getRowsJson()
          .map((r) => r.slice(0, -1).map(String).join(' / ')),
      );
  }
  const findings = checks
    .filter((c) => counts.get(c)! > 0)
    .map((c) => ({
      name: c.name,
      severity: c.severity,
      badRows: counts.get(c)!,
      ...(examples.has(c) ? { examples: examples.get(c) } : {}),
    }));
  if (findings.some((f) => f.severity === 'error')) throw new CheckFailure(findings);
  return findings;
}

/**
 * Fails when the model's SQL does not produce exactly the `.yml` columns. Their order is the `.yml`'s: the table is
 * created from it and the rows go in by name, so the SQL may give them in any order.
 */
export async function checkColumns(sql: DuckDBConnection, model: Model) {
  // (A list parameter leaves the columns unknown until bound: prepared with one value instead.)
  const prepared = await sql.prepare(`select * from (${model.sql.replace(/\$connection_ids\b/g, '($connection_id)')})`);
  const actual = Array.from({ length: prepared.columnCount }, (_, i) => prepared.columnName(i));
  prepared.destroySync();
  const expected = model.config.columns.map((c) => c.name);
  if ([...actual].sort().join(',') !== [...expected].sort().join(',')) {
    const missing = expected.filter((c) => !actual.includes(c));
    const extra = actual.filter((c) => !expected.includes(c));
    throw new Error(
      `${model.path}: columns differ from the .yml (missing: ${missing.join(', ') || 'none'}; not in .yml: ${extra.join(', ') || 'none'}${missing.length + extra.length === 0 ? '; a column twice' : ''})`,
    );
  }
}
