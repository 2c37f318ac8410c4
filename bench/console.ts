// `npm run bench -- console`: how fast each page of the operator's console answers on the demo home (issue: every
// page under 200 ms). The home of the console's tests (the demo files built by the pipelines, a second organization),
// served on loopback; each page asked for 20 times in a row after one warm-up request, with the demo organization's
// key and with the operator key; the median and the slowest of the 20 are reported. The home is warm (its published
// figures read), as a running `mktdata serve` keeps it within 2 s of a publish; the first answer of / before that
// is reported apart.
import { log, type Benchmark } from './benchmark.ts';
import { performance } from 'node:perf_hooks';
import { consolePages } from '../src/console/layout.ts';
import { startConsoleHome } from '../test/helpers/console-home.ts';

const RUNS = 20;

export async function benchConsole(log: (message: string) => void) {
  log('console: the demo home…');
  const h = await startConsoleHome();
  try {
    const runId = (
      await h.wh.db
        .selectFrom('control.pipeline_runs')
        .select('id')
        .where('pipeline', '=', 'profit')
        .executeTakeFirstOrThrow()
    ).id;
    const paths = [...consolePages.map((p) => p.path), `/runs/${runId}`, '/catalog/mkt_profit_by_date'];
    const pages: { path: string; who: string; medianMs: number; maxMs: number }[] = [];
    // The first page to need the published figures, before the server's warmer read them (right after a publish).
    const t0 = performance.now();
    await (await fetch(h.url, { headers: { 'service-api-key': h.key } })).text();
    const coldMs = performance.now() - t0;
    for (const [who, key] of [
      ['organization', h.key],
      ['operator', h.operatorKey],
    ] as const) {
      for (const path of paths) {
        const ask = async () => {
          const t0 = performance.now();
          const res = await fetch(`${h.url}${path}`, { headers: { 'service-api-key': key } });
          await res.text();
          if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
          return performance.now() - t0;
        };
        await ask();
        const times: number[] = [];
        for (let i = 0; i < RUNS; i++) times.push(await ask());
        times.sort((a, b) => a - b);
        pages.push({
          path: path.startsWith('/runs/') ? '/runs/<id>' : path,
          who,
          medianMs: (times[RUNS / 2 - 1]! + times[RUNS / 2]!) / 2,
          maxMs: times.at(-1)!,
        });
      }
    }
    return { pages, coldMs };
  } finally {
    await h.close();
  }
}

/** `npm run bench -- console`: the slowest answer of every console page on the demo home */
export const consoleBenchmark: Benchmark = {
  name: 'console',
  async run() {
    const { pages, coldMs } = await benchConsole(log);
    const slowest = Math.max(...pages.map((p) => p.maxMs));
    return {
      steps: [
        { step: 'console / just after a publish (figures not yet read)', ms: coldMs, rows: 1 },
        ...pages.map((p) => ({ step: `console ${p.path} as ${p.who}, median of 20`, ms: p.medianMs, rows: 1 })),
      ],
      summary: [
        `console: slowest page answer of ${pages.length * 20} = ${slowest.toFixed(0)} ms (target < 200 ms)` +
          (slowest >= 200 ? '  ← above target' : ''),
      ],
    };
  },
};
