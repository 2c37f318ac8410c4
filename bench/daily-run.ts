import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openWarehouse, type Warehouse } from '../src/db/warehouse.ts';
import { resolveHome } from '../src/home.ts';
import type { ModelResult } from '../src/models/run-models.ts';
import { findPipeline, loadPipelines, type Pipeline } from '../src/pipelines/pipeline-config.ts';
import { addDays, runPipeline, type RunSummary } from '../src/pipelines/run-pipeline.ts';
import { publish } from '../src/publish/publish.ts';
import { addDay, count, countRaw, registerFiles } from './daily-files.ts';
import { medianRatio, settle } from './paired.ts';
import { generate, lastDay, sizes } from './profit.ts';

/**
 * 10:30 in Los Angeles (the first connection's zone; Berlin is on the same date then) on `date`, after the 10am
 * refresh.
 */
export const clockAt = (date: string) => {
  const utc = Date.parse(`${date}T10:30:00Z`);
  const offset =
    Date.parse(new Date(utc).toLocaleString('en-US', { timeZone: 'UTC' })) -
    Date.parse(new Date(utc).toLocaleString('en-US', { timeZone: 'America/Los_Angeles' }));
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
  /** bytes the process sent to storage during the run (Linux's /proc/self/io; null elsewhere) */
  writtenBytes: number | null;
}

/** The bytes this process has sent to storage so far, or null where /proc/self/io is missing. */
function bytesWritten(): number | null {
  try {
    return Number(readFileSync('/proc/self/io', 'utf8').match(/^write_bytes: (\d+)$/m)![1]);
  } catch {
    return null;
  }
}

/**
 * Days run after the history; the median one is reported. One day's time moves by a fifth or more from day to day
 * (three days gave medians whose four-years/two-years ratio moved between 1.03 and 1.13 from run to run; seven days,
 * between 1.00 and 1.25). Day 1 (the first after the full build) and day 7 (the week's vacuum) are not ordinary days:
 * nine days leave seven ordinary ones, for about 20 s more than seven.
 */
const NEXT_DAYS = 9;

/** The run of one day after the history, with the raw rows of that day's files. */
export type DayRun = TimedRun & { dayRows: number };

export interface DailyRunBenchResult {
  years: number;
  generateMs: number;
  rawRows: number;
  full: TimedRun;
  /** the runs of the days after the history, in day order */
  days: DayRun[];
  /** the median of `days` by whole time */
  daily: DayRun;
  /** a publish that copies every catalog table, on its own (the daily run's publish starts from the last snapshot) */
  fullPublishMs: number;
}

const openHome = (dir: string, create = false) => openWarehouse(resolveHome(join(dir, 'home')), 'bench', { create });

/** The history's warehouse in `dir`, opened for one step and closed after it. */
async function inHome<T>(dir: string, step: (wh: Warehouse) => Promise<T>, create = false): Promise<T> {
  const wh = await openHome(dir, create);
  try {
    return await step(wh);
  } finally {
    await wh.close();
  }
}

/**
 * Each history of `yearsList` (bench/profit.ts's generator, as the files a pipeline lands) with a first run of the
 * profit pipeline (INITIAL 730 days: the full build); then, day after day, each history's next day: that day's files
 * and the run that takes them in. The histories take turns day by day, so that a slower spell of the machine falls on
 * both, and go first on alternate days, so that neither always runs in the other's aftermath; the disks are synced
 * before each run (takeTurns' reasons). Their warehouses stay open from day to day, as `mktdata serve` keeps its own.
 */
