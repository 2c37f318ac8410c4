// `npm run bench`: runs each benchmark in a temporary work dir under bench/.data/ and prints a table.
// To add a benchmark: write `bench/<name>.ts` exporting a `Benchmark` (bench/benchmark.ts) whose `run(workDir)` turns
// its result into table rows and summary lines, and list it in `benchmarks` below.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { benchDataDir, benchIngestOrders } from './ingest-orders.ts';
import { benchExports } from './exports.ts';
import { dailyRunReport } from './daily-run.ts';
import { benchProfit, sizes } from './profit.ts';
import { benchFetch, SPEED } from './fetch.ts';
import { startupBenchmark } from './startup.ts';
import { benchWebhooks } from './webhooks.ts';
import { benchScale } from './scale.ts';
import { benchConnections } from './connections.ts';
import { consoleBenchmark } from './console.ts';
import { arrivalBenchmark } from './arrival.ts';
import { metricsBenchmark } from './metrics.ts';
import { mcpBenchmark } from './mcp.ts';
import { log, type Benchmark, type Step } from './benchmark.ts';
import { availableParallelism } from 'node:os';

const benchmarks: Benchmark[] = [
  {
    name: 'ingest orders',
    async run(workDir) {
      const r = await benchIngestOrders(workDir, { log });
      const target = 1.5; // docs/benchmarks.md: ingest
      return {
        steps: [
          { step: `bare read_csv 1M lines → table (best of ${r.attempts})`, ms: r.bareMs, rows: r.lines },
          { step: `mktdata landFile 1M lines (best of ${r.attempts})`, ms: r.mktdataMs, rows: r.lines },
        ],
        summary: [
          `ingest orders 1M lines: mktdata / bare read_csv = ${r.ratio.toFixed(2)}x, the median of ${r.attempts} paired attempts (target ≤ ${target.toFixed(2)}x)` +
            (r.ratio > target ? '  ← above target' : ''),
        ],
      };
    },
  },
  {
    name: 'profit tables',
    async run(workDir) {
      const r = await benchProfit(workDir, log);
      const ratio = r.modelsMs / r.directMs;
      const windowShare = r.windowMs / r.modelsMs;
      const scale = `${sizes.orderLines / 1e6}M order lines, ${sizes.settlementRows / 1e6}M settlement rows, ${sizes.trafficRows / 1e6}M traffic rows`;
      return {
        steps: [
          {
            step: 'generate raw data (SQL)',
            ms: r.generateMs,
            rows: sizes.orderLines + sizes.settlementRows + sizes.trafficRows,
          },
          {
            step: 'every model, full build',
            ms: r.upstreamMs,
            rows: sizes.orderLines + sizes.settlementRows + sizes.trafficRows,
          },
          { step: 'profit tables through mktdata (full)', ms: r.modelsMs, rows: r.profitRows },
          { step: 'profit tables, same SQL run directly', ms: r.directMs, rows: r.profitRows },
          { step: 'profit tables, 28-day window rebuild', ms: r.windowMs, rows: r.profitRows },
        ],
        summary: [
          `profit tables on ${scale}: mktdata / direct SQL = ${ratio.toFixed(2)}x (target ≤ 1.30x)` +
            (ratio > 1.3 ? '  ← above target' : ''),
          `profit tables 28-day window rebuild / full build = ${(windowShare * 100).toFixed(1)}% (target ≤ 10%)` +
            (windowShare > 0.1 ? '  ← above target' : ''),
          `profit tables: rows differing from the reference SQL's second derivation of rules 1-12: ${r.differences} (target 0)` +
            (r.differences > 0 ? '  ← above target' : ''),
        ],
      };
    },
  },
  {
    name: 'daily run',
    run: (workDir) => dailyRunReport(workDir, log, options.years),
  },
  {
    name: 'exports',
    async run(workDir) {
      const r = await benchExports(workDir, log);
      const target = 1.1; // docs/benchmarks.md: exports
      const rows = `${r.rows / 1e6}M rows`;
      const rate = (rows: number, ms: number) =>
        `${Math.round((rows * 1000) / ms / 1000).toLocaleString('en-US')}k rows/s`;
      return {
        steps: [
          { step: `generate ${rows} of mkt_order_items_with_cogs (SQL)`, ms: r.generateMs, rows: r.rows },
          { step: `publish ${rows}`, ms: r.publishMs, rows: r.rows },
          ...r.formats.flatMap((f) => [
            {
              step: `${f.format} export path ${rows}, createExport → COMPLETED (best of ${r.attempts})`,
              ms: f.exportMs,
              rows: f.rows,
            },
            {
              step: `${f.format} bare DuckDB COPY (select * from the table) ${rows} (best of ${r.attempts})`,
              ms: f.bareMs,
              rows: f.rows,
            },
          ]),
        ],
        summary: r.formats.map(
          (f) =>
            `${f.format} export of ${rows}: export path ${(f.exportMs / 1000).toFixed(1)} s (${rate(f.rows, f.exportMs)}), ` +
            `bare COPY ${(f.bareMs / 1000).toFixed(1)} s (${rate(f.rows, f.bareMs)}), best of ${r.attempts} each; ` +
            `the median of the paired attempts' ratios ${f.ratio.toFixed(2)}x (target ≤ ${target.toFixed(2)}x)` +
            (f.ratio > target ? '  ← above target' : ''),
        ),
      };
    },
  },
  {
    name: 'fetch',
    async run() {
      const r = await benchFetch(log);
      const ratio = r.fetchClockMs / r.minimum;
      const landing = r.landAndBuildMs / r.handMs;
      const hours = (ms: number) => `${(ms / 3_600_000).toFixed(2)} h`;
      return {
        steps: [
          {
            step: `live first load (profit, two years, one seller), real time at ${SPEED}x`,
            ms: r.runRealMs,
            rows: r.documents,
          },
          { step: 'its landing of the fetched documents (real time)', ms: r.landingMs, rows: r.documents },
          {
            step: 'its first stage built and published while the history downloaded (real time)',
            ms: r.besideMs,
            rows: r.documents,
          },
          {
            step: 'its landing and build (real time outside fetching + landing + fetch waiting on the build)',
            ms: r.landAndBuildMs,
            rows: r.documents,
          },
          { step: 'the same documents landed by hand: landing', ms: r.handLandingMs, rows: r.documents },
          { step: 'the same documents landed by hand: landing and run', ms: r.handMs, rows: r.documents },
        ],
        summary: [
          ...r.phases.map(
            (p, i) =>
              `fetch phase ${i + 1}: ${p.requests} requests, ${hours(p.clockMs)} on the clock (its landing ${(p.landingMs / 1000).toFixed(1)} s at real speed); the rate limits allow ${hours(p.minimum.ms)} at least (${p.minimum.operation}: ${p.minimum.requests} requests)`,
          ),
          `fetch: ${hours(r.fetchClockMs)} on the clock / ${hours(r.minimum)} minimum the documented rate limits allow = ${ratio.toFixed(3)}x (target ≤ 1.2x)` +
            (ratio > 1.2 ? '  ← above target' : ''),
          `landing and build of ${r.documents} fetched documents ${(r.landAndBuildMs / 1000).toFixed(1)} s / by hand ${(r.handMs / 1000).toFixed(1)} s = ${landing.toFixed(2)}x (target ≤ 1.00x, same run)` +
            (landing > 1.05 ? '  ← slower' : ''),
          `  of which the fetch waited ${(r.waitedMs / 1000).toFixed(1)} s on the first stage; that stage's build and publish, ${(r.besideMs / 1000).toFixed(1)} s, ran beside the history's fetch (all the work: ${((r.landAndBuildMs - r.waitedMs + r.besideMs) / r.handMs).toFixed(2)}x by hand)`,
        ],
      };
    },
  },
  {
    name: 'scale',
    optIn: true,
    async run(workDir) {
      const connections = Number(process.env.MKTDATA_BENCH_CONNECTIONS ?? 600);
      const r = await benchScale(workDir, log, { connections });
      const one = r.rounds.find((x) => x.workers === 1);
      return {
        steps: [
          {
            step: `scale: first load, ${r.connections} connections, 3 workers`,
            ms: r.firstLoadMs,
            rows: r.connections,
          },
          ...r.rounds.flatMap((x) => [
            { step: `scale: ${x.workers} worker(s), run after the shards moved`, ms: x.settleMs, rows: r.connections },
            { step: `scale: ${x.workers} worker(s), daily run`, ms: x.dailyMs, rows: r.connections },
          ]),
        ],
        summary: [
          `scale: ${r.connections} connections on ${r.cores} cores (${availableParallelism()} available); daily run ` +
            r.rounds.map((x) => `${x.workers} worker(s) ${(x.dailyMs / 1000).toFixed(1)} s`).join(', '),
          ...(one
            ? [
                `scale: per-connection cost of a daily run with 1 worker = ${(one.dailyMs / r.connections).toFixed(0)} ms`,
              ]
            : []),
        ],
      };
    },
  },
  {
    name: 'connections',
    optIn: true,
    async run(workDir) {
      const r = await benchConnections(workDir, log);
      const of = (n: number) => r.rounds.find((x) => x.connections === n);
      const [one, sixty, most] = [of(1), of(60), r.rounds.at(-1)];
      const ratio = one && sixty ? sixty.nextMs / one.nextMs : NaN;
      const overhead = one && most && most !== one ? (most.nextMs - one.nextMs) / (most.connections - 1) : NaN;
      return {
        steps: r.rounds.flatMap((x) => [
          { step: `connections: ${r.lines} lines held by ${x.connections}, first run`, ms: x.firstMs, rows: r.lines },
          {
            step: `connections: ${r.lines} lines held by ${x.connections}, next-day run`,
            ms: x.nextMs,
            rows: Math.round(r.lines / r.days),
          },
        ]),
        summary: [
          `connections: next-day run, 60 connections / 1 holding the same lines = ${ratio.toFixed(2)}x (target ≤ 1.50x)` +
            (ratio > 1.5 ? '  ← above target' : ''),
          `connections: per-connection overhead of a next-day run = ${overhead.toFixed(0)} ms (target ≤ 20 ms)` +
            (overhead > 20 ? '  ← above target' : ''),
        ],
      };
    },
  },
  startupBenchmark,
  {
    name: 'webhooks',
    async run(workDir) {
      const r = await benchWebhooks(workDir, log);
      const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
      const perSecond = (ms: number) => Math.round((r.events * 1000) / ms).toLocaleString('en-US');
      return {
        steps: [
          {
            step: `record ${r.events} events, ${r.batches} transactions of ${r.events / r.batches} (recordEvents)`,
            ms: r.recordMs,
            rows: r.events,
          },
          {
            step: `deliver ${r.events} events to a loopback receiver (concurrency ${r.concurrency})`,
            ms: r.deliverMs,
            rows: r.events,
          },
        ],
        summary: [
          `webhooks: ${r.events} events (${r.orders} orders, ~${(r.bodyBytes / 1024).toFixed(1)} KB each) recorded in ${seconds(r.recordMs)} = ${perSecond(r.recordMs)}/s`,
          `webhooks: ${r.events} events delivered in ${seconds(r.deliverMs)} = ${perSecond(r.deliverMs)}/s (concurrency ${r.concurrency}); ` +
            `outbox latency median ${r.latency.median.toFixed(0)} ms, p95 ${r.latency.p95.toFixed(0)} ms, max ${r.latency.max.toFixed(0)} ms`,
        ],
      };
    },
  },
  arrivalBenchmark,
  metricsBenchmark,
  mcpBenchmark,
  consoleBenchmark,
];

