// `npm run bench`: runs each benchmark in a temporary work dir under bench/.data/ and prints a table.
// To add a benchmark: write `bench/<name>.ts` exporting `async (workDir) => …` and add an entry to
// `benchmarks` below that turns its result into table rows and summary lines.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { benchDataDir, benchIngestOrders } from './ingest-orders.ts';

/** One line of the printed table. */
interface Step {
  step: string;
  ms: number;
  /** rows processed by the step, for the rows/s column */
  rows: number;
}

/** What a benchmark reports: table lines and free-text summary lines (ratios, targets). */
interface Report {
  steps: Step[];
  summary: string[];
}

interface Benchmark {
  name: string;
  run(workDir: string): Promise<Report>;
}

const log = (message: string) => process.stderr.write(`${message}\n`);

const benchmarks: Benchmark[] = [
  {
    name: 'ingest orders',
    async run(workDir) {
      const r = await benchIngestOrders(workDir, { log });
      const target = 2;
      return {
        steps: [
          { step: 'bare read_csv 1M lines → table (best of 2)', ms: r.bareMs, rows: r.lines },
          { step: 'mktdata landFile 1M lines (best of 2)', ms: r.mktdataMs, rows: r.lines },
        ],
        summary: [
          `ingest orders 1M lines: mktdata / bare read_csv = ${r.ratio.toFixed(2)}x (target ≤ ${target.toFixed(2)}x)` +
            (r.ratio > target ? '  ← above target' : ''),
        ],
      };
    },
  },
];

function printTable(steps: Step[]): void {
  const rows = steps.map((s) => [s.step, s.ms.toFixed(0), Math.round((s.rows * 1000) / s.ms).toLocaleString('en-US')]);
  const head = ['step', 'ms', 'rows/s'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const format = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(format(head));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(format(row));
}

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  const selected = only.length > 0 ? benchmarks.filter((b) => only.some((o) => b.name.includes(o))) : benchmarks;
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
