import { rmSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { DuckDBInstance } from '@duckdb/node-api';
import { addConnection } from '../src/control/connections/connections.ts';
import { createOrganization } from '../src/control/organizations.ts';
import { openWarehouse, type Warehouse } from '../src/db/warehouse.ts';
import { createExport, deleteExport } from '../src/exports/export-jobs.ts';
import { exportRequestSchema, type ExportRequest, type OutputType } from '../src/exports/export-request.ts';
import { ExportWorker } from '../src/exports/export-worker.ts';
import { copyOptions } from '../src/exports/write-export.ts';
import { resolveHome, type Home } from '../src/home.ts';
import { publish } from '../src/publish/publish.ts';
import { connections, exportRows, firstDay, generate, lastDay, table } from './exports-data.ts';
import { medianRatio, takeTurns } from './paired.ts';

/**
 * Measurements per side and format, taking turns at going first. Two runs of one COPY a few seconds apart differ by
 * up to 20% here (CPU time with them: the machine's speed, not the code), so a single pair's ratio spans 0.8–1.2×;
 * with nine pairs, runs averaging 1.04× gave 1.11× and 1.13× in two of fourteen.
 */
const ATTEMPTS = 15;
const exportFormats = ['CSV', 'PARQUET'] as const satisfies readonly OutputType[];

export interface ExportFormatResult {
  format: OutputType;
  rows: number;
  bytes: number;
  /** best wall time from createExport to the job's COMPLETED row (worker.enqueue + worker.idle) */
  exportMs: number;
  /**
   * best wall time of `COPY (select * from the table)` on a bare read-only DuckDB connection to the published file (one
   * instance for all attempts)
   */
  bareMs: number;
  /** the median of the attempts' export / bare ratios (paired.ts) */
  ratio: number;
}

export interface ExportsBenchResult {
  rows: number;
  /** measurements per side and format */
  attempts: number;
  generateMs: number;
  publishMs: number;
  formats: ExportFormatResult[];
}

/**
 * Exports a 2M-row catalog table (mkt_order_items_with_cogs, generated with SQL and published) as CSV and
 * Parquet through the export job path (amounts rounded to the cent, every row of both connections and the whole
 * period selected), and compares each with the bare engine: `COPY (select * from the table) TO …` of the same
 * published file, with the same COPY options.
 */
export async function benchExports(workDir: string, log: (message: string) => void): Promise<ExportsBenchResult> {
  const home = resolveHome(join(workDir, 'home'));
  const wh = await openWarehouse(home, 'bench', { create: true });
  const worker = new ExportWorker(wh, home, { log: (message, error) => log(`${message}: ${String(error)}`) });
  try {
    const organizationId = await createOrganization(wh, { name: 'Bench exports', tokens: 1_000_000 });
    for (const c of connections)
      await addConnection(wh, {
        organizationId,
        id: c.id,
        name: `Bench ${c.currency}`,
        marketplaceId: c.marketplaceId,
      });

    let start = performance.now();
    await generate(wh);
    const generateMs = performance.now() - start;
    log(`  generated ${exportRows.toLocaleString('en-US')} rows of marts.${table} in ${generateMs.toFixed(0)} ms`);
    start = performance.now();
    const published = await publish(wh);
    const publishMs = performance.now() - start;
    const publishedRows = published.tables.find((t) => t.name === table)?.rows;
    if (publishedRows !== exportRows)
      throw new Error(`published ${publishedRows} rows of ${table}, expected ${exportRows}`);
    log(`  published ${(statSync(home.published).size / 1e6).toFixed(0)} MB snapshot in ${publishMs.toFixed(0)} ms`);
    await worker.start();

    const formats: ExportFormatResult[] = [];
    for (const format of exportFormats) {
      const request = exportRequestSchema.parse({
        sellerOrVendorIds: connections.map((c) => c.id),
        tableName: table,
        from: firstDay,
        to: lastDay,
        outputType: format,
      });
      // (Opened once, as the export path's readers share one: see src/publish/snapshot-instances.ts.)
      const engine = await DuckDBInstance.create(home.published, { access_mode: 'READ_ONLY' });
      const [exported, bare] = await takeTurns(
        ATTEMPTS,
        () => timeExportPath(wh, home, worker, organizationId, request),
        (attempt) => timeBareCopy(engine, format, join(workDir, `bare-${attempt}.${format.toLowerCase()}`)),
        (attempt, e, b) => {
          log(
            `  ${format} #${attempt}: export path ${e.ms.toFixed(0)} ms (cpu ${e.cpuMs.toFixed(0)} ms), bare COPY ${b.ms.toFixed(0)} ms (cpu ${b.cpuMs.toFixed(0)} ms): ` +
              `${(e.ms / b.ms).toFixed(2)}x wall, ${(e.cpuMs / b.cpuMs).toFixed(2)}x cpu; ${(e.bytes / 1e6).toFixed(0)} MB / ${(b.bytes / 1e6).toFixed(0)} MB; load ${loadAverage()}`,
          );
          for (const m of [e, b])
            if (m.rows !== exportRows) throw new Error(`${format}: wrote ${m.rows} rows, expected ${exportRows}`);
        },
      );
      engine.closeSync();
      const exportMs = Math.min(...exported.map((m) => m.ms));
      const bareMs = Math.min(...bare.map((m) => m.ms));
      formats.push({
        format,
        rows: exportRows,
        bytes: exported[0]!.bytes,
        exportMs,
        bareMs,
        ratio: medianRatio(
          exported.map((m) => m.ms),
          bare.map((m) => m.ms),
        ),
      });
    }
    return { rows: exportRows, attempts: ATTEMPTS, generateMs, publishMs, formats };
  } finally {
    await worker.stop();
    await wh.close();
  }
}

interface Measured {
  ms: number;
  /**
   * CPU time of the whole process (DuckDB's threads included) over the same span: steadier than wall time on a busy
   * machine
   */
  cpuMs: number;
  rows: number;
  bytes: number;
}

/** The job path: createExport (checks, tokens, PENDING row), then the worker until the row is COMPLETED. */
async function timeExportPath(
  wh: Warehouse,
  home: Home,
  worker: ExportWorker,
  organizationId: string,
  request: ExportRequest,
): Promise<Measured> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const created = await createExport(wh, organizationId, request, { kind: 'API' }, new Date());
  worker.enqueue(created.id);
  await worker.idle();
  const ms = performance.now() - start;
  const cpuMs = cpuTime(cpu);
  const row = await wh.db
    .selectFrom('control.exports')
    .selectAll()
    .where('id', '=', created.id)
    .executeTakeFirstOrThrow();
  if (row.status !== 'COMPLETED') throw new Error(`export ${row.id} ended ${row.status}: ${row.error}`);
  await deleteExport(wh, home, organizationId, row.id); // removes the file too
  return { ms, cpuMs, rows: Number(row.row_count), bytes: Number(row.file_size_bytes) };
}

/**
 * Bare DuckDB: a connection to the same published file opened read-only, `select *` of the table, the same COPY
 * options; only the COPY is timed.
 */
async function timeBareCopy(instance: DuckDBInstance, format: OutputType, file: string): Promise<Measured> {
  const sql = await instance.connect();
  try {
    const cpu = process.cpuUsage();
    const start = performance.now();
    const result = await sql.run(
      `copy (select * from ${table}) to '${file.replace(/'/g, "''")}' (${copyOptions[format]})`,
    );
    const ms = performance.now() - start;
    const cpuMs = cpuTime(cpu);
    return { ms, cpuMs, rows: Number(result.rowsChanged), bytes: statSync(file).size };
  } finally {
    sql.closeSync();
    rmSync(file, { force: true });
  }
}

/** The 1-minute load average: other work on the machine shows here. */
const loadAverage = () => loadavg()[0]!.toFixed(1);

function cpuTime(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
}
