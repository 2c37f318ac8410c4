import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openWarehouse, type Warehouse } from '../src/db/warehouse.ts';
import { resolveHome } from '../src/home.ts';
import type { ModelResult } from '../src/models/run-models.ts';
import { findPipeline, loadPipelines, type Pipeline } from '../src/pipelines/pipeline-config.ts';
import { addDays, runPipeline, type RunSummary } from '../src/pipelines/run-pipeline.ts';
import { publish } from '../src/publish/publish.ts';
import { generate, lastDay, sizes } from './profit.ts';

/** The raw tables the generator fills, with the source that lands each. */
const rawSources: Record<string, string> = {
  'raw.get_flat_file_all_orders_data_by_order_date_general': 'GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL',
  'raw.get_v2_settlement_report_data_flat_file_v2': 'GET_V2_SETTLEMENT_REPORT_DATA_FLAT_FILE_V2',
  'raw.get_sales_and_traffic_report': 'GET_SALES_AND_TRAFFIC_REPORT',
  'raw.ads_sp_advertised_product': 'ads.spAdvertisedProduct',
  'raw.ads_sb_campaigns': 'ads.sbCampaigns',
  'raw.ads_sb_purchased_product': 'ads.sbPurchasedProduct',
  'raw.ads_sp_targeting': 'ads.spTargeting',
};

/** The day after the generated two years. */
export const nextDay = addDays(lastDay, 1);

/** 10:30 in Los Angeles (the first connection's zone; Berlin is on the same date then) on `date`, after the 10am refresh. */
export const clockAt = (date: string) => {
  const utc = Date.parse(`${date}T10:30:00Z`);
  const offset = Date.parse(new Date(utc).toLocaleString('en-US', { timeZone: 'UTC' })) - Date.parse(new Date(utc).toLocaleString('en-US', { timeZone: 'America/Los_Angeles' }));
  return new Date(utc + offset);
};

/** One timed pipeline run. */
export interface TimedRun {
  summary: RunSummary;
  /** wall time of the run, including the checkpoint that persists it */
  wholeMs: number;
  /** the sum of its models' times (ModelResult.ms) */
  modelsMs: number;
  results: ModelResult[];
  /** files the run took in */
  files: number;
}

export interface DailyRunBenchResult {
  generateMs: number;
  rawRows: number;
  full: TimedRun;
  /** raw rows of the next day's files */
  dayRows: number;
  daily: TimedRun;
  /** a publish that copies every catalog table, on its own (the daily run's publish starts from the last snapshot) */
  fullPublishMs: number;
}

/**
 * `years` of history (bench/profit.ts's generator, as the files a pipeline lands; default two), a first run of the
 * profit pipeline (INITIAL 730 days: the full build), then the next day's files and the run that takes them in.
 */
export async function benchDailyRun(workDir: string, log: (message: string) => void, years = 2): Promise<DailyRunBenchResult> {
  const wh = await openWarehouse(resolveHome(join(workDir, 'home')), 'bench', { create: true });
  try {
    const pipeline = findPipeline(loadPipelines(), 'profit');
    let start = performance.now();
    await generate(wh, { files: true, years });
    await registerFiles(wh);
    const generateMs = performance.now() - start;
    const rawRows = await countRaw(wh);
    log(`  generated ${rawRows} raw rows of ${await count(wh, 'select count(*) from control.landed_files')} files in ${generateMs.toFixed(0)} ms`);

    const full = await timedRun(wh, pipeline, clockAt(lastDay), 'full', log);
    const before = await countRaw(wh);
    await addDay(wh);
    await registerFiles(wh);
    const dayRows = (await countRaw(wh)) - before;
    log(`  next day (${nextDay}): ${dayRows} raw rows`);
    const daily = await timedRun(wh, pipeline, clockAt(nextDay), 'daily', log);

    log(`  daily run, models by time:`);
    for (const r of [...daily.results].sort((a, b) => b.ms - a.ms)) log(`    ${r.model.padEnd(48)} ${String(r.ms).padStart(7)} ms  ${r.rows ?? ''} rows`);

    // Without a manifest to start from, a publish copies every table.
    rmSync(join(wh.home.publishedDir, 'manifest.json'));
    start = performance.now();
    await publish(wh);
    const fullPublishMs = performance.now() - start;
    log(`  one publish of every table, on its own: ${fullPublishMs.toFixed(0)} ms`);
    return { generateMs, rawRows, full, dayRows, daily, fullPublishMs };
  } finally {
    await wh.close();
  }
}

