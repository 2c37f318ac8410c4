import { randomUUID } from 'node:crypto';
import type { RunTrigger } from '../db/control-plane.ts';
import { scheduleVacuum } from '../db/vacuum.ts';
import type { Warehouse } from '../db/warehouse.ts';
import type { LandResult } from '../ingest/land-file.ts';
import { loadModels, type Model } from '../models/load-models.ts';
import type { DateRange } from '../models/date-ranges.ts';
import { inTransaction, runModels, type ModelResult } from '../models/run-models.ts';
import { publish, snapshotBehind } from '../publish/publish.ts';
import { landWaitingFiles } from '../ingest/landing.ts';
import { newFiles, recordTakenIn, touchedDates, type NewFile } from './new-files.ts';
import type { Pipeline } from './pipeline-config.ts';
import { addDays, lateDataWindows, localClock, planPipeline, type PlannedWindow } from './plan.ts';
import {
  planConnections,
  readHistory,
  readRetries,
  recordResults,
  recoverInterruptedRuns,
  setStages,
  insertWindows,
} from './run-history.ts';
import { rawTablesOf, workOf } from './run-work.ts';
import { recordRunFinished, recordRunStarted, recordRunsPublished } from './pipeline-runs.ts';
import { markWindowsRetried } from './run-windows.ts';
import { keepLookups, lookupWindows } from './lookup-changes.ts';
import type { FetchGap, RunFetcher } from './fetch/fetch-stage.ts';
import { lacking, runError } from './run-errors.ts';
import { settled } from '../lib/settled.ts';

export interface RunPipelineOptions {
  /** The clock the run plans with. @default the fetcher's clock, else now */
  now?: Date;
  trigger?: RunTrigger;
  /** `mktdata run --from --to` */
  backfill?: DateRange;
  /** Connections whose tables are refreshed now, whether due or not (the console's "run now"). */
  refresh?: ReadonlySet<string>;
  fetcher?: RunFetcher;
  onLanded?: (result: LandResult & { source: string }) => void;
  onModel?: (model: Model, index: number, total: number) => void;
  onResult?: (result: ModelResult) => void;
  /**
   * Leave publishing to the caller, which runs several pipelines and publishes once after them (`mktdata run`): every
   * snapshot is then the state before the command or after it. Only a first load's first stage is still published
   * on its own, before its second stage lands.
   */
  deferPublish?: boolean;
  /** The models it builds (a copy of them, in the upgrade test). @default the project's models/ folder */
  modelsDir?: string;
}

export type RunStatus = 'success' | 'partial' | 'failed';

type WindowRun = PlannedWindow & { status: string; rows: number | null; ms?: number | null; error: string | null };

/** What a run did. */
export interface RunSummary {
  runId: string;
  pipeline: string;
  /** success; partial: some windows built, others failed or lack data; failed: none built. */
  status: RunStatus;
  landed: number;
  refused: number;
  /** Windows not done, requests failed and files refused. */
  errors: number;
  windows: WindowRun[];
  published: boolean;
  /** Tables it changed after its last publish (with `deferPublish`: for the caller to publish). */
  unpublished: boolean;
}

/** The plan of a run now: what `mktdata plan` prints and what `runPipeline` executes. */
export async function planRun(
  wh: Warehouse,
  pipeline: Pipeline,
  options: { now?: Date; backfill?: DateRange; refresh?: ReadonlySet<string> } = {},
) {
  const connections = await planConnections(wh);
  const files = await newFiles(wh, pipeline);
  const touched = await touchedDates(wh, pipeline, files, connections);
  const retries = await readRetries(wh, pipeline.name);
  const windows = planPipeline({
    pipeline,
    connections,
    now: options.now ?? new Date(),
    history: await readHistory(wh, pipeline),
    backfill: options.backfill,
    touched,
    retries,
    refresh: options.refresh,
  });
  return { windows, files, retries, touched };
}

/** LATE_DATA windows for files landed after the run was planned, beyond the windows `planned` (yet to be built). */
async function lateWindowsOf(
  wh: Warehouse,
  pipeline: Pipeline,
  files: NewFile[],
  planned: PlannedWindow[],
  now: Date,
): Promise<WindowRun[]> {
  const connections = await planConnections(wh);
  const late = lateDataWindows(
    pipeline,
    connections,
    now,
    await touchedDates(wh, pipeline, files, connections),
    planned,
  );
  return late.map((w) => ({ ...w, status: 'planned', rows: null, error: null }));
}

