// `npm run bench -- fetch`: the profit pipeline's first load of two years of one seller through the fake marketplace
// (`mktdata fake-marketplace` in a process of its own, as the marketplace is remote), with the documented rate limits
// on a clock running SPEED times faster than real time, then the same documents landed by hand into a second home.
//
// The least time the rate limits allow is computed per fetch phase from the requests the marketplace answered
// (429s and 5xx left out): for each operation, (requests − burst) / rate, the busiest operation bounding the phase
// (every bucket is taken as full at the phase's start, which only lowers the bound). The fetch phases' time on the
// clock is compared with it (target ≤ 1.2×). A phase lands its documents together after its last download; that
// landing is counted at its real time, as at real speed, not SPEED times it as the fast clock shows it. The
// landing-and-build part (the run's real time outside fetching, plus the landing inside it) is compared with the
// by-hand run of the same documents; each side ends with a checkpoint, so
// that neither leaves in the log work that the other paid for. The first stage builds and publishes while the history
// downloads: that time is printed apart, and counted in the landing and build only where the fetch waited on it (its
// first landing began as the build ended: from its last download before then).
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { performance } from 'node:perf_hooks';
import { demoHome, dropNewDocuments } from '../test/helpers/live.ts';
import { loadConnectorConfig } from '../src/connectors/config.ts';
import { Connectors } from '../src/connectors/connectors.ts';
import { setCredentials } from '../src/connectors/credentials.ts';
import { connectorFetcher } from '../src/pipelines/fetch/connector-fetcher.ts';
import { demoConnections } from '../src/demo/demo-marketplace.ts';
import { startFakeProcess } from './fake-process.ts';
import { loadPipelines } from '../src/pipelines/pipeline-config.ts';
import { runPipeline } from '../src/pipelines/run-pipeline.ts';
import { landWaitingFiles } from '../src/ingest/landing.ts';
import { documentedPlans, type RequestLogEntry } from '@mktdata/fake-marketplace';
import { type RunFetcher } from '../src/pipelines/fetch/fetch-stage.ts';

/**
 * The clock runs this much faster than real time: a minute of createReport refill takes 600 ms. Faster clocks
 * multiply the time the event loop spends landing documents into hours of clock time that a real load would not see.
 */
export const SPEED = 100;

/**
 * The least clock time the documented buckets allow for one phase's SP-API requests: per operation, the requests it
 * made (429s took no token) less the tokens its bucket held when the phase began (replayed from the earlier requests,
 * full at first use), at the documented rate; the busiest operation bounds the phase.
 */
export function minimumMs(
  log: RequestLogEntry[],
  first: number,
  startedAt: number,
): { ms: number; operation: string; requests: number } {
  const counted = (e: RequestLogEntry) =>
    e.api === 'sp' && e.status !== 429 && documentedPlans[e.operation] !== undefined;
  const levels = new Map<string, { tokens: number; at: number }>();
  for (const e of log.slice(0, first).filter(counted)) {
    const plan = documentedPlans[e.operation]!;
    const level = levels.get(e.operation) ?? { tokens: plan.burst, at: e.at };
    levels.set(e.operation, {
      tokens: Math.max(0, Math.min(plan.burst, level.tokens + ((e.at - level.at) / 1000) * plan.rate) - 1),
      at: e.at,
    });
  }
  const counts = new Map<string, number>();
  for (const e of log.slice(first).filter(counted)) counts.set(e.operation, (counts.get(e.operation) ?? 0) + 1);
  let busiest = { ms: 0, operation: 'none', requests: 0 };
  for (const [operation, requests] of counts) {
    const plan = documentedPlans[operation]!;
    const level = levels.get(operation);
    const tokens = level
      ? Math.min(plan.burst, level.tokens + ((startedAt - level.at) / 1000) * plan.rate)
      : plan.burst;
    const ms = (Math.max(0, requests - tokens) / plan.rate) * 1000;
    if (ms > busiest.ms) busiest = { ms, operation, requests };
  }
  return busiest;
}

interface Phase {
  /** the phase's time on the clock, its landing counted at real speed */
  clockMs: number;
  landingMs: number;
  realMs: number;
  minimum: ReturnType<typeof minimumMs>;
  requests: number;
}