export async function timedRun(wh: Warehouse, pipeline: Pipeline, now: Date, label: string, log: (message: string) => void): Promise<TimedRun> {
  const results: ModelResult[] = [];
  const onResult = (r: ModelResult) => {
    results.push(r);
    log(`    ${label} ${r.model.padEnd(48)} ${String(r.ms).padStart(7)} ms  ${r.status === 'success' ? '' : `${r.status}: ${r.error}`}`);
  };
  const files = await count(wh, `select count(*) from control.landed_files where id not in (select file_id from control.pipeline_files where pipeline = 'profit')`);
  await wh.sql.run('checkpoint');
  const start = performance.now();
  const summary = await runPipeline(wh, pipeline, { now, onResult });
  await wh.sql.run('checkpoint');
  const wholeMs = performance.now() - start;
  if (summary.status !== 'success') {
    const failed = summary.windows.filter((w) => w.status !== 'success');
    throw new Error(`${label} run failed: ${failed.slice(0, 5).map((w) => `${w.table} ${w.from}..${w.to}: ${w.error}`).join('; ')}`);
  }
  const modelsMs = results.reduce((sum, r) => sum + r.ms, 0);
  const kinds = [...new Set(summary.windows.map((w) => `${w.kind}${w.stage ? `/${w.stage}` : ''}`))].join(', ');
  log(`  ${label} run at ${now.toISOString()}: ${files} new files, ${summary.windows.length} windows (${kinds}); ${wholeMs.toFixed(0)} ms, models ${modelsMs} ms`);
  if (label !== 'full') for (const w of summary.windows) log(`    window ${w.table} ${w.connectionId.slice(-4)} ${w.kind} ${w.from ?? 'whole'}..${w.to ?? ''} ${w.rows ?? ''} rows`);
  return { summary, wholeMs, modelsMs, results, files };
}


/**
 * Records the generated files in control.landed_files, as landing would have: one row per new `_file_id`, landed when
 * its first row was (a settlement's summary row is generated after its amount lines; no raw row is older than its file).
 */
export async function registerFiles(wh: Warehouse): Promise<void> {
  for (const [table, source] of Object.entries(rawSources)) {
    await wh.sql.run(`
      insert into control.landed_files
      select _file_id, any_value(_connection_id), '${source}', sha256(_file_id), _file_id, 0, count(*), min(_landed_at)
      from ${table}
      where _file_id not in (select id from control.landed_files)
      group by _file_id`);
  }
}

/**
 * A day's files per connection (by default the day after the generated two years): an orders report of the last 28
 * days (the lines bought in the 27 days before, those of the last two days unshipped now shipped, and the day's new
 * orders, copies of the day before's), a settlement of the newly shipped lines, and a day of traffic and of each ads
 * report (copies of the day before's rows). (The generator leaves every 20th order unshipped at any age; an order
 * ships within days, so the older ones stay as they were, like the rest of the 27 days.)
 */
export async function addDay(wh: Warehouse, day: string = nextDay): Promise<void> {
  const previous = addDays(day, -1);
  const orders = 'raw.get_flat_file_all_orders_data_by_order_date_general';
  const cutoff = `timestamptz '${previous} 12:00:00+00'`;
  const shippedAt = `timestamptz '${day} 06:00:00+00'`;
  const file = (source: string) => `'${source}/' || _connection_id || '/${day}'`;
  await wh.sql.run(`
    insert into ${orders} by name
    with current as (
      select * from ${orders}
      where purchase_date > ${cutoff} - interval 27 day
      qualify row_number() over (partition by _connection_id, amazon_order_id, sku order by _landed_at desc, _line_number) = 1
    ),
    delivered as (
      select * exclude (shipping) replace (
        if(shipping, 'Shipped', order_status) as order_status,
        if(shipping and item_status = 'Unshipped', 'Shipped', item_status) as item_status,
        if(shipping, ${shippedAt}, last_updated_date) as last_updated_date)
      from (select *, order_status = 'Unshipped' and purchase_date > ${cutoff} - interval 2 day as shipping from current)
      union all by name
      select * replace (amazon_order_id || '-${day}' as amazon_order_id, purchase_date + interval 1 day as purchase_date, last_updated_date + interval 1 day as last_updated_date)
      from current
      where purchase_date > ${cutoff} - interval 1 day
    )
    select * replace (${file('orders')} as _file_id, row_number() over (partition by _connection_id order by purchase_date, _line_number) as _line_number, now() as _landed_at)
    from delivered`);
  // The settlement of the lines that shipped since: principal, commission and FBA fee, VAT for EUR; then its summary line.
  const settlements = 'raw.get_v2_settlement_report_data_flat_file_v2';
  await wh.sql.run(`
    insert into ${settlements} by name
    with shipped as (
      select * from ${orders}
      where _file_id = ${file('orders')} and last_updated_date = ${shippedAt}
    ),
    lines as (
      select shipped.*, kind from shipped, (values ('Principal'), ('Commission'), ('FBAPerUnitFulfillmentFee'), ('Tax')) as k(kind)
      where kind <> 'Tax' or currency = 'EUR'
    )
    select
      'S' || _connection_id[-4:] || '-${day}' as settlement_id,
      'Order' as transaction_type,
      amazon_order_id as order_id,
      if(kind in ('Principal', 'Tax'), 'ItemPrice', 'ItemFees') as amount_type,
      kind as amount_description,
      case kind when 'Principal' then item_price when 'Tax' then item_tax when 'Commission' then -round(item_price * 0.15, 2) else -3.22 end as amount,
      'AFN' as fulfillment_id,
      ${shippedAt} as posted_date_time,
      sku,
      quantity as quantity_purchased,
      'settlement/' || _connection_id || '/' || settlement_id as _file_id,
      row_number() over (partition by _connection_id) as _line_number, now() as _landed_at, _connection_id, _marketplace_id
    from lines`);
  await wh.sql.run(`
    insert into ${settlements} by name
    select settlement_id, sum(amount) as total_amount, any_value(_file_id) as _file_id, 0 as _line_number, now() as _landed_at, _connection_id, any_value(_marketplace_id) as _marketplace_id
    from ${settlements}
    where settlement_id like '%-${day}'
    group by settlement_id, _connection_id`);
  const daily: Record<string, string> = {
    'raw.get_sales_and_traffic_report': 'traffic',
    'raw.ads_sp_advertised_product': 'ads.spAdvertisedProduct',
    'raw.ads_sb_campaigns': 'ads.sbCampaigns',
    'raw.ads_sb_purchased_product': 'ads.sbPurchasedProduct',
    'raw.ads_sp_targeting': 'ads.spTargeting',
  };
  for (const [table, source] of Object.entries(daily)) {
    await wh.sql.run(`
      insert into ${table} by name
      select * replace (date '${day}' as date, ${file(source)} as _file_id, now() as _landed_at)
      from ${table}
      where date = date '${previous}'`);
  }
}

