// Arrival order: the same documents landed in one run and in random orders over several runs must give the same
// published tables. 50 seeds of a generated set with every source of the profit pipeline (30 days, overlapping
// windows) and 5 of the bundled demo set; each failing seed is printed with its tables that differ.
import { log, type Benchmark } from './benchmark.ts';
import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import type { Warehouse } from '../src/db/warehouse.ts';
import {
  demoDocuments,
  generatedDocuments,
  homeFor,
  landInRuns,
  shuffled,
  type Document,
} from '../test/helpers/arrival-order.ts';
import { compareHomes } from '../test/helpers/compare-homes.ts';

export interface ArrivalResult {
  sets: {
    name: string;
    documents: number;
    seeds: number;
    failed: { seed: number; tables: string[] }[];
    referenceMs: number;
    runsMs: number;
  }[];
}

const NOW = new Date('2026-10-16T18:00:00Z');

async function permutations(
  name: string,
  documents: Document[],
  seeds: number[],
  log: (line: string) => void,
): Promise<ArrivalResult['sets'][number]> {
  const once: Warehouse = await homeFor(documents, `bench-arrival-${name}-`);
  const started = performance.now();
  await landInRuns(once, [documents], NOW);
  const referenceMs = performance.now() - started;
  const failed: { seed: number; tables: string[] }[] = [];
  let runsMs = 0;
  try {
    for (const seed of seeds) {
      const spread = await homeFor(documents, `bench-arrival-${name}-`);
      const begun = performance.now();
      const runs = shuffled(documents, seed, 2 + (seed % 4));
      try {
        await landInRuns(spread, runs, NOW);
        runsMs += performance.now() - begun;
        const tables = (await compareHomes(once.home, spread.home)).filter((t) => t.onlyA || t.onlyB || t.duplicates);
        if (tables.length > 0)
          failed.push({ seed, tables: tables.map((t) => `${t.table} (${t.onlyA}/${t.onlyB}/${t.duplicates})`) });
        log(
          `arrival ${name}: seed ${seed} (${runs.map((r) => r.length).join('+')} documents) ${tables.length === 0 ? 'same tables' : `DIFFERS: ${tables.map((t) => t.table).join(', ')}`}`,
        );
      } finally {
        await spread.close();
      }
    }
  } finally {
    await once.close();
  }
  return { name, documents: documents.length, seeds: seeds.length, failed, referenceMs, runsMs };
}

export async function benchArrival(workDir: string, log: (line: string) => void): Promise<ArrivalResult> {
  const dir = join(workDir, 'generated');
  mkdirSync(dir, { recursive: true });
  const seeds = (n: number, from = 1) => Array.from({ length: n }, (_, i) => from + i);
  return {
    sets: [
      await permutations(
        'generated',
        generatedDocuments(dir, NOW, 30),
        seeds(Number(process.env.MKTDATA_BENCH_SEEDS ?? 50)),
        log,
      ),
      await permutations('demo', demoDocuments(), seeds(5, 101), log),
    ],
  };
}

/** `npm run bench -- arrival`: random arrival orders and splits give the tables of one run */
export const arrivalBenchmark: Benchmark = {
  name: 'arrival',
  optIn: true,
  async run(workDir) {
    const r = await benchArrival(workDir, log);
    return {
      steps: r.sets.map((s) => ({
        step: `arrival ${s.name}: ${s.seeds} random orders of ${s.documents} documents`,
        ms: s.runsMs,
        rows: s.seeds,
      })),
      summary: r.sets.map(
        (s) =>
          `arrival ${s.name}: ${s.seeds - s.failed.length} of ${s.seeds} random orders gave the tables of one run (target: all)` +
          (s.failed.length > 0
            ? `  ← seeds ${s.failed.map((f) => `${f.seed}: ${f.tables.join(', ')}`).join('; ')}`
            : ''),
      ),
    };
  },
};
