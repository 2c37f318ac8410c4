// `npm run bench -- metrics`: what counting metrics costs (issue 58: no more than 2% on a daily run and on the API's
// p50). Both sides run in this one process on one open warehouse, taking turns (bench/paired.ts): with metrics, a
// `Metrics` registry with the state gauges records what `mktdata serve` records, and `/metrics` is scraped every
// second meanwhile (Prometheus' default interval is 15 s or more: a harsher load than a real one); without, none.
import { log, type Benchmark } from './benchmark.ts';
import { performance } from 'node:perf_hooks';
import { join } from 'node:path';
import { buildApp, type App } from '../src/api/app.ts';
import { createApiKey } from '../src/control/organizations.ts';
import { openWarehouse, type Warehouse } from '../src/db/warehouse.ts';
import { resolveHome } from '../src/home.ts';
import { Metrics, serverMetrics } from '../src/metrics/metrics.ts';
import { registerStateGauges, type StateSources } from '../src/metrics/state-gauges.ts';
import { findPipeline, loadPipelines } from '../src/pipelines/pipeline-config.ts';
import { planConnections } from '../src/pipelines/run-history.ts';
import { runPipeline } from '../src/pipelines/run-pipeline.ts';
import { addDay, nextDay, registerFiles } from './daily-files.ts';
import { clockAt } from './daily-run.ts';
import { medianRatio, takeTurns } from './paired.ts';
import { generate, lastDay } from './profit.ts';

/** An eighth of the daily bench's two years (about 625k order lines): the overhead is a ratio, not a size. */
const YEARS = 0.25;
const RUN_PAIRS = 15;
const API_PAIRS = 15;
/** Requests of one side's turn, one at a time; its p50 is the side's figure. */
const REQUESTS = 400;

/** Scrapes `scrape` every second until the returned stop is called (and waits for the scrape in flight). */
function scraping(scrape: () => Promise<unknown>): () => Promise<void> {
  let busy: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => (busy = busy.then(scrape)), 1000);
  return async () => {
    clearInterval(timer);
    await busy;
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** The daily runs with and without metrics: the profit pipeline's next-day windows rebuilt again, the same each time. */
async function benchRuns(wh: Warehouse, sources: StateSources, log: (m: string) => void) {
  const pipeline = findPipeline(loadPipelines(), 'profit');
  const now = clockAt(nextDay);
  // "Refresh now" for every connection: the day's routine windows again, with no file to land (the same work).
  const refresh = new Set((await planConnections(wh)).map((c) => c.id));
  const metrics = new Metrics();
  registerStateGauges(metrics.registry, sources);
  const run = async (on: boolean, attempt: number) => {
    const stop = on ? scraping(() => metrics.registry.metrics()) : async () => {};
    const start = performance.now();
    const summary = await runPipeline(wh, pipeline, {
      now,
      refresh,
      onLanded: on ? (r) => metrics.landed(r) : undefined,
    });
    const ms = performance.now() - start;
    if (on) metrics.pipelineRun(pipeline.name, ms / 1000, summary);
    await stop();
    if (summary.status !== 'success') throw new Error(`the run ended ${summary.status}`);
    log(
      `  daily run ${attempt} with${on ? '' : 'out'} metrics: ${ms.toFixed(0)} ms, ${summary.windows.length} windows`,
    );
    return ms;
  };
  return takeTurns(
    RUN_PAIRS,
    (n) => run(true, n),
    (n) => run(false, n),
    () => {},
  );
}

/** One side's turn at the API: REQUESTS answers of `GET /api/v1/util/organization` one after another; their p50. */
async function p50(url: string, key: string): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const start = performance.now();
    const res = await fetch(`${url}/api/v1/util/organization`, { headers: { 'service-api-key': key } });
    await res.text();
    if (res.status !== 200) throw new Error(`util/organization: ${res.status}`);
    times.push(performance.now() - start);
  }
  return median(times);
}

/** The API's p50 with and without metrics: two apps on the same warehouse, one of them counting and scraped. */
async function benchApi(wh: Warehouse, sources: StateSources, log: (m: string) => void) {
  const org = (await wh.db.selectFrom('control.organizations').select('id').executeTakeFirstOrThrow()).id;
  const key = await createApiKey(wh, org);
  const apps: App[] = [];
  try {
    const options = { wh, home: wh.home, logger: false, runActions: false, requestsPerSecond: 1e6 } as const;
    const on = await buildApp({ ...options, metrics: serverMetrics(sources, true) });
    apps.push(on);
    const off = await buildApp(options);
    apps.push(off);
    const [onUrl, offUrl] = [
      await on.listen({ port: 0, host: '127.0.0.1' }),
      await off.listen({ port: 0, host: '127.0.0.1' }),
    ];
    const side = async (url: string, scraped: boolean, attempt: number) => {
      const stop = scraped ? scraping(async () => (await fetch(`${url}/metrics`)).text()) : async () => {};
      const ms = await p50(url, key);
      await stop();
      log(`  API p50 ${attempt} with${scraped ? '' : 'out'} metrics: ${ms.toFixed(3)} ms`);
      return ms;
    };
    return await takeTurns(
      API_PAIRS,
      (n) => side(onUrl, true, n),
      (n) => side(offUrl, false, n),
      () => {},
    );
  } finally {
    for (const app of apps) await app.close();
  }
}