async function countRaw(wh: Warehouse): Promise<number> {
  let rows = 0;
  for (const table of Object.keys(rawSources)) rows += await count(wh, `select count(*) from ${table}`);
  return rows;
}

async function count(wh: Warehouse, query: string): Promise<number> {
  return Number((await wh.sql.runAndReadAll(query)).getRowsJson()[0]?.[0] ?? 0);
}

/**
 * The daily-run bench on each history of `yearsList` (`npm run bench -- daily --years 2,4`): table lines and summary
 * lines, with how much slower the next day's run is on the longest history than on the shortest.
 */
export async function dailyRunReport(workDir: string, log: (message: string) => void, yearsList: number[]) {
  // `--years 2,4`: the same bench on each history, and how much slower the next day's run is on the longest.
  const runs: { years: number; r: Awaited<ReturnType<typeof benchDailyRun>> }[] = [];
  for (const years of yearsList) runs.push({ years, r: await benchDailyRun(join(workDir, `${years}y`), log, years) });
  const target = 0.03;
  const steps = runs.flatMap(({ years, r }) => [
    { step: `${years} years: generate raw data as ${r.full.files} landed files (SQL)`, ms: r.generateMs, rows: r.rawRows },
    { step: `${years} years: first profit pipeline run (INITIAL 730 days), whole run`, ms: r.full.wholeMs, rows: r.rawRows },
    { step: `${years} years: first profit pipeline run, models only`, ms: r.full.modelsMs, rows: r.rawRows },
    { step: `${years} years: next day's run (${r.daily.files} new files), whole run`, ms: r.daily.wholeMs, rows: r.dayRows },
    { step: `${years} years: next day's run, models only`, ms: r.daily.modelsMs, rows: r.dayRows },
    { step: `${years} years: publish copying every catalog table (once, on its own)`, ms: r.fullPublishMs, rows: r.rawRows },
  ]);
  const summary = runs.flatMap(({ years, r }) => {
    const models = r.daily.modelsMs / r.full.modelsMs;
    const whole = r.daily.wholeMs / r.full.wholeMs;
    const top = [...r.daily.results].sort((a, b) => b.ms - a.ms).slice(0, 3).map((m) => `${m.model} ${(m.ms / 1000).toFixed(1)} s`).join(', ');
    return [
      `daily run on ${years} years (${(sizes.orderLines * years) / 2e6}M order lines, ${(sizes.settlementRows * years) / 2e6}M settlement rows, ${(sizes.trafficRows * years) / 2e6}M traffic rows): ` +
        `whole next-day run (landing, plan, models, publish) ${(r.daily.wholeMs / 1000).toFixed(1)} s / first run ${(r.full.wholeMs / 1000).toFixed(1)} s = ${(whole * 100).toFixed(1)}% (target ≤ 3%)` +
        (whole > target ? '  ← above target' : ''),
      `daily run on ${years} years: models ${(r.daily.modelsMs / 1000).toFixed(1)} s / ${(r.full.modelsMs / 1000).toFixed(1)} s = ${(models * 100).toFixed(1)}%; ` +
        `its publish starts from the last snapshot (one copying every table takes ${(r.fullPublishMs / 1000).toFixed(1)} s); slowest models: ${top}`,
    ];
  });
  if (runs.length > 1) {
    const [first, last] = [runs[0]!, runs.at(-1)!];
    const ratio = last.r.daily.wholeMs / first.r.daily.wholeMs;
    summary.push(`daily run, next day's whole run on ${last.years} years / on ${first.years} years = ${ratio.toFixed(2)}x (target ≤ 1.10x)` + (ratio > 1.1 ? '  ← above target' : ''));
  }
  return { steps, summary };
}
