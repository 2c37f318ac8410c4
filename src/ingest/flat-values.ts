import type { DuckDBConnection } from '@duckdb/node-api';
import { quote } from '../db/sql.ts';
import { rawName, sqlTypes, type FlatColumn } from './flat-file.ts';
import { RefusedFile, type LandContext, type StagedFile } from './source.ts';

// A delimited file's values: how staged text becomes a raw table's typed columns, and how the first value that does
// not parse is found and named.

/** Day-first and locale forms seen in upstream files besides ISO (upstream-formats b1, f1). */
const timestampPatterns = [
  '%d.%m.%Y %H:%M:%S %Z',
  '%d/%m/%Y %H:%M:%S %Z',
  '%d.%m.%Y %H:%M:%S',
  '%d/%m/%Y %H:%M:%S',
  '%d.%m.%Y',
  '%d/%m/%Y',
];
const datePatterns = ['%Y-%m-%d', '%d.%m.%Y', '%d/%m/%Y', '%d/%m/%y', '%d.%m.%y'];
const list = (patterns: string[]) => `[${patterns.map((p) => `'${p}'`).join(', ')}]`;

/** The typed value of a non-empty text expression `v`, or null when it does not parse. */
function parsed(type: FlatColumn['type'], v: string): string {
  switch (type) {
    case 'decimal':
      // Amounts are DECIMAL; some EU files write a decimal comma (`-12,34`).
      return `coalesce(try_cast(${v} as decimal(18,4)), try_cast(replace(${v}, ',', '.') as decimal(18,4)))`;
    case 'integer':
      return `try_cast(${v} as bigint)`;
    case 'timestamp':
      return `coalesce(try_cast(${v} as timestamptz), try_strptime(${v}, ${list(timestampPatterns)})::timestamptz)`;
    case 'date':
      return `coalesce(try_strptime(${v}, ${list(datePatterns)})::date, try_cast(${v} as timestamptz)::date)`;
    case 'boolean':
      return `try_cast(${v} as boolean)`;
    default:
      return v;
  }
}

/** A value of a typed column that does not parse, as a SQL condition on the stage column. */
function badValue(column: FlatColumn, ref: string): string | null {
  if (column.type === 'text') return null;
  const v = `nullif(trim(${ref}), '')`;
  return `${v} is not null and ${parsed(column.type, v)} is null`;
}

/** Finds the first bad value of a staged file in one scan and throws it as a RefusedFile. */
export async function explainBadValue(sql: DuckDBConnection, staged: StagedFile, columns: FlatColumn[]): Promise<void> {
  const probes: { why: string; select: string }[] = [];
  for (const column of columns) {
    const ref = staged.present.get(column.name);
    if (!ref) continue;
    const bad = badValue(column, ref);
    const label = column.name.replace(/'/g, "''");
    if (bad)
      probes.push({
        why: `'${label}: ' || any_value(${ref}) filter (where ${bad}) || ' is not a valid ${column.type}'`,
        select: `min(${staged.line}) filter (where ${bad})`,
      });
    if (column.required === 'value') {
      const empty = `nullif(trim(${ref}), '') is null`;
      probes.push({ why: `'${label} is empty'`, select: `min(${staged.line}) filter (where ${empty})` });
    }
  }
  if (probes.length === 0) return;
  const reader = await sql.runAndReadAll(
    `select ${probes.map((p, i) => `${p.select} as l${i}, ${p.why} as w${i}`).join(', ')} from ${staged.stage}`,
  );
  const row = reader.getRowsJson()[0] ?? [];
  let first: { line: number; why: string } | null = null;
  for (let i = 0; i < probes.length; i++) {
    const line = row[2 * i];
    if (line === null || line === undefined) continue;
    if (!first || Number(line) < first.line) first = { line: Number(line), why: String(row[2 * i + 1]) };
  }
  if (first) throw new RefusedFile(first.line, first.why);
}

/** The select list that casts staged text into the raw table's typed columns, unknown columns to JSON. */
export function typedSelectList(
  staged: Pick<StagedFile, 'present' | 'extra' | 'extraJson'>,
  columns: FlatColumn[],
): string {
  const typed = columns.map((column) => {
    const ref = staged.present.get(column.name);
    if (!ref) return `null::${sqlTypes[column.type]} as ${rawName(column.name)}`;
    const v = `nullif(trim(${ref}), '')`;
    const value =
      column.type === 'text'
        ? ref
        : `coalesce(${parsed(column.type, v)}, error('${column.name} is not a valid ${column.type}'))`;
    const empty = column.required === 'value' ? `error('${column.name} is empty')` : `null`;
    const checked =
      column.type === 'text' && !column.required ? ref : `case when ${v} is null then ${empty} else ${value} end`;
    return `${checked} as ${rawName(column.name)}`;
  });
  const extras = [...staged.extra].map(([name, ref]) => `${quote(name)}, ${ref}`);
  if (staged.extraJson) typed.push(`${staged.extraJson}::json as _extra`);
  else typed.push(extras.length > 0 ? `json_object(${extras.join(', ')}) as _extra` : 'null::json as _extra');
  return typed.join(',\n    ');
}

/**
 * Runs the typed insert of a staged file. Good files pay for one pass: the casts themselves reject
 * bad values, and only then is the stage scanned again to name the first bad line and column.
 */
export async function insertOrExplain(
  ctx: LandContext,
  staged: StagedFile,
  columns: FlatColumn[],
  insert: string,
  params: Record<string, string>,
) {
  try {
    return await ctx.sql.run(insert, params);
  } catch (error) {
    // The failed statement aborted the transaction: start a clean one to look for the bad line.
    await ctx.sql.run('rollback');
    await ctx.sql.run('begin transaction');
    await staged.restage();
    await explainBadValue(ctx.sql, staged, columns);
    throw new RefusedFile(null, String(error instanceof Error ? error.message : error).split('\n')[0]!);
  }
}