export async function benchDailyRuns(
  workDir: string,
  log: (message: string) => void,
  yearsList: number[],
): Promise<DailyRunBenchResult[]> {
  const pipeline = findPipeline(loadPipelines(), 'profit');
  const histories = [];
  for (const years of yearsList) {
    const dir = join(workDir, `${years}y`);
    const first = await inHome(
      dir,
      async (wh) => {
        const start = performance.now();
        await generate(wh, { files: true, years });
        await registerFiles(wh);
        const generateMs = performance.now() - start;
        const rawRows = await countRaw(wh);
        log(
          `  ${years} years: generated ${rawRows} raw rows of ${await count(wh, 'select count(*) from control.landed_files')} files in ${generateMs.toFixed(0)} ms`,
        );
        return { generateMs, rawRows, full: await timedRun(wh, pipeline, clockAt(lastDay), 'full', log) };
      },
      true,
    );
    histories.push({ years, dir, ...first, days: [] as DayRun[] });
  }
  const open: Warehouse[] = [];
  try {
    for (const h of histories) open.push(await openHome(h.dir));
    for (let i = 1; i <= NEXT_DAYS; i++) {
      const day = addDays(lastDay, i);
      const turns = [...histories.entries()];
      for (const [n, h] of i % 2 === 1 ? turns : turns.reverse()) {
        const wh = open[n]!;
        const before = await countRaw(wh);
        await addDay(wh, day);
        await registerFiles(wh);
        const dayRows = (await countRaw(wh)) - before;
        log(`  ${h.years} years, day ${i} after the history (${day}): ${dayRows} raw rows`);
        settle();
        h.days.push({ ...(await timedRun(wh, pipeline, clockAt(day), `day ${i}`, log)), dayRows });
      }
    }
  } finally {
    for (const wh of open) await wh.close();
  }
  const results: DailyRunBenchResult[] = [];
  for (const { dir, ...h } of histories) {
    const daily = [...h.days].sort((a, b) => a.wholeMs - b.wholeMs)[Math.floor(NEXT_DAYS / 2)]!;
    log(`  ${h.years} years, the median day's models by time:`);
    for (const r of [...daily.results].sort((a, b) => b.ms - a.ms))
      log(`    ${r.model.padEnd(48)} ${String(r.ms).padStart(7)} ms  ${r.rows ?? ''} rows`);
    // Without a manifest or a spare to start from, a publish copies every table.
    const fullPublishMs = await inHome(dir, async (wh) => {
      for (const file of ['manifest.json', '.spare.duckdb']) rmSync(join(wh.home.publishedDir, file), { force: true });
      const start = performance.now();
      await publish(wh);
      return performance.now() - start;
    });
    log(`  ${h.years} years, one publish of every table, on its own: ${fullPublishMs.toFixed(0)} ms`);
    results.push({ ...h, daily, fullPublishMs });
  }
  return results;
}

const megabytes = (bytes: number | null) => (bytes === null ? '? MB' : `${(bytes / 1e6).toFixed(0)} MB`);

export async function timedRun(
  wh: Warehouse,
  pipeline: Pipeline,
  now: Date,
  label: string,
  log: (message: string) => void,
): Promise<TimedRun> {
  const results: ModelResult[] = [];
  const onResult = (r: ModelResult) => {
    results.push(r);
    log(
      `    ${label} ${r.model.padEnd(48)} ${String(r.ms).padStart(7)} ms  ${r.status === 'success' ? '' : `${r.status}: ${r.error}`}`,
    );
  };
  const files = await count(
    wh,
    `select count(*) from control.landed_files where id not in (select file_id from control.pipeline_files where pipeline = 'profit')`,
  );
  await wh.sql.run('checkpoint');
  const written = bytesWritten();
  const start = performance.now();
  const summary = await runPipeline(wh, pipeline, { now, onResult });
  await wh.sql.run('checkpoint');
  const wholeMs = performance.now() - start;
  const writtenNow = bytesWritten();
  const writtenBytes = written === null || writtenNow === null ? null : writtenNow - written;
  if (summary.status !== 'success') {
    const failed = summary.windows.filter((w) => w.status !== 'success');
    throw new Error(
      `${label} run failed: ${failed
        .slice(0, 5)
        .map((w) => `${w.table} ${w.from}..${w.to}: ${w.error}`)
        .join('; ')}`,
    );
  }
  const modelsMs = results.reduce((sum, r) => sum + r.ms, 0);
  const kinds = [...new Set(summary.windows.map((w) => `${w.kind}${w.stage ? `/${w.stage}` : ''}`))].join(', ');
  log(
    `  ${label} run at ${now.toISOString()}: ${files} new files, ${summary.windows.length} windows (${kinds}); ${wholeMs.toFixed(0)} ms, models ${modelsMs} ms, ${megabytes(writtenBytes)} written`,
  );
  if (label !== 'full')
    for (const w of summary.windows)
      log(
        `    window ${w.table} ${w.connectionId.slice(-4)} ${w.kind} ${w.from ?? 'whole'}..${w.to ?? ''} ${w.rows ?? ''} rows`,
      );
  return { summary, wholeMs, modelsMs, results, files, writtenBytes };
}