export async function benchFetch(log: (message: string) => void) {
  let landingMs = 0;
  const downloads: number[] = [];
  const landings: number[] = [];
  // The fake runs in its own process: generating two years of documents there costs this process nothing, as a
  // remote marketplace would not (in-process, it stalled the event loop that the landings here wait on).
  const fake = await startFakeProcess({ speed: SPEED, start: '2026-11-20T18:30:00Z', openedOn: '2024-11-21' });
  const a = await demoHome('mktdata-bench-fetch-a-');
  const b = await demoHome('mktdata-bench-fetch-b-');
  try {
    // One seller: the US demo connection, with the tokens the fake printed.
    const us = demoConnections[0]!;
    const granted = fake.tokens.get(us.sellerId)!;
    await setCredentials(a.wh, us.id, { api: 'sp-api', refreshToken: granted.sp, sellingPartnerId: us.sellerId });
    if (granted.ads)
      await setCredentials(a.wh, us.id, {
        api: 'ads',
        refreshToken: granted.ads.token,
        profileId: granted.ads.profile,
      });
    const connectors = new Connectors(loadConnectorConfig(a.home, fake.env), fake.clock);
    const onLanded = (_results: unknown, ms: number) => {
      landingMs += ms;
      landings.push(performance.now() - ms);
    };
    const live = {
      clock: fake.clock,
      fetcher: connectorFetcher(connectors, { onDownloaded: () => downloads.push(performance.now()), onLanded }),
    };
    const pipeline = loadPipelines().find((p) => p.name === 'profit')!;
    const now = new Date(live.clock.now());
    const phases: Phase[] = [];
    let requests = 0;
    // The history's fetch: when it began, and when the first stage it ran beside was built and published.
    const history = { startedAt: 0, builtAt: 0 };
    const fetcher: RunFetcher = {
      now: live.fetcher.now,
      async fetch(wh, phase) {
        const clock0 = live.clock.now();
        const real0 = performance.now();
        const landing0 = landingMs;
        const before = await fake.log();
        if (phase.landAfter) {
          history.startedAt = real0;
          void phase.landAfter.then(() => (history.builtAt = performance.now()));
        }
        try {
          return await live.fetcher.fetch(wh, phase);
        } finally {
          const all = await fake.log();
          const entries = all.slice(before.length);
          requests = all.length;
          const landed = landingMs - landing0;
          phases.push({
            clockMs: live.clock.now() - clock0 - landed * (SPEED - 1),
            landingMs: landed,
            realMs: performance.now() - real0,
            minimum: minimumMs(all, before.length, clock0),
            requests: entries.length,
          });
          log(
            `fetch: phase ${phases.length}: ${entries.length} requests in ${(phases.at(-1)!.clockMs / 3_600_000).toFixed(2)} h on the clock`,
          );
        }
      },
    };
    log('fetch: first load of two years through the fake marketplace…');
    const real0 = performance.now();
    const summary = await runPipeline(a.wh, pipeline, { now, fetcher });
    // Both sides end with a checkpoint: what a run leaves in the log, the next checkpoint (or closing) writes.
    await a.wh.sql.run('checkpoint');
    const runRealMs = performance.now() - real0;
    if (summary.status !== 'success') throw new Error(`the live run ended ${summary.status}`);
    const documents = (await dropNewDocuments(a.wh, b.home, new Set())).size;
    log(`fetch: the same ${documents} documents landed by hand…`);
    const hand0 = performance.now();
    await landWaitingFiles(b.wh, Object.keys(pipeline.sources));
    const handLandingMs = performance.now() - hand0;
    const hand = await runPipeline(b.wh, pipeline, { now });
    await b.wh.sql.run('checkpoint');
    const handMs = performance.now() - hand0;
    const kinds = (windows: { kind: string }[]) => {
      const n = new Map<string, number>();
      for (const w of windows) n.set(w.kind, (n.get(w.kind) ?? 0) + 1);
      return [...n].map(([kind, count]) => `${count} ${kind}`).join(', ');
    };
    log(`fetch: windows rebuilt live: ${kinds(summary.windows)}; by hand: ${kinds(hand.windows)}`);
    const fetchClockMs = phases.reduce((s, p) => s + p.clockMs, 0);
    const fetchRealMs = phases.reduce((s, p) => s + p.realMs, 0);
    const minimum = phases.reduce((s, p) => s + p.minimum.ms, 0);
    // The first stage's build and publish, beside the history's fetch; the fetch waited on it if its first landing
    // began as the build ended.
    const besideMs = history.builtAt - history.startedAt;
    const firstLanding = landings.find((t) => t >= history.startedAt) ?? Infinity;
    const lastDownload = Math.max(history.startedAt, ...downloads.filter((t) => t <= history.builtAt));
    const waitedMs = history.startedAt > 0 && firstLanding - history.builtAt < 50 ? history.builtAt - lastDownload : 0;
    // The live run's landing and build: its time outside the fetch phases, plus the landing inside them and the wait.
    const landAndBuildMs = runRealMs - fetchRealMs + landingMs + waitedMs;
    return {
      phases,
      fetchClockMs,
      minimum,
      runRealMs,
      landingMs,
      landAndBuildMs,
      besideMs,
      waitedMs,
      handLandingMs,
      handMs,
      documents,
      requests,
    };
  } finally {
    await a.wh.close();
    await b.wh.close();
    await fake.close();
    for (const made of [a, b]) rmSync(dirname(made.home.root), { recursive: true, force: true });
  }
}
