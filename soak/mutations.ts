// Hostile variants of a real upstream document: what a damaged download, a spreadsheet round trip or a hand edit
// makes of it. Each says what landing must do with it: land the same rows as the original, land no rows, be
// refused, or either land whole or be refused (the universal checks still apply).
import { constants, gzipSync } from 'node:zlib';

export type Expect = 'same' | 'empty' | 'refuse' | 'either';

export interface Mutation {
  name: string;
  bytes: Buffer;
  expect: Expect;
}

const utf16 = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
const cutGzip = (bytes: Buffer) =>
  gzipSync(bytes.subarray(0, Math.floor(bytes.length / 2)), { finishFlush: constants.Z_SYNC_FLUSH });
function corruptGzip(bytes: Buffer): Buffer {
  const zipped = Buffer.from(gzipSync(bytes));
  for (let i = Math.floor(zipped.length / 3); i < Math.floor(zipped.length / 3) + 16 && i < zipped.length - 8; i++)
    zipped[i] = zipped[i]! ^ 0x5a;
  return zipped;
}

/** Mutations common to every text document. */
function anyText(text: string): Mutation[] {
  const bytes = Buffer.from(text, 'utf8');
  return [
    { name: 'empty', bytes: Buffer.alloc(0), expect: 'refuse' },
    { name: 'bom', bytes: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes]), expect: 'same' },
    { name: 'gzip', bytes: gzipSync(bytes), expect: 'same' },
    { name: 'gzip-cut', bytes: cutGzip(bytes), expect: 'refuse' },
    { name: 'gzip-corrupt', bytes: corruptGzip(bytes), expect: 'refuse' },
    { name: 'utf16', bytes: utf16(text), expect: 'either' },
    {
      name: 'invalid-utf8',
      bytes: Buffer.concat([
        bytes.subarray(0, Math.floor(bytes.length / 2)),
        Buffer.from([0xff, 0xc3, 0x28]),
        bytes.subarray(Math.floor(bytes.length / 2)),
      ]),
      expect: 'either',
    },
    {
      name: 'nul-bytes',
      bytes: Buffer.concat([
        bytes.subarray(0, Math.floor(bytes.length / 2)),
        Buffer.from([0, 0, 0]),
        bytes.subarray(Math.floor(bytes.length / 2)),
      ]),
      expect: 'either',
    },
    { name: 'binary', bytes: Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256)), expect: 'refuse' },
  ];
}

/** A delimited file (TSV, or CSV for unit costs): its lines, header first. */
export function delimitedMutations(text: string, delimiter: string, options: { headerOnly: Expect }): Mutation[] {
  const lines = text.replace(/\r?\n$/, '').split(/\r?\n/);
  const [header, ...data] = lines;
  const fields = (line: string) => line.split(delimiter);
  const join = (rows: string[][]) => rows.map((r) => r.join(delimiter)).join('\n') + '\n';
  const table = lines.map(fields);
  const onFirstDataLine = (change: (row: string[]) => string[]) =>
    join(table.map((row, i) => (i === 1 ? change([...row]) : row)));
  const setField = (value: string, at = Math.min(1, table[0]!.length - 1)) =>
    onFirstDataLine((row) => row.map((v, i) => (i === at ? value : v)));
  const middle = Math.floor(text.length / 2);
  const midLine = text.indexOf('\n', middle) > 0 ? text.indexOf('\n', middle) - 3 : middle;
  const mutations: (Mutation | { name: string; text: string; expect: Expect })[] = [
    ...anyText(text),
    { name: 'crlf', text: text.replace(/\r?\n/g, '\r\n'), expect: 'same' },
    { name: 'header-only', text: `${header}\n`, expect: options.headerOnly },
    { name: 'header-only-no-newline', text: header!, expect: options.headerOnly },
    { name: 'no-final-newline', text: text.replace(/\r?\n$/, ''), expect: 'same' },
    { name: 'blank-lines-at-end', text: `${text}\n\n`, expect: 'either' },
    { name: 'cut-mid-line', text: text.slice(0, midLine), expect: 'either' },
    {
      name: 'extra-column',
      text: join(table.map((row, i) => [...row, i === 0 ? 'mystery-column' : 'x'])),
      expect: 'same',
    },
    { name: 'reordered-columns', text: join(table.map((row) => [...row].reverse())), expect: 'same' },
    {
      name: 'renamed-first-column',
      text: join(table.map((row, i) => (i === 0 ? [`renamed-${row[0]}`, ...row.slice(1)] : row))),
      expect: 'either',
    },
    { name: 'missing-first-column', text: join(table.map((row) => row.slice(1))), expect: 'either' },
    { name: 'duplicate-column', text: join(table.map((row) => [...row, row[0]!])), expect: 'refuse' },
    {
      name: 'uppercase-header',
      text: join(table.map((row, i) => (i === 0 ? row.map((h) => h.toUpperCase()) : row))),
      expect: 'either',
    },
    { name: 'wrong-delimiter', text: text.split(delimiter).join(delimiter === '\t' ? ';' : '\t'), expect: 'refuse' },
    { name: 'field-more', text: onFirstDataLine((row) => [...row, 'extra']), expect: 'refuse' },
    { name: 'field-fewer', text: onFirstDataLine((row) => row.slice(0, -1)), expect: 'refuse' },
    {
      name: 'embedded-delimiter',
      text: setField(`a${delimiter}b`, 0),
      expect: delimiter === '\t' ? 'refuse' : 'either',
    },
    { name: 'embedded-newline', text: setField('first\nsecond', 0), expect: 'either' },
    { name: 'huge-number', text: setField('1e30'), expect: 'either' },
    { name: 'not-a-number', text: setField('twelve'), expect: 'either' },
    { name: 'impossible-date', text: setField('2026-02-30'), expect: 'either' },
    { name: 'ten-megabyte-field', text: setField('x'.repeat(10 << 20)), expect: 'either' },
    { name: 'localized-decimal', text: setField('1.234,56'), expect: 'either' },
    { name: 'day-first-date', text: setField('31.12.2026 23:59:59 MEZ'), expect: 'either' },
    { name: 'quotes', text: setField('"quoted "" value"'), expect: 'either' },
    { name: 'only-data-no-header', text: join(table.slice(1)), expect: 'refuse' },
    { name: 'lines-duplicated', text: join([...table, ...table.slice(1)]), expect: 'either' },
  ];
  void data;
  return mutations.map((m) =>
    'text' in m ? { name: m.name, bytes: Buffer.from(m.text, 'utf8'), expect: m.expect } : m,
  );
}

