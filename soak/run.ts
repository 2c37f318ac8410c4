// `npm run soak [-- PART...]`: the reliability and security suite. Each part runs in a temporary work dir under
// soak/.data/, prints its figures, and the command exits 1 when one falls short of its target.
// Parts: hostile (mutated upstream documents); crash-ingest, crash-run, crash-build, crash-fetch and crash-serve
// (each command killed at random points); load (100 clients on a loopback serve); probes (isolation and
// injection); secrets (the home, logs and answers searched for every secret); resources (a memory-limited build,
// a publish on a full disk).
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { crashIngest } from './crash-ingest.ts';
import { crashFetch } from './crash-fetch.ts';
import { crashRun } from './crash-run.ts';
import { crashServe } from './crash-serve.ts';
import { hostileFiles } from './hostile-files.ts';
import { load } from './load.ts';
import { probes } from './probes.ts';
import { resources } from './resources.ts';
import { secrets } from './secrets.ts';

interface Figure {
  name: string;
  value: string;
  ok: boolean;
}

interface Part {
  name: string;
  run(workDir: string): Promise<{ figures: Figure[]; failures: string[] }>;
}

const log = (line: string) => process.stderr.write(`${line}\n`);
const TRIALS = Number(process.env.SOAK_TRIALS ?? 20);

