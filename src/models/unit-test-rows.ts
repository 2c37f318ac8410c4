import { quote } from '../db/sql.ts';
import type { ShapeColumn } from './unit-test-shapes.ts';

// The rows of a unit test as SQL, and the comparison of the rows a model gave with those it should have.

/** A `.yml` value as a SQL literal: a list as a list, a map as a struct. */
export function literal(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'boolean' || typeof value === 'number') return String(value);
  if (typeof value === 'string') return quote(value);
  if (Array.isArray(value)) return `[${value.map(literal).join(', ')}]`;
  return `{${Object.entries(value as object)
    .map(([k, v]) => `${quote(k)}: ${literal(v)}`)
    .join(', ')}}`;
}

/**
 * A select of the rows, each value cast to its column's type; a column a row does not name is null. Empty when there
 * are no rows.
 */
export function rowsSelect(rows: Record<string, unknown>[], columns: ShapeColumn[]): string {
  const types = new Map(columns.map((c) => [c.name, c.type]));
  return rows
    .map((row) => {
      const values = Object.entries(row).map(([name, value]) => `cast(${literal(value)} as ${types.get(name)}) as ${name}`);
      return `select ${values.join(', ') || 'null as _none'}`;
    })
    .join(' union all by name ');
}

/** Types whose values compare as exact numbers: 12.5 expects a DECIMAL's 12.5000, never its rounding of 12.49996. */
const exactNumber = /^(DECIMAL|NUMERIC|TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT)/;
export const isExactNumber = (type: string) => exactNumber.test(type);

/** A number's text without the zeros a scale adds: 12.5000 → 12.5, -0.0 → 0. */
export function plainNumber(text: string): string {
  if (!/^-?\d+(\.\d+)?$/.test(text)) return text;
  const plain = text.includes('.') ? text.replace(/\.?0+$/, '') : text;
  return plain === '-0' ? '0' : plain;
}

/**
 * The expected rows in the form the actual rows are read in (text per column): an exact number as its plain text,
 * written in the `.yml` as a number or a string; any other value cast to the column's type by DuckDB (`castText`
 * runs the casts), so that '2026-03-10 08:00:00Z' expects a TIMESTAMP WITH TIME ZONE by its value.
 */
export async function expectedTexts(
  rows: Record<string, unknown>[],
  columns: ShapeColumn[],
  castText: (select: string) => Promise<(string | null)[][]>,
): Promise<(string | null)[][]> {
  if (rows.length === 0) return [];
  const parts = rows.map(
    (row) =>
      `select ${columns
        .map((c, i) => {
          const value = row[c.name];
          if (value === null || value === undefined) return `null::varchar as c${i}`;
          if (isExactNumber(c.type)) return `${quote(plainNumber(String(value)))} as c${i}`;
          return `cast(${literal(value)} as ${c.type})::varchar as c${i}`;
        })
        .join(', ')}`,
  );
  return castText(parts.join(' union all '));
}

/**
 * The difference between two multisets of rows, as lines under a header: `- ` a row expected and not given (as
 * many times as it is missing), `+ ` a row given and not expected. Empty when they are equal.
 */
export function rowsDiff(names: string[], expected: (string | null)[][], actual: (string | null)[][]): string {
  const counts = new Map<string, number>();
  for (const row of expected) counts.set(JSON.stringify(row), (counts.get(JSON.stringify(row)) ?? 0) + 1);
  const unexpected: (string | null)[][] = [];
  for (const row of actual) {
    const key = JSON.stringify(row);
    if (counts.get(key)) counts.set(key, counts.get(key)! - 1);
    else unexpected.push(row);
  }
  const missing = [...counts].flatMap(([key, n]) => Array<(string | null)[]>(n).fill(JSON.parse(key)));
  if (missing.length + unexpected.length === 0) return '';
  const lines = [...missing.map((r) => ['-', ...r]), ...unexpected.map((r) => ['+', ...r])];
  const table = [[' ', ...names], ...lines].map((r) => r.map((v) => (v === null ? 'NULL' : v)));
  const widths = table[0]!.map((_, i) => Math.max(...table.map((r) => r[i]!.length)));
  return table.map((r) => r.map((v, i) => v.padEnd(widths[i]!)).join(' | ')).join('\n');
}
