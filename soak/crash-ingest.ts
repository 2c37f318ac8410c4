// Crash safety of `mktdata ingest`: killed (SIGKILL) at random points while it lands a batch of files, every file
// is landed whole or not at all, and running the same command again lands the rest: the raw tables end exactly as
// after an uninterrupted ingest.
import { cpSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { resolveHome } from '../src/home.ts';
import { demo, demoConnections, makeDemoHome, mktdata, startMktdata } from './homes.ts';

export interface CrashIngestReport {
  trials: number;
  /** Trials after whose kill every landed file had all its rows and no other rows had landed. */
  whole: number;
  /** Trials whose rerun ended with the uninterrupted raw table. */
  converged: number;
  failures: string[];
  runMs: number;
}

const SOURCE = 'GET_SALES_AND_TRAFFIC_REPORT';
const us = demoConnections.find((c) => c.key === 'us')!;

/** Per landed file: its recorded row count beside the rows of it in the raw table; and the table's fingerprint. */
async function state(home: string) {
  const instance = await DuckDBInstance.create(resolveHome(home).warehouse, { access_mode: 'READ_ONLY' });
  try {
    const sql = await instance.connect();
    const exists =
      Number(
        (
          await sql.runAndReadAll(
            `select count(*) from duckdb_tables() where schema_name = 'raw' and table_name = 'get_sales_and_traffic_report'`,
          )
        ).getRowsJson()[0]![0],
      ) > 0;
    const files = (
      await sql.runAndReadAll(`select id, row_count::bigint::varchar from control.landed_files where source = $s`, {
        s: SOURCE,
      })
    ).getRowsJson();
    const byFile = exists
      ? (
          await sql.runAndReadAll(`select _file_id, count(*)::varchar from raw.get_sales_and_traffic_report group by 1`)
        ).getRowsJson()
      : [];
    const fingerprint = exists
      ? String(
          (
            await sql.runAndReadAll(
              `select count(*) || ' rows #' || coalesce(sum(hash(t::varchar)), 0) from (select * exclude (_file_id, _landed_at) from raw.get_sales_and_traffic_report) t`,
            )
          ).getRowsJson()[0]![0],
        )
      : 'none';
    sql.closeSync();
    const recorded = new Map(files.map(([id, rows]) => [String(id), String(rows)]));
    const actual = new Map(byFile.map(([id, rows]) => [String(id), String(rows)]));
    const torn = [...new Set([...recorded.keys(), ...actual.keys()])].filter(
      (id) => recorded.get(id) !== actual.get(id),
    );
    return { torn, fingerprint, files: recorded.size };
  } finally {
    instance.closeSync();
  }
}

export async function crashIngest(
  workDir: string,
  options: { trials: number; log: (line: string) => void },
): Promise<CrashIngestReport> {
  const base = join(workDir, 'base');
  await makeDemoHome(base);
  const folder = join(demo, us.key, SOURCE);
  const files = readdirSync(folder)
    .sort()
    .map((f) => join(folder, f));
  const args = (home: string) => ['ingest', '--home', home, '--connection', us.id, '--source', SOURCE, ...files];
  const reference = join(workDir, 'reference');
  cpSync(base, reference, { recursive: true });
  const started = performance.now();
  const straight = await mktdata(args(reference));
  const runMs = performance.now() - started;
  if (straight.code !== 0) throw new Error(`the uninterrupted ingest failed: ${straight.stderr}`);
  const expected = await state(reference);
  options.log(
    `crash ingest: ${files.length} files in ${(runMs / 1000).toFixed(1)} s uninterrupted; killing ${options.trials} at random points`,
  );
  const report: CrashIngestReport = { trials: options.trials, whole: 0, converged: 0, failures: [], runMs };
  for (let trial = 1; trial <= options.trials; trial++) {
    const home = join(workDir, `trial-${trial}`);
    cpSync(base, home, { recursive: true });
    const killAt = Math.random() * runMs;
    const run = startMktdata(args(home));
    const timer = setTimeout(() => run.child.kill('SIGKILL'), killAt);
    await run.ended;
    clearTimeout(timer);
    const after = await state(home);
    if (after.torn.length === 0) report.whole++;
    else
      report.failures.push(
        `trial ${trial} (killed at ${killAt.toFixed(0)} ms): files landed in part: ${after.torn.join(', ')}`,
      );
    const rerun = await mktdata(args(home));
    const final = await state(home);
    const converged =
      rerun.code === 0 &&
      final.fingerprint === expected.fingerprint &&
      final.files === expected.files &&
      final.torn.length === 0;
    if (converged) report.converged++;
    else
      report.failures.push(
        `trial ${trial}: the rerun exited ${rerun.code} with ${final.files} files, ${final.fingerprint} (expected ${expected.files} files, ${expected.fingerprint})`,
      );
    options.log(
      `  trial ${trial}: killed at ${killAt.toFixed(0)} ms with ${after.files} of ${files.length} files landed → ${after.torn.length === 0 ? 'whole' : 'TORN'}, rerun ${converged ? 'converged' : 'DIFFERS'}`,
    );
    if (converged && after.torn.length === 0) rmSync(home, { recursive: true, force: true });
  }
  return report;
}