/**
 * The daily-run bench on each history of `yearsList` (`npm run bench -- daily --years 2,4`): table lines and summary
 * lines, with how much slower the next day's run is on the longest history than on the shortest.
 */
export async function dailyRunReport(workDir: string, log: (message: string) => void, yearsList: number[]) {
  // `--years 2,4`: the same bench on each history, and how much slower the next day's run is on the longest.
  const runs = (await benchDailyRuns(workDir, log, yearsList)).map((r) => ({ years: r.years, r }));
  const target = 0.03;
  const steps = runs.flatMap(({ years, r }) => [
    {
      step: `${years} years: generate raw data as ${r.full.files} landed files (SQL)`,
      ms: r.generateMs,
      rows: r.rawRows,
    },
    {
      step: `${years} years: first profit pipeline run (INITIAL 730 days), whole run`,
      ms: r.full.wholeMs,
      rows: r.rawRows,
    },
    { step: `${years} years: first profit pipeline run, models only`, ms: r.full.modelsMs, rows: r.rawRows },
    ...r.days.map((d, i) => ({
      step: `${years} years: day ${i + 1} after the history (${d.files} new files), whole run`,
      ms: d.wholeMs,
      rows: d.dayRows,
    })),
    {
      step: `${years} years: next day's run (median of ${r.days.length} days), whole run`,
      ms: r.daily.wholeMs,
      rows: r.daily.dayRows,
    },
    { step: `${years} years: next day's run (median), models only`, ms: r.daily.modelsMs, rows: r.daily.dayRows },
    {
      step: `${years} years: publish copying every catalog table (once, on its own)`,
      ms: r.fullPublishMs,
      rows: r.rawRows,
    },
  ]);
  const summary = runs.flatMap(({ years, r }) => {
    const models = r.daily.modelsMs / r.full.modelsMs;
    const whole = r.daily.wholeMs / r.full.wholeMs;
    const top = [...r.daily.results]
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 3)
      .map((m) => `${m.model} ${(m.ms / 1000).toFixed(1)} s`)
      .join(', ');
    return [
      `daily run on ${years} years (${(sizes.orderLines * years) / 2e6}M order lines, ${(sizes.settlementRows * years) / 2e6}M settlement rows, ${(sizes.trafficRows * years) / 2e6}M traffic rows): ` +
        `whole next-day run (plan, models, publish, its files landed before it; median of ${r.days.map((d) => (d.wholeMs / 1000).toFixed(1)).join(', ')} s) ${(r.daily.wholeMs / 1000).toFixed(1)} s / first run ${(r.full.wholeMs / 1000).toFixed(1)} s = ${(whole * 100).toFixed(1)}% (target ≤ 3%)` +
        (whole > target ? '  ← above target' : ''),
      `daily run on ${years} years: models ${(r.daily.modelsMs / 1000).toFixed(1)} s / ${(r.full.modelsMs / 1000).toFixed(1)} s = ${(models * 100).toFixed(1)}%; ` +
        `its publish starts from the spare snapshot (one copying every table takes ${(r.fullPublishMs / 1000).toFixed(1)} s); ` +
        `written to disk ${r.days.map((d) => megabytes(d.writtenBytes)).join(', ')} a day; slowest models: ${top}`,
    ];
  });
  if (runs.length > 1) {
    const [first, last] = [runs[0]!, runs.at(-1)!];
    // Each day's two runs ran back to back; the median of their ratios is not moved by a slower spell of the machine
    // that falls on one history's median day only, as the ratio of the two medians is.
    const ratios = last.r.days.map((d, i) => d.wholeMs / first.r.days[i]!.wholeMs);
    const ratio = medianRatio(
      last.r.days.map((d) => d.wholeMs),
      first.r.days.map((d) => d.wholeMs),
    );
    summary.push(
      `daily run, next day's whole run on ${last.years} years / on ${first.years} years, median of each day's ratio (${ratios.map((r) => r.toFixed(2)).join(', ')}) = ${ratio.toFixed(2)}x (target ≤ 1.10x)` +
        (ratio > 1.1 ? '  ← above target' : '') +
        `; the ratio of the two median days: ${(last.r.daily.wholeMs / first.r.daily.wholeMs).toFixed(2)}x`,
    );
  }
  return { steps, summary };
}
