// Hostile files: every source's real document mutated many ways and landed with `mktdata ingest` as a user would.
// Each file must land whole (as many rows as the original where the mutation keeps them) or be refused naming the
// file (and the line or record where there is one) with nothing of it landed; the command exits 0 or 1 and never
// prints a stack trace.
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { DuckDBInstance } from '@duckdb/node-api';
import { resolveHome } from '../src/home.ts';
import { findSource } from '../src/ingest/sources/index.ts';
import { demo, demoConnections, makeDemoHome, mktdata } from './homes.ts';
import { delimitedMutations, jsonMutations, type Mutation } from './mutations.ts';

export interface HostileReport {
  files: number;
  sources: number;
  landed: number;
  refused: number;
  failures: string[];
}

const us = demoConnections.find((c) => c.key === 'us')!;
const fixtures = join(demo, us.key);

/** Every source's first demo file (unit costs: cogs.csv), as text. */
function baseDocuments(): { source: string; name: string; text: string }[] {
  const sources = readdirSync(fixtures, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
  const documents = sources.map((source) => {
    const name = readdirSync(join(fixtures, source)).sort()[0]!;
    const bytes = readFileSync(join(fixtures, source, name));
    return {
      source,
      name: name.replace(/\.gz$/, ''),
      text: (name.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8'),
    };
  });
  return [...documents, { source: 'cogs', name: 'cogs.csv', text: readFileSync(join(fixtures, 'cogs.csv'), 'utf8') }];
}

function mutationsOf(document: { source: string; name: string; text: string }): Mutation[] {
  if (/\.json$/.test(document.name)) return jsonMutations(document.text);
  const csv = document.name.endsWith('.csv');
  return delimitedMutations(document.text, csv ? ',' : '\t', {
    headerOnly: document.source === 'GET_V2_SETTLEMENT_REPORT_DATA_FLAT_FILE_V2' ? 'refuse' : 'empty',
  });
}

async function rawRows(home: string, table: string): Promise<number> {
  const instance = await DuckDBInstance.create(resolveHome(home).warehouse, { access_mode: 'READ_ONLY' });
  try {
    const sql = await instance.connect();
    const exists = (
      await sql.runAndReadAll(`select count(*) from duckdb_tables() where schema_name || '.' || table_name = $t`, {
        t: table,
      })
    ).getRowsJson()[0]![0];
    const count =
      Number(exists) === 0
        ? 0
        : Number((await sql.runAndReadAll(`select count(*) from ${table}`)).getRowsJson()[0]![0]);
    sql.closeSync();
    return count;
  } finally {
    instance.closeSync();
  }
}

const stackTrace = /^\s+at .+:\d+:\d+\)?$/m;

export async function hostileFiles(workDir: string, options: { log: (line: string) => void }): Promise<HostileReport> {
  const template = join(workDir, 'template');
  await makeDemoHome(template);
  const report: HostileReport = { files: 0, sources: 0, landed: 0, refused: 0, failures: [] };
  for (const document of baseDocuments()) {
    report.sources++;
    const home = join(workDir, document.source);
    cpSync(template, home, { recursive: true });
    const dir = join(workDir, 'files', document.source);
    mkdirSync(dir, { recursive: true });
    const original = join(dir, `original-${document.name}`);
    writeFileSync(original, document.text);
    const first = await mktdata([
      'ingest',
      '--home',
      home,
      '--connection',
      us.id,
      '--source',
      document.source,
      original,
    ]);
    const baseRows = Number(/: (\d+) rows/.exec(first.stdout)?.[1] ?? NaN);
    if (first.code !== 0 || !(baseRows > 0)) {
      report.failures.push(`${document.source}: the original document did not land: ${first.stderr.trim()}`);
      continue;
    }
    const mutations = mutationsOf(document);
    const files = mutations.map((m) => {
      const file = join(dir, `${m.name}-${document.name}`);
      writeFileSync(file, m.bytes);
      return file;
    });
    report.files += files.length;
    const result = await mktdata([
      'ingest',
      '--home',
      home,
      '--connection',
      us.id,
      '--source',
      document.source,
      ...files,
    ]);
    const fail = (what: string) => report.failures.push(`${document.source}: ${what}`);
    if (result.code !== 0 && result.code !== 1) fail(`exit code ${result.code}`);
    if (stackTrace.test(result.stderr) || stackTrace.test(result.stdout))
      fail(`a stack trace: ${result.stderr.slice(0, 400)}`);
    let landedRows = 0;
    mutations.forEach((m, i) => {
      const file = files[i]!;
      const line = `${result.stdout}\n${result.stderr}`.split('\n').find((l) => l.includes(` ${file}: `));
      const landed = line && /^landed +\S+: (\d+) rows/.exec(line);
      const refused = line?.startsWith('refused');
      if (!line)
        return fail(
          `${m.name}: no line names the file (exit ${result.code}: ${result.stderr.trim().split('\n').slice(-3).join(' | ')})`,
        );
      if (landed) {
        report.landed++;
        const rows = Number(landed[1]);
        landedRows += rows;
        if (m.expect === 'refuse') fail(`${m.name}: landed ${rows} rows; it should have been refused`);
        if (m.expect === 'same' && rows !== baseRows)
          fail(`${m.name}: landed ${rows} rows, not the original's ${baseRows}`);
        if (m.expect === 'empty' && rows !== 0) fail(`${m.name}: landed ${rows} rows, not 0`);
      } else if (refused) {
        report.refused++;
        if (m.expect === 'same' || m.expect === 'empty') fail(`${m.name}: refused (${line}); it should have landed`);
        if (!/: \S/.test(line.replace(file, ''))) fail(`${m.name}: refused without a reason: ${line}`);
      } else if (!line.startsWith('skipped')) fail(`${m.name}: unexpected line ${line}`);
    });
    // Nothing of a refused file landed: the table holds the original's rows and the landed files' rows only.
    // (Unit costs are upserted by key, not appended: their table is not a sum of files.)
    const table = findSource(document.source).table;
    const total = await rawRows(home, table);
    if (document.source !== 'cogs' && total !== baseRows + landedRows)
      fail(`${table} holds ${total} rows, not the ${baseRows} + ${landedRows} of the files reported landed`);
    options.log(`hostile files: ${document.source}: ${mutations.length} files`);
  }
  return report;
}
