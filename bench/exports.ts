import { rmSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { DuckDBInstance } from '@duckdb/node-api';
import { addConnection } from '../src/control/connections.ts';
import { createOrganization } from '../src/control/organizations.ts';
import { openWarehouse, type Warehouse } from '../src/db/warehouse.ts';
import { createExport, deleteExport } from '../src/exports/export-jobs.ts';
import { exportRequestSchema, type ExportRequest, type OutputType } from '../src/exports/export-request.ts';
import { ExportWorker } from '../src/exports/export-worker.ts';
import { copyOptions } from '../src/exports/write-export.ts';
import { resolveHome, type Home } from '../src/home.ts';
import { loadModels } from '../src/models/load-models.ts';
import { publish } from '../src/publish/publish.ts';
import { medianRatio, takeTurns } from './paired.ts';

/**
 * Rows of the exported table: 2M order lines at BENCH_SCALE=1, split over two connections and two
 * years.
 */
const scale = Number(process.env.BENCH_SCALE ?? 1);
const exportRows = Math.round(2_000_000 * scale);
/**
 * Measurements per side and format, taking turns at going first. Two runs of one COPY a few seconds apart differ by
 * up to 20% here (CPU time with them: the machine's speed, not the code), so a single pair's ratio spans 0.8–1.2×;
 * with nine pairs, runs averaging 1.04× gave 1.11× and 1.13× in two of fourteen.
 */
const ATTEMPTS = 15;
const table = 'mkt_order_items_with_cogs';
const lastDay = '2026-10-31';
const days = 730;
const firstDay = new Date(Date.parse(`${lastDay}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
const connections = [
  {
    id: '00000000-0000-4000-8000-0000000e0001',
    marketplaceId: 'ATVPDKIKX0DER',
    country: 'US',
    countryName: 'United States',
    timezone: 'America/Los_Angeles',
    currency: 'USD',
    salesChannel: 'Amazon.com',
    taxed: false,
  },
  {
    id: '00000000-0000-4000-8000-0000000e0002',
    marketplaceId: 'A1PA6795UKMFR9',
    country: 'DE',
    countryName: 'Germany',
    timezone: 'Europe/Berlin',
    currency: 'EUR',
    salesChannel: 'Amazon.de',
    taxed: true,
  },
];
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

/**
 * marts.mkt_order_items_with_cogs filled directly with SQL, with exactly the columns and types of its .yml:
 * half the rows per connection, purchase times spread evenly over the last two years, two lines per order.
 */
export async function generate(wh: Warehouse): Promise<void> {
  const model = loadModels().find((m) => m.id === `marts.${table}`);
  if (!model) throw new Error(`no model marts.${table}`);
  const columns = model.config.columns;
  await wh.sql.run('create schema if not exists marts');
  await wh.sql.run(`create table marts.${table} (${columns.map((c) => `"${c.name}" ${c.dataType}`).join(', ')})`);
  const perConnection = exportRows / connections.length;
  for (const [n, c] of connections.entries()) {
    const values: Record<string, string> = {
      marketplace_id: `'${c.marketplaceId}'`,
      marketplace_country_code: `'${c.country}'`,
      marketplace_country_name: `'${c.countryName}'`,
      seller_or_vendor_id: `'${c.id}'`,
      seller_or_vendor_name: `'Bench ${c.currency}'`,
      marketplace_seller_id: `'A2BENCHSELLER${n}'`,
      date: 'local_date',
      order_purchased_at_utc: 'purchased_at',
      mkt_order_id: 'order_id',
      mkt_order_item_id: `order_id || '/SKU-' || s`,
      child_asin: `'B0' || lpad((s // 2)::varchar, 8, '0')`,
      sku: `'SKU-' || s`,
      product_name: `'Bench product ' || s || if(s % 3 = 0, ', stainless steel, 500 ml', ' (pack of ' || (1 + s % 6) || ')')`,
      line_item_number: '1 + i % 2',
      merchant_order_id: `if(i % 10 = 0, 'M-' || o, null)`,
      mkt_order_updated_at: 'purchased_at + interval 1 day',
      mkt_order_status: `if(i % 20 = 0, 'Canceled', if(i % 20 = 1, 'Unshipped', 'Shipped'))`,
      fulfillment_channel: `if(i % 9 = 0, 'Merchant', 'Amazon')`,
      sales_channel: `'${c.salesChannel}'`,
      mkt_order_channel: `if(i % 4 = 0, 'MOBILEAPP', 'WEBSITE')`,
      ship_service_level: `if(i % 5 = 0, 'Expedited', 'Standard')`,
      item_status: `if(i % 20 = 0, 'Canceled', if(i % 20 = 1, 'Unshipped', 'Shipped'))`,
      quantity: 'q',
      item_price_value: 'price',
      item_price_currency: `'${c.currency}'`,
      item_tax_value: c.taxed ? 'round(price * 19 / 119, 2)' : '0',
      item_shipping_price_value: 'if(i % 7 = 0, 4.99, 0)',
      item_shipping_tax_value: c.taxed ? 'if(i % 7 = 0, 0.80, 0)' : '0',
      item_ship_promotion_discount_value: 'if(i % 7 = 0, 4.99, 0)',
      gift_wrap_price_value: 'if(i % 97 = 0, 3.99, null)',
      gift_wrap_tax_value: 'if(i % 97 = 0, 0, null)',
      address_city: `['Seattle', 'Austin', 'Berlin', 'München', 'Portland', 'Köln', 'Denver', 'Hamburg'][1 + (o * 31) % 8]`,
      address_state: `['WA', 'TX', 'BE', 'BY', 'OR', 'NW', 'CO', 'HH'][1 + (o * 31) % 8]`,
      address_country: `'${c.country}'`,
      address_postal_code: `lpad(((o * 37) % 99999)::varchar, 5, '0')`,
      order_is_business: 'o % 25 = 0',
      purchase_order_number: `if(o % 25 = 0, 'PO-' || o, null)`,
      cogs_item_value: 'if(s % 40 = 0, null, (3.50 + s % 10) * q)',
      cogs_shipping_value: 'if(s % 40 = 0, null, 0.40 * q)',
      cogs_total_value: 'if(s % 40 = 0, null, (3.90 + s % 10) * q)',
      cogs_present: 's % 40 <> 0',
      cogs_currency: `if(s % 40 = 0, null, '${c.currency}')`,
      item_supplier_name: `if(s % 40 = 0, null, 'Supplier ' || (s % 12))`,
      order_date: 'local_date',
    };
    const missing = columns.filter((col) => !(col.name in values)).map((col) => col.name);
    if (missing.length) throw new Error(`the generator has no value for ${table}.${missing.join(', ')}`);
    await wh.sql.run(`
      insert into marts.${table}
      with lines as (
        select
          i, i // 2 as o, (i * 7919) % 400 as s, 1 + i % 3 as q,
          ((5 + (i % 5000) / 100) * (1 + i % 3))::decimal(18,4) as price,
          timestamp '${lastDay} 12:00:00' - to_seconds(((${perConnection} - i) * ${days * 86400}) // ${perConnection}) as purchased_at,
          timezone('${c.timezone}', timezone('UTC', purchased_at))::date as local_date,
          printf('%03d-%07d-%07d', 100 + ${n} * 100 + (o % 100), (o * 7919) % 10000000, o % 10000000) as order_id
        from range(${perConnection}) as r(i)
      )
      select ${columns.map((col) => `(${values[col.name]})::${col.dataType} as "${col.name}"`).join(', ')}
      from lines`);
  }
  await wh.sql.run('checkpoint');
}