/** A JSON document. */
export function jsonMutations(text: string): Mutation[] {
  const document = JSON.parse(text) as unknown;
  const records = firstArray(document);
  const withRecord = (value: unknown) => {
    const copy = structuredClone(document);
    const array = firstArray(copy);
    if (array && array.length > 0) array[Math.min(3, array.length - 1)] = value;
    return JSON.stringify(copy);
  };
  const withField = (value: unknown) => {
    const copy = structuredClone(document);
    const array = firstArray(copy);
    const record = array?.find((r) => r && typeof r === 'object') as Record<string, unknown> | undefined;
    const key = record
      ? (Object.keys(record).find((k) => typeof record[k] === 'number') ?? Object.keys(record)[0])
      : undefined;
    if (record && key) record[key] = value;
    return JSON.stringify(copy);
  };
  const nested = `${'['.repeat(5000)}"bottom"${']'.repeat(5000)}`;
  const texts: { name: string; text: string; expect: Expect }[] = [
    { name: 'pretty-printed', text: JSON.stringify(document, null, 2), expect: 'same' },
    { name: 'cut-in-half', text: text.slice(0, Math.floor(text.length / 2)), expect: 'refuse' },
    { name: 'trailing-garbage', text: `${text}}}`, expect: 'refuse' },
    { name: 'not-json', text: 'this is not JSON at all\n', expect: 'refuse' },
    { name: 'json-null', text: 'null', expect: 'refuse' },
    { name: 'json-array', text: '[]', expect: 'either' },
    { name: 'empty-object', text: '{}', expect: 'either' },
    { name: 'record-is-number', text: withRecord(42), expect: records && records.length > 0 ? 'refuse' : 'either' },
    { name: 'record-is-null', text: withRecord(null), expect: records && records.length > 0 ? 'refuse' : 'either' },
    { name: 'field-is-text', text: withField('twelve'), expect: 'either' },
    { name: 'field-is-huge', text: withField(1e30), expect: 'either' },
    { name: 'field-is-object', text: withField({ nested: [1, 2, 3] }), expect: 'either' },
    { name: 'field-has-nul', text: withField('a\u0000b'), expect: 'either' },
    { name: 'field-ten-megabytes', text: withField('x'.repeat(10 << 20)), expect: 'either' },
    { name: 'deeply-nested', text: withField('\u0001nested').replace('"\\u0001nested"', nested), expect: 'either' },
  ];
  return [
    ...anyText(text),
    ...texts.map((m) => ({ name: m.name, bytes: Buffer.from(m.text, 'utf8'), expect: m.expect })),
  ];
}

/** The document's records: the first array of objects found breadth-first (the document itself when it is one). */
function firstArray(value: unknown): unknown[] | undefined {
  const queue = [value];
  while (queue.length > 0) {
    const next = queue.shift();
    if (Array.isArray(next) && next.some((item) => item !== null && typeof item === 'object' && !Array.isArray(item)))
      return next;
    if (next && typeof next === 'object') queue.push(...Object.values(next));
  }
  return undefined;
}