/**
 * What the ratios are made of, measured apart (on a busy machine the paired ratios spread by more than 2 %): one
 * scrape of a registry with the state gauges (median of 20), and recording one HTTP answer (the mean of 100,000).
 */
async function profile(sources: StateSources) {
  const metrics = serverMetrics(sources, true)!;
  const scrapes: number[] = [];
  for (let i = 0; i < 21; i++) {
    const start = performance.now();
    await metrics.registry.metrics();
    if (i > 0) scrapes.push(performance.now() - start);
  }
  const start = performance.now();
  for (let i = 0; i < 100_000; i++) metrics.httpRequest('GET', '/api/v1/util/organization', 200, 0.002);
  return { scrapeMs: median(scrapes), recordUs: ((performance.now() - start) * 1000) / 100_000 };
}

/** The metrics bench: a generated history, its first run and next day, then the paired runs and API turns. */
export async function benchMetrics(workDir: string, log: (message: string) => void) {
  const home = resolveHome(join(workDir, 'home'));
  const wh = await openWarehouse(home, 'bench', { create: true });
  try {
    let start = performance.now();
    await generate(wh, { files: true, years: YEARS });
    await registerFiles(wh);
    const pipeline = findPipeline(loadPipelines(), 'profit');
    await runPipeline(wh, pipeline, { now: clockAt(lastDay) });
    await addDay(wh, nextDay);
    await registerFiles(wh);
    await runPipeline(wh, pipeline, { now: clockAt(nextDay) });
    const setupMs = performance.now() - start;
    log(`  metrics: history of ${YEARS} years, its first run and next day in ${(setupMs / 1000).toFixed(0)} s`);
    const sources: StateSources = { wh, home, pipelines: loadPipelines() };
    start = performance.now();
    const [runsOn, runsOff] = await benchRuns(wh, sources, log);
    const runsMs = performance.now() - start;
    start = performance.now();
    const [apiOn, apiOff] = await benchApi(wh, sources, log);
    const apiMs = performance.now() - start;
    return {
      setupMs,
      profile: await profile(sources),
      runs: { on: runsOn, off: runsOff, ratio: medianRatio(runsOn, runsOff), ms: runsMs },
      api: { on: apiOn, off: apiOff, ratio: medianRatio(apiOn, apiOff), ms: apiMs },
    };
  } finally {
    await wh.close();
  }
}

/** `npm run bench -- metrics`: the overhead of counting metrics, on a daily run and on the API's p50 */
export const metricsBenchmark: Benchmark = {
  name: 'metrics',
  async run(workDir) {
    const r = await benchMetrics(workDir, log);
    const target = 1.02; // docs/benchmarks.md: metrics
    const judge = (ratio: number) => (ratio > target ? '  ← above target' : '');
    const list = (values: number[], digits: number) => values.map((v) => v.toFixed(digits)).join(', ');
    return {
      steps: [
        { step: `metrics: ${YEARS}-year history, first run and next day (setup)`, ms: r.setupMs, rows: 1 },
        { step: `metrics: ${RUN_PAIRS} pairs of daily runs, with and without`, ms: r.runs.ms, rows: 2 * RUN_PAIRS },
        {
          step: `metrics: ${API_PAIRS} pairs of ${REQUESTS} API requests, with and without`,
          ms: r.api.ms,
          rows: 2 * API_PAIRS * REQUESTS,
        },
      ],
      summary: [
        `metrics: daily run with / without metrics (scraped every second), the median of ${RUN_PAIRS} paired ratios = ${r.runs.ratio.toFixed(3)}x (target ≤ ${target}x); with ${list(r.runs.on, 0)} ms, without ${list(r.runs.off, 0)} ms${judge(r.runs.ratio)}`,
        `metrics: API p50 (GET /api/v1/util/organization) with / without metrics, the median of ${API_PAIRS} paired ratios = ${r.api.ratio.toFixed(3)}x (target ≤ ${target}x); with ${list(r.api.on, 3)} ms, without ${list(r.api.off, 3)} ms${judge(r.api.ratio)}`,
        `metrics: one scrape (every gauge read) ${r.profile.scrapeMs.toFixed(1)} ms, the median of 20; recording one HTTP answer ${r.profile.recordUs.toFixed(2)} µs, the mean of 100,000`,
      ],
    };
  },
};