const parts: Part[] = [
  {
    name: 'hostile',
    async run(workDir) {
      const r = await hostileFiles(workDir, { log });
      return {
        figures: [
          {
            name: 'hostile files landed whole or refused cleanly',
            value: `${r.files - r.failures.length} of ${r.files} (${r.sources} sources; ${r.landed} landed, ${r.refused} refused; target: all, at least 200)`,
            ok: r.failures.length === 0 && r.files >= 200,
          },
        ],
        failures: r.failures,
      };
    },
  },
  {
    name: 'crash-ingest',
    async run(workDir) {
      const r = await crashIngest(workDir, { trials: TRIALS, log });
      return {
        figures: [
          {
            name: '`mktdata ingest` killed: every file landed whole or not at all',
            value: `${r.whole} of ${r.trials} (target: all, at least 20)`,
            ok: r.whole === r.trials && r.trials >= 20,
          },
          {
            name: '`mktdata ingest` killed: the same command again lands the rest, as uninterrupted',
            value: `${r.converged} of ${r.trials} (target: all)`,
            ok: r.converged === r.trials,
          },
        ],
        failures: r.failures,
      };
    },
  },
  {
    name: 'crash-run',
    async run(workDir) {
      const r = await crashRun(workDir, { trials: TRIALS, log, command: 'run' });
      return {
        figures: [
          {
            name: '`mktdata run` killed: snapshot wholly previous or new',
            value: `${r.consistent} of ${r.trials} (target: all, at least 20)`,
            ok: r.consistent === r.trials && r.trials >= 20,
          },
          {
            name: '`mktdata run` killed: first rerun converges',
            value: `${r.converged} of ${r.trials} (target: all)`,
            ok: r.converged === r.trials,
          },
          { name: '`mktdata run` killed: files lost', value: `${r.lost} (target: 0)`, ok: r.lost === 0 },
        ],
        failures: r.failures,
      };
    },
  },
  {
    name: 'crash-build',
    async run(workDir) {
      const r = await crashRun(workDir, { trials: TRIALS, log, command: 'build' });
      return {
        figures: [
          {
            name: '`mktdata build` killed: snapshot wholly previous or new',
            value: `${r.consistent} of ${r.trials} (target: all, at least 20)`,
            ok: r.consistent === r.trials && r.trials >= 20,
          },
          {
            name: '`mktdata build` killed: first rerun converges',
            value: `${r.converged} of ${r.trials} (target: all)`,
            ok: r.converged === r.trials,
          },
          { name: '`mktdata build` killed: files lost', value: `${r.lost} (target: 0)`, ok: r.lost === 0 },
        ],
        failures: r.failures,
      };
    },
  },
  {
    name: 'crash-fetch',
    async run(workDir) {
      const r = await crashFetch(workDir, { trials: TRIALS, log });
      return {
        figures: [
          {
            name: '`mktdata run` killed while it fetches: rerun converges to the uninterrupted first load',
            value: `${r.converged} of ${r.trials} (target: all, at least 20)`,
            ok: r.converged === r.trials && r.trials >= 20,
          },
          {
            name: '`mktdata run` killed while it fetches: reports requested twice',
            value: `${r.duplicates} (target: 0)`,
            ok: r.duplicates === 0,
          },
        ],
        failures: r.failures,
      };
    },
  },
  {
    name: 'crash-serve',
    async run(workDir) {
      const r = await crashServe(workDir, { trials: TRIALS, log });
      return {
        figures: [
          {
            name: '`mktdata serve` killed with exports in flight: exports completed once, whole, after the restart',
            value: `${r.whole} of ${r.created} in ${r.trials} trials (target: all, at least 20 trials)`,
            ok: r.whole === r.created && r.created > 0 && r.trials >= 20,
          },
          {
            name: '`mktdata serve` killed with exports in flight: trials with partial or extra files or a different token charge',
            value: `${r.leftovers} (target: 0)`,
            ok: r.leftovers === 0,
          },
        ],
        failures: r.failures,
      };
    },
  },
  {
    name: 'load',
    async run(workDir) {
      const r = await load(workDir, { log });
      for (const e of r.endpoints)
        log(
          `  ${e.name.padEnd(28)} ${String(e.requests).padStart(7)} answered  p50 ${e.p50.toFixed(1)} ms  p99 ${e.p99.toFixed(1)} ms`,
        );
      log(
        `  load generator event-loop delay p50 ${r.generatorLag.p50.toFixed(1)} ms, p99 ${r.generatorLag.p99.toFixed(1)} ms`,
      );
      const within = (a: { admitted: number; promised: number }) =>
        Math.abs(a.admitted - a.promised) <= a.promised * 0.1;
      const memoryFlat = r.memory.maxMb <= r.memory.warmMb * 1.25;
      return {
        figures: [
          {
            name: `load: ${r.clients} clients for ${r.seconds} s, answers 5xx`,
            value: `${r.status5xx} of ${r.requests} (target: 0)`,
            ok: r.status5xx === 0 && r.clients >= 100,
          },
          { name: 'load: dropped connections', value: `${r.dropped} (target: 0)`, ok: r.dropped === 0 },
          {
            name: 'load: rate limit admitted per greedy organization',
            value: `${r.admitted.map((a) => a.admitted).join(', ')} of ${r.admitted[0]?.promised} promised (target: within 10%)`,
            ok: r.admitted.every(within),
          },
          {
            name: 'load: polite client (1 per 0.6 s) limited',
            value: `${r.polite.limited} of ${r.polite.requests} (target: 0)`,
            ok: r.polite.limited === 0 && r.polite.requests > 0,
          },
          {
            name: 'load: key-less catalog endpoints p99',
            value: `${r.catalogP99.toFixed(1)} ms (target: under 50 ms)`,
            ok: r.catalogP99 < 50,
          },
          {
            name: 'load: exports created under load completed',
            value: `${r.exports.completed} of ${r.exports.created} (target: all)`,
            ok: r.exports.completed === r.exports.created && r.exports.created > 0,
          },
          {
            name: 'load: serve memory (RSS) after warm-up → last 20 s max',
            value: `${r.memory.warmMb.toFixed(0)} → ${r.memory.maxMb.toFixed(0)} MB (target: within 25%)`,
            ok: memoryFlat,
          },
        ],
        failures: r.failures,
      };
    },
  },
  {
    name: 'probes',
    async run(workDir) {
      const r = await probes(workDir, { log });
      return {
        figures: [
          {
            name: 'isolation and injection probes passed',
            value: `${r.passed} of ${r.probes} (target: all)`,
            ok: r.passed === r.probes && r.failures.length === 0 && r.probes >= 100,
          },
        ],
        failures: r.failures,
      };
    },
  },
  {
    name: 'secrets',
    async run(workDir) {
      const r = await secrets(workDir, { log });
      return {
        figures: [
          {
            name: 'secrets: API key hashed, refresh tokens encrypted, none in the home, logs, CLI output or answers',
            value: `${r.failures.length} found (${r.secrets} secrets and token patterns looked for in ${r.places} files and outputs and ${r.answers} answers; target: 0)`,
            ok: r.failures.length === 0 && r.answers > 0,
          },
        ],
        failures: r.failures,
      };
    },
  },
  {
    name: 'resources',
    async run(workDir) {
      const r = await resources(workDir, { log });
      const m = r.memory;
      const d = r.diskFull;
      return {
        figures: [
          {
            name: 'a full build of the two-year bench data under a 2 GB memory limit',
            value: `${m.completed ? 'completed' : 'FAILED'} in ${m.buildS.toFixed(0)} s (memory_limit ${m.memoryLimit}, ${m.spilledMb.toFixed(0)} MB spilled at most, process peak RSS ${m.maxRssMb.toFixed(0)} MB, ${m.profitRows} profit rows)`,
            ok: m.completed,
          },
          {
            name: 'disk full while publishing: previous snapshot kept, nothing left behind, said so, next run publishes',
            value: [d.keptPrevious, d.leftNothing, d.saidSo, d.nextRunPublished]
              .map((b) => (b ? 'yes' : 'NO'))
              .join(', '),
            ok: d.keptPrevious && d.leftNothing && d.saidSo && d.nextRunPublished,
          },
        ],
        failures: r.failures,
      };
    },
  },
];

const wanted = process.argv.slice(2);
const unknown = wanted.filter((w) => !parts.some((p) => p.name === w));
if (unknown.length > 0) {
  console.error(`unknown soak part(s): ${unknown.join(', ')}; parts: ${parts.map((p) => p.name).join(', ')}`);
  process.exit(2);
}
const root = join(process.cwd(), 'soak', '.data');
mkdirSync(root, { recursive: true });
const figures: Figure[] = [];
for (const part of parts.filter((p) => wanted.length === 0 || wanted.includes(p.name))) {
  const workDir = mkdtempSync(join(root, `${part.name}-`));
  const started = performance.now();
  const result = await part.run(workDir);
  log(`${part.name}: ${((performance.now() - started) / 1000).toFixed(0)} s`);
  for (const failure of result.failures) console.log(`  ${part.name}: ${failure}`);
  figures.push(...result.figures);
  if (result.failures.length === 0) rmSync(workDir, { recursive: true, force: true });
}
console.log(`\nsoak ${new Date().toISOString().slice(0, 10)}`);
for (const f of figures) console.log(`${f.ok ? 'ok  ' : 'FAIL'}  ${f.name}: ${f.value}`);
process.exit(figures.every((f) => f.ok) ? 0 : 1);