function printTable(steps: Step[]): void {
  const rows = steps.map((s) => [s.step, s.ms.toFixed(0), Math.round((s.rows * 1000) / s.ms).toLocaleString('en-US')]);
  const head = ['step', 'ms', 'rows/s'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const format = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(format(head));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(format(row));
}

/**
 * Options of `npm run bench -- [names…] [--years 2,4]`: the daily run's histories, by default two and four years, so
 * that one run reports how the next day's run grows with history; `--years 2` takes a third of it.
 */
const options = { years: [2, 4] };

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const at = args.indexOf('--years');
  if (at >= 0) {
    const years = (args[at + 1] ?? '').split(',').map(Number);
    if (years.length === 0 || years.some((y) => !Number.isInteger(y) || y < 1 || y > 10))
      throw new Error('--years: whole numbers of years from 1 to 10, comma-separated (--years 2,4)');
    options.years = years;
    args.splice(at, 2);
  }
  const only = args;
  const selected =
    only.length > 0
      ? benchmarks.filter((b) => only.some((o) => b.name.includes(o)))
      : benchmarks.filter((b) => !b.optIn);
  mkdirSync(benchDataDir, { recursive: true });
  const steps: Step[] = [];
  const summary: string[] = [];
  for (const benchmark of selected) {
    const workDir = mkdtempSync(join(benchDataDir, 'run-'));
    log(`${benchmark.name} (work dir ${workDir})`);
    try {
      const report = await benchmark.run(workDir);
      steps.push(...report.steps);
      summary.push(...report.summary);
    } finally {
      rmSync(workDir, { recursive: true, force: true });
    }
  }
  console.log();
  printTable(steps);
  console.log();
  for (const line of summary) console.log(line);
}

await main();
