import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ColumnConfig } from '../../src/models/model-config.ts';

/** A column as spec documents 001 and 002 list it. */
export interface SpecColumn {
  name: string;
  type: ColumnConfig['type'];
  nullable: boolean;
  warehouseOnly: boolean;
}

/** A table's column list; `complete` is false where the spec shows the common columns only. */
export interface SpecTable {
  columns: SpecColumn[];
  complete: boolean;
}

/**
 * Verbatim copies of spec documents 001 and 002 (fixtures/spec), so the tests run in a clone without the shared spec
 * folder.
 */
export const specDocuments = ['001.txt', '002.txt'].map((f) =>
  readFileSync(fileURLToPath(new URL(`../../fixtures/spec/${f}`, import.meta.url)), 'utf8'),
);

// The documents' legend: "T TEXT, N NUMBER, D DATE, L LOGIC (boolean), J JSON; a trailing `?` means nullable".
const types = { T: 'TEXT', N: 'NUMBER', D: 'DATE', L: 'LOGIC', J: 'JSON' } as const;
const typeToken = '[TNDLJ]\\??';
const namePattern = /^[a-z_][a-z0-9_]*$/;

/** Splits at `separator` outside parentheses. */
function splitTop(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')') depth--;
    else if (depth === 0 && text.startsWith(separator, i)) {
      parts.push(text.slice(start, i).trim());
      start = i + separator.length;
      i = start - 1;
    }
  }
  return [...parts, text.slice(start).trim()];
}

/** The text of a column list, up to its closing full stop (outside parentheses), and what follows. */
function cutList(text: string): { list: string; rest: string } {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')') depth--;
    else if (depth === 0 && text[i] === '.' && (i === text.length - 1 || /\s/.test(text[i + 1]!)))
      return { list: text.slice(0, i), rest: text.slice(i + 1) };
  }
  return { list: text, rest: '' };
}

function column(name: string, token: string, warehouseOnly: boolean): SpecColumn {
  if (!namePattern.test(name)) throw new Error(`spec column list: cannot read '${name}'`);
  return { name, type: types[token[0] as keyof typeof types], nullable: token.endsWith('?'), warehouseOnly };
}

/** Reads the spec's column lists; `common` and `typeColumns` are the lists other lists refer to. */
class ListReader {
  common: SpecColumn[] = [];
  typeColumns: string[] = [];
  addressParts: string[] = [];

  read(list: string): SpecColumn[] {
    return splitTop(list, ';').flatMap((segment) => this.segment(segment.replace(/^then /, '')));
  }

  private segment(text: string): SpecColumn[] {
    const warehouseOnly = text.includes('warehouse-integration only');
    let m: RegExpMatchArray | null;
    if (/^C( \(.*\))?$/.test(text)) return this.common;
    // "the three type columns above (T)": the names of "Type column values: ...".
    if ((m = text.match(new RegExp(`^the \\w+ type columns above \\((${typeToken})\\)$`)))) {
      return this.typeColumns.map((name) => column(name, m![1]!, warehouseOnly));
    }
    // "the nine ad_search_term_* columns with the same suffixes (ad_search_term_reported_spend, _reported_sales, …)
    // (N)"
    if (
      (m = text.match(
        new RegExp(`^the \\w+ (\\w+)_\\* columns with the same suffixes \\((.*)\\) \\((${typeToken})\\)$`),
      ))
    ) {
      const [, prefix, names, token] = m as unknown as [string, string, string, string];
      return names.split(', ').map((n) => column(n.startsWith('_') ? prefix + n : n, token, warehouseOnly));
    }
    // "destination_address_* and origin_address_* (each: name, address_line1, …; all T?)" or "(same eleven T? parts as
    // …)"
    if (
      (m = text.match(
        new RegExp(
          `^(\\w+)_\\* and (\\w+)_\\* \\((?:each: (.*); all (${typeToken})|same \\w+ (${typeToken}) parts as .*)\\)$`,
        ),
      ))
    ) {
      const [, first, second, parts, eachToken, sameToken] = m;
      if (parts) this.addressParts = parts.split(', ');
      return [first!, second!].flatMap((p) =>
        this.addressParts.map((part) => column(`${p}_${part}`, (eachToken ?? sameToken)!, warehouseOnly)),
      );
    }
    // "J? columns (…): summaries, …", "N columns: a, b (…), …", "N: a, b", "T?/N?/D? columns: tracking_id T?"
    if ((m = text.match(new RegExp(`^(${typeToken}(?:/${typeToken})*)(?: columns)?(?: \\([^)]*\\))?: (.*)$`)))) {
      return this.names(m[2]!, m[1]!.includes('/') ? undefined : m[1], warehouseOnly);
    }
    // "ship_address_1, …, ship_phone_number (T?)", "then total_sales, …, cogs_total (all N)"
    if ((m = text.match(new RegExp(`^(.*) \\((?:all )?(${typeToken})\\)$`))))
      return this.names(m[1]!, m[2], warehouseOnly);
    return this.names(text, undefined, warehouseOnly);
  }

  /** "a T, b N? (note) and c": names with their own type, else `token`. */
  private names(text: string, token: string | undefined, warehouseOnly: boolean): SpecColumn[] {
    return splitTop(text, ', ')
      .flatMap((part) => splitTop(part, ' and '))
      .map((item) => {
        const m = item.match(new RegExp(`^(\\S+)(?: (${typeToken}))?(?: \\(.*\\))?$`));
        const own = m?.[2] ?? token;
        if (!m || !own) throw new Error(`spec column list: cannot read '${item}'`);
        return column(m[1]!, own, warehouseOnly);
      });
  }
}

/** Every table of the documents with a "Columns:" list, by table name, in document order. */
export function specTables(documents: string[] = specDocuments): Map<string, SpecTable> {
  const reader = new ListReader();
  const text = documents.join('\n');
  reader.common = reader.read(cutList(text.match(/^Common columns C \([^)]*\): (.*)$/m)![1]!).list);
  reader.typeColumns = text
    .match(/Type column values: (.*)$/m)![1]!
    .split('; ')
    .map((s) => s.split(' ')[0]!);
  const tables = new Map<string, SpecTable>();
  let table: string | undefined;
  for (const line of text.split('\n')) {
    table = line.match(/^(?:### |\*\*)(mkt_\w+)\b/)?.[1] ?? table;
    const at = line.indexOf('Columns: ');
    if (at < 0) continue;
    if (!table || tables.has(table))
      throw new Error(`spec column list without a table of its own: ${line.slice(0, 80)}`);
    const { list, rest } = cutList(line.slice(at + 'Columns: '.length));
    // mkt_fba_removal_shipments: "Columns of this table beyond the common ones and its metadata: not shown."
    tables.set(table, { columns: reader.read(list), complete: !/beyond the common ones.*not shown/.test(rest) });
  }
  return tables;
}