/**
 * One run of a pipeline: land what waits in landing/, plan, fetch what the windows need (with the live
 * connectors), rebuild exactly the planned windows (first stages first, fetched, built and published before the
 * second stages land; their history downloads meanwhile), publish, and record a row per (connection, table, window).
 */
export async function runPipeline(
  wh: Warehouse,
  pipeline: Pipeline,
  options: RunPipelineOptions = {},
): Promise<RunSummary> {
  const now = options.now ?? options.fetcher?.now() ?? new Date();
  await recoverInterruptedRuns(wh);
  await scheduleVacuum(wh, now);
  const runId = randomUUID();
  await recordRunStarted(wh.db, {
    id: runId,
    pipeline: pipeline.name,
    trigger: options.trigger ?? 'cli',
    clock: now.toISOString(),
    started_at: new Date().toISOString(),
    finished_at: null,
    status: 'running',
    backfill_from: options.backfill?.from ?? null,
    backfill_to: options.backfill?.to ?? null,
    error: null,
  });
  const landedResults = await landWaitingFiles(wh, Object.keys(pipeline.sources), options.onLanded);
  const first = await planRun(wh, pipeline, { now, backfill: options.backfill, refresh: options.refresh });
  // The first stages of first loads are fetched, built and published first; everything else of those connections
  // follows with the second stages, when the older rows that late data and retries may refer to are there.
  const firstLoading = new Set(first.windows.filter((w) => w.stage === 'FIRST_STAGE').map((w) => w.connectionId));
  const early = (w: PlannedWindow) => w.stage === 'FIRST_STAGE' || !firstLoading.has(w.connectionId);
  // What each phase's windows lack after its fetch, and how many requests failed.
  const gaps: FetchGap[][] = [[], []];
  let fetchFailures = 0;
  if (options.fetcher) {
    const fetched = await options.fetcher.fetch(wh, {
      runId,
      pipeline,
      windows: first.windows.filter(early),
      now,
      first: true,
    });
    landedResults.push(...fetched.landed);
    gaps[0] = fetched.gaps;
    fetchFailures += fetched.failed;
  }
  // Documents fetched for the first phase may touch dates beyond its windows: plan again with them.
  const { windows, files, retries, touched } = options.fetcher
    ? await planRun(wh, pipeline, { now, backfill: options.backfill, refresh: options.refresh })
    : first;
  const rows: WindowRun[] = windows.map((w) => ({ ...w, status: 'planned', rows: null, error: null }));
  await insertWindows(wh, runId, pipeline.name, rows);
  const models = loadModels(options.modelsDir);
  const taken = new Set(files.map((f) => f.id));
  let published = false;
  let unpublished = false;
  const phases = [rows.filter(early), rows.filter((w) => !early(w))];
  // The first stages' history downloads while they build and publish (with many connections, their builds take a
  // while), and lands after them.
  let firstStageBuilt = () => {};
  const landAfter = new Promise<void>((done) => (firstStageBuilt = done));
  const history =
    options.fetcher && phases[1]!.length > 0
      ? settled(options.fetcher.fetch(wh, { runId, pipeline, windows: [...phases[1]!], now, first: false, landAfter }))
      : null;
  try {
    for (const [index, phase] of phases.entries()) {
      let keyed = index === 0 ? [...taken] : [];
      if (index === 1 && history) {
        firstStageBuilt();
        const fetched = (await history).value();
        landedResults.push(...fetched.landed);
        gaps[1] = fetched.gaps;
        fetchFailures += fetched.failed;
        const arrived = (await newFiles(wh, pipeline)).filter((f) => !taken.has(f.id));
        // Beyond this phase's windows only: the first phase's were built before these files landed (a snapshot
        // report the history brought replaces the one a first-stage table was built from).
        const late = await lateWindowsOf(wh, pipeline, arrived, phase, now);
        await insertWindows(wh, runId, pipeline.name, late);
        rows.push(...late);
        phase.push(...late);
        keyed = arrived.map((f) => f.id);
        for (const id of keyed) taken.add(id);
      }
      if (phase.length === 0 && keyed.length === 0) continue;
      // Upstream models run in the first phase, and in a later one those that the fetched files change.
      // (The first phase's routine windows rebuild what the files planned with touch; a later phase's, every date.)
      const work = workOf(models, phase, keyed, index === 0 ? 'all' : await rawTablesOf(wh, keyed), {
        pipeline,
        dates: index === 0 ? touched : undefined,
      });
      if (work.windows.size === 0 && work.whole.size === 0 && work.keyed.size === 0) continue;
      const lookups = await keepLookups(wh, models, work);
      const results = await runModels(wh, {
        work,
        onModel: options.onModel,
        onResult: options.onResult,
        modelsDir: options.modelsDir,
      });
      await recordResults(wh, runId, phase, results, lacking(pipeline, gaps[index]!));
      // The dates whose rows show a lookup the phase changed (a SKU's new product name) are rebuilt now too.
      const shown = (await lookupWindows(wh, lookups, pipeline, await planConnections(wh), phase, now)).map(
        (w): WindowRun => ({ ...w, status: 'planned', rows: null, error: null }),
      );
      if (shown.length > 0) {
        await insertWindows(wh, runId, pipeline.name, shown);
        rows.push(...shown);
        const more = await runModels(wh, {
          work: workOf(models, shown, [], 'none'),
          onResult: options.onResult,
          modelsDir: options.modelsDir,
        });
        await recordResults(wh, runId, shown, more, lacking(pipeline, gaps[index]!));
        results.push(...more);
      }
      if (results.some((r) => r.status === 'success')) unpublished = true;
      // A first load's first stage is readable before the second stage lands.
      const firstStageDone = index === 0 && firstLoading.size > 0 && phases[1]!.length > 0;
      if (unpublished && firstStageDone) {
        await publish(wh);
        published = true;
        unpublished = false;
      }
      await setStages(wh, index === 0 ? phase : rows, index === 0 ? phases[1]! : []);
    }
  } finally {
    // Whatever ended the first stage, the history's documents land, and the fetch ends before the run does.
    firstStageBuilt();
    await history;
  }
  // (A snapshot an earlier, killed run left behind is brought up to date too.)
  if (!options.deferPublish && (unpublished || (await snapshotBehind(wh)))) {
    await publish(wh);
    published = true;
    unpublished = false;
  }
  const failed = rows.some((w) => w.status !== 'success');
  const refused = landedResults.filter((r) => r.status === 'refused').length;
  const errors = rows.filter((w) => w.status !== 'success').length + fetchFailures + refused;
  const status: RunStatus = errors === 0 ? 'success' : rows.some((w) => w.status === 'success') ? 'partial' : 'failed';
  await inTransaction(wh.sql, async () => {
    if (retries.length > 0) {
      await markWindowsRetried(wh.sql, pipeline.name, runId);
    }
    // Files whose rows some model did not take in stay new, so that the next run rebuilds their dates again.
    if (!failed && taken.size > 0) {
      await recordTakenIn(wh.sql, pipeline.name, [...taken], runId);
    }
  });
  const landed = landedResults.filter((r) => r.status === 'landed').length;
  await recordRunFinished(wh.db, runId, {
    status,
    errors,
    finished_at: new Date().toISOString(),
    landed_files: landed,
    published,
    error: runError(rows, fetchFailures, refused),
  });
  return { runId, pipeline: pipeline.name, status, landed, refused, errors, windows: rows, published, unpublished };
}

/** Publishes once what runs made with `deferPublish` left unpublished, and records that they were published. */
export async function publishDeferred(wh: Warehouse, summaries: RunSummary[]): Promise<void> {
  const runs = summaries.filter((s) => s.unpublished);
  // (A snapshot an earlier, killed run left behind is brought up to date too.)
  if (runs.length === 0 && !(await snapshotBehind(wh))) return;
  await publish(wh);
  await recordRunsPublished(
    wh.db,
    runs.map((r) => r.runId),
  );
  for (const run of runs) Object.assign(run, { published: true, unpublished: false });
}

export { addDays, localClock };
