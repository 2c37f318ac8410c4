import { existsSync, mkdirSync, readdirSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { LIST, listValue, VARCHAR } from '@duckdb/node-api';
import { sql as kysql } from 'kysely';
import type { Warehouse } from '../db/warehouse.ts';
import { MktdataError } from '../errors.ts';
import { landFile, type LandResult } from '../ingest/land-file.ts';
import { findSource } from '../ingest/sources/index.ts';
import { loadModels, modelsDir, type Model } from '../models/load-models.ts';
import { inTransaction, mergeRanges, runModels, type DateRange, type ModelResult, type RunWork } from '../models/run-models.ts';
import { publish } from '../publish/publish.ts';
import { addDays, localClock, noHistory, planPipeline, type PlanConnection, type PlannedWindow, type TableHistory } from './plan.ts';
import type { Pipeline } from './pipeline-config.ts';

const everyDate: DateRange = { from: '1900-01-01', to: '9999-12-31' };

export interface RunPipelineOptions {
  /** The clock the run plans with. @default now */
  now?: Date;
  trigger?: 'cli' | 'schedule';
  /** `mktdata run --from --to` */
  backfill?: DateRange;
  onLanded?: (result: LandResult & { source: string }) => void;
  onModel?: (model: Model, index: number, total: number) => void;
  onResult?: (result: ModelResult) => void;
}

/** What a run did. */
export interface RunSummary {
  runId: string;
  pipeline: string;
  status: 'success' | 'failed';
  landed: number;
  refused: number;
  windows: (PlannedWindow & { status: string; rows: number | null; error: string | null })[];
  published: boolean;
}

/** The connections a pipeline plans for, with their marketplace timezones. */
export async function planConnections(wh: Warehouse): Promise<PlanConnection[]> {
  const reader = await wh.sql.runAndReadAll(`
    select c.id, coalesce(m.timezone, 'UTC') as timezone
    from control.connections as c left join seeds.marketplaces as m using (marketplace_id) order by c.id`).catch(async () =>
    // Before the first build made seeds.marketplaces: the seed file itself.
    wh.sql.runAndReadAll(`
      select c.id, coalesce(m.timezone, 'UTC') as timezone
      from control.connections as c left join read_csv($seed, header=true) as m using (marketplace_id) order by c.id`, { seed: join(modelsDir, 'seeds', 'marketplaces.csv') }),
  );
  return reader.getRowObjectsJson() as unknown as PlanConnection[];
}

/** Per (connection, table), what earlier successful windows of the pipeline tell the planner. */
export async function readHistory(wh: Warehouse, pipeline: string): Promise<(connectionId: string, table: string) => TableHistory> {
  const rows = await kysql<{ connection_id: string; table_name: string; initial_date: string | null; last_daily: string | null; last_monthly: string | null; last_refresh: string | null }>`
    select w.connection_id, w.table_name,
        min(w.local_date) filter (where w.stage = 'FIRST_STAGE')::varchar as initial_date,
        max(w.local_date) filter (where w.kind = 'RECURRING_DAILY')::varchar as last_daily,
        max(w.local_date) filter (where w.kind = 'RECURRING_MONTHLY')::varchar as last_monthly,
        max(r.clock) filter (where w.kind in ('INITIAL', 'RECURRING_DAILY', 'RECURRING_MONTHLY', 'REFRESH', 'CONTINUOUS'))::varchar as last_refresh
    from control.run_windows as w join control.pipeline_runs as r on r.id = w.run_id
    where w.pipeline = ${pipeline} and w.status = 'success'
    group by all`.execute(wh.db);
  const byKey = new Map(rows.rows.map((r) => [`${r.connection_id}/${r.table_name}`, r]));
  return (connectionId, table) => {
    const row = byKey.get(`${connectionId}/${table}`);
    if (!row) return noHistory;
    return {
      initialDone: row.initial_date !== null,
      initialDate: row.initial_date,
      lastDaily: row.last_daily,
      lastMonthly: row.last_monthly,
      lastRefresh: row.last_refresh ? new Date(row.last_refresh) : null,
    };
  };
}

/** Windows of earlier runs of the pipeline that failed, were skipped, or never finished. */
async function readRetries(wh: Warehouse, pipeline: string): Promise<(PlannedWindow & { runId: string })[]> {
  const rows = await wh.db
    .selectFrom('control.run_windows')
    .selectAll()
    .where('pipeline', '=', pipeline)
    .where('status', 'in', ['error', 'skipped'])
    .where('retried', '=', false)
    .execute();
  return rows.map((w) => ({
    runId: w.run_id,
    connectionId: w.connection_id,
    table: w.table_name,
    kind: 'RETRY',
    stage: w.stage,
    localDate: String(w.local_date),
    from: w.date_from === null ? null : String(w.date_from),
    to: w.date_to === null ? null : String(w.date_to),
  }));
}

/** Files of the pipeline's sources landed since its last run took them in. */
async function newFiles(wh: Warehouse, pipeline: Pipeline): Promise<{ id: string; connection_id: string; source: string }[]> {
  return wh.db
    .selectFrom('control.landed_files as f')
    .select(['f.id', 'f.connection_id', 'f.source'])
    .where('f.source', 'in', Object.keys(pipeline.sources))
    .where((eb) => eb.not(eb.exists(eb.selectFrom('control.pipeline_files as p').select('p.file_id').whereRef('p.file_id', '=', 'f.id').where('p.pipeline', '=', pipeline.name))))
    .execute();
}

/**
 * Dates that newly landed files touch, per connection and table: each source's `touchedDates` SQL, or every date
 * (null) for a source without it.
 */
async function touchedDates(wh: Warehouse, pipeline: Pipeline, files: { id: string; connection_id: string; source: string }[], connections: PlanConnection[]) {
  const touched = new Map<string, Map<string, DateRange[] | null>>();
  if (files.length === 0) return touched;
  await wh.sql.run(`create or replace temp table new_files (file_id varchar)`);
  await wh.sql.run(`insert into new_files select unnest($ids::varchar[])`, { ids: listValue(files.map((f) => f.id)) }, { ids: LIST(VARCHAR) });
  await wh.sql.run(`create or replace temp table connection_zones as select unnest($ids::varchar[]) as connection_id, unnest($zones::varchar[]) as timezone`, {
    ids: listValue(connections.map((c) => c.id)),
    zones: listValue(connections.map((c) => c.timezone)),
  }, { ids: LIST(VARCHAR), zones: LIST(VARCHAR) });
  const add = (connectionId: string, source: string, ranges: DateRange[] | null) => {
    for (const table of pipeline.tables.filter((t) => t.sources.includes(source))) {
      const byTable = touched.get(connectionId) ?? new Map<string, DateRange[] | null>();
      touched.set(connectionId, byTable);
      const before = byTable.get(table.name);
      byTable.set(table.name, before === null || ranges === null ? null : mergeRanges([...(before ?? []), ...ranges]));
    }
  };
  for (const source of new Set(files.map((f) => f.source))) {
    const query = pipeline.sources[source]?.touchedDates;
    if (!query) {
      for (const connectionId of new Set(files.filter((f) => f.source === source).map((f) => f.connection_id))) add(connectionId, source, null);
      continue;
    }
    const reader = await wh.sql
      .runAndReadAll(`select distinct connection_id, date_from::varchar, date_to::varchar from (${query}) where date_from is not null`)
      .catch((error: Error) => {
        throw new MktdataError('ERR_INPUT_INVALID', { where: `pipelines/${pipeline.name}.yml sources.${source}.touchedDates`, reason: error.message.split('\n')[0]! });
      });
    const byConnection = new Map<string, DateRange[]>();
    for (const [connectionId, from, to] of reader.getRowsJson() as string[][]) {
      if (!byConnection.has(connectionId!)) byConnection.set(connectionId!, []);
      byConnection.get(connectionId!)!.push({ from: from!, to: to! });
    }
    for (const [connectionId, ranges] of byConnection) add(connectionId, source, ranges);
  }
  return touched;
}

/** Lands what waits in `landing/<sellerOrVendorId>/<SOURCE>/` for the pipeline's sources, then moves it to `landed/`. */
async function landWaitingFiles(wh: Warehouse, pipeline: Pipeline, options: RunPipelineOptions): Promise<LandResult[]> {
  const results: LandResult[] = [];
  if (!existsSync(wh.home.landing)) return results;
  const connections = new Map((await wh.db.selectFrom('control.connections').select(['id', 'marketplace_id']).execute()).map((c) => [c.id, c]));
  for (const connectionId of readdirSync(wh.home.landing).sort()) {
    const connection = connections.get(connectionId);
    if (!connection) continue; // reported by `mktdata plan`
    for (const source of Object.keys(pipeline.sources)) {
      const folder = join(wh.home.landing, connectionId, source);
      if (!existsSync(folder)) continue;
      for (const name of waitingFiles(folder)) {
        const file = join(folder, name);
        const result = await landFile(wh, findSource(source), { id: connection.id, marketplaceId: connection.marketplace_id }, file);
        if (result.status !== 'refused') {
          const archive = join(wh.home.root, 'landed', connectionId, source);
          mkdirSync(archive, { recursive: true });
          renameSync(file, join(archive, `${result.fileId}-${name}`));
        } else {
          renameSync(file, join(folder, `.refused-${name}`));
        }
        results.push(result);
        options.onLanded?.({ ...result, source });
      }
    }
  }
  return results;
}

/** Files waiting in a landing folder: regular files, not hidden, not still being written (`.tmp`, `.partial`). */
export function waitingFiles(folder: string): string[] {
  return readdirSync(folder)
    .filter((name) => !name.startsWith('.') && !/\.(tmp|partial)$/.test(name) && statSync(join(folder, name)).isFile())
    .sort();
}

/** The plan of a run now: what `mktdata plan` prints and what `runPipeline` executes. */
export async function planRun(wh: Warehouse, pipeline: Pipeline, options: { now?: Date; backfill?: DateRange } = {}) {
  const connections = await planConnections(wh);
  const files = await newFiles(wh, pipeline);
  const touched = await touchedDates(wh, pipeline, files, connections);
  const retries = await readRetries(wh, pipeline.name);
  const windows = planPipeline({
    pipeline,
    connections,
    now: options.now ?? new Date(),
    history: await readHistory(wh, pipeline.name),
    backfill: options.backfill,
    touched,
    retries,
  });
  return { windows, files, retries };
}

/**
 * One run of a pipeline: land what waits in landing/, plan, rebuild exactly the planned windows (first stages
 * first, published before the second stages), publish, and record a row per (connection, table, window).
 */
export async function runPipeline(wh: Warehouse, pipeline: Pipeline, options: RunPipelineOptions = {}): Promise<RunSummary> {
  const now = options.now ?? new Date();
  await recoverInterruptedRuns(wh);
  const runId = randomUUID();
  await wh.db
    .insertInto('control.pipeline_runs')
    .values({ id: runId, pipeline: pipeline.name, trigger: options.trigger ?? 'cli', clock: now.toISOString(), started_at: new Date().toISOString(), finished_at: null, status: 'running', backfill_from: options.backfill?.from ?? null, backfill_to: options.backfill?.to ?? null, error: null })
    .execute();
  const landedResults = await landWaitingFiles(wh, pipeline, options);
  const { windows, files, retries } = await planRun(wh, pipeline, { now, backfill: options.backfill });
  const rows = windows.map((w) => ({ ...w, status: 'planned' as string, rows: null as number | null, error: null as string | null }));
  if (rows.length > 0) {
    await wh.db.insertInto('control.run_windows').values(rows.map((w) => windowRow(runId, pipeline.name, w))).execute();
  }
  const models = loadModels();
  let published = false;
  // The first stages of first loads are built and published first; everything else of those connections follows
  // with the second stages, when the older rows that late data and retries may refer to are there.
  const firstLoading = new Set(rows.filter((w) => w.stage === 'FIRST_STAGE').map((w) => w.connectionId));
  const early = (w: PlannedWindow) => w.stage === 'FIRST_STAGE' || !firstLoading.has(w.connectionId);
  const phases = [rows.filter(early), rows.filter((w) => !early(w))];
  for (const [index, phase] of phases.entries()) {
    const keyed = index === 0 ? files.map((f) => f.id) : [];
    if (phase.length === 0 && keyed.length === 0) continue;
    const work = workOf(models, phase, keyed, index === 0);
    if (work.windows.size === 0 && work.whole.size === 0 && work.keyed.size === 0) continue;
    const results = await runModels(wh, { work, onModel: options.onModel, onResult: options.onResult });
    for (const w of phase) {
      const result = results.find((r) => r.model === `marts.${w.table}`);
      w.status = result?.status ?? 'skipped';
      w.error = result?.error ?? (result ? null : 'not run');
      w.rows = result?.windows
        ? result.windows.filter((r) => r.connectionId === w.connectionId && (w.from === null || (r.from >= w.from && r.to <= w.to!) || (r.from <= w.from && r.to >= w.to!))).reduce((sum, r) => sum + r.rows, 0)
        : (result?.rows ?? null);
      await wh.db
        .updateTable('control.run_windows')
        .set({ status: w.status as 'success', row_count: w.rows, ms: result?.ms ?? null, error: w.error })
        .where('run_id', '=', runId).where('connection_id', '=', w.connectionId).where('table_name', '=', w.table).where('kind', '=', w.kind)
        .where((eb) => (w.from === null ? eb('date_from', 'is', null) : eb('date_from', '=', w.from)))
        .where((eb) => (w.stage === null ? eb('stage', 'is', null) : eb('stage', '=', w.stage)))
        .execute();
    }
    if (results.some((r) => r.status === 'success')) {
      await publish(wh);
      published = true;
    }
    await setStages(wh, phase, index === 0 ? phases[1]! : []);
  }
  const failed = rows.some((w) => w.status !== 'success');
  await inTransaction(wh.sql, async () => {
    if (retries.length > 0) {
      await wh.sql.run(`update control.run_windows set retried = true where pipeline = $pipeline and run_id <> $run and status in ('error', 'skipped') and not retried`, { pipeline: pipeline.name, run: runId });
    }
    // Files whose rows some model did not take in stay new, so that the next run rebuilds their dates again.
    if (!failed && files.length > 0) {
      await wh.sql.run(`insert into control.pipeline_files select $pipeline, unnest($ids::varchar[]), $run on conflict do nothing`, { pipeline: pipeline.name, ids: listValue(files.map((f) => f.id)), run: runId }, { ids: LIST(VARCHAR) });
    }
  });
  await wh.db
    .updateTable('control.pipeline_runs')
    .set({ status: failed ? 'failed' : 'success', finished_at: new Date().toISOString(), landed_files: landedResults.filter((r) => r.status === 'landed').length, published, error: failed ? 'a window failed: see mktdata runs' : null })
    .where('id', '=', runId)
    .execute();
  return {
    runId,
    pipeline: pipeline.name,
    status: failed ? 'failed' : 'success',
    landed: landedResults.filter((r) => r.status === 'landed').length,
    refused: landedResults.filter((r) => r.status === 'refused').length,
    windows: rows,
    published,
  };
}

function windowRow(runId: string, pipeline: string, w: PlannedWindow) {
  return { run_id: runId, pipeline, connection_id: w.connectionId, table_name: w.table, kind: w.kind, stage: w.stage, local_date: w.localDate, date_from: w.from, date_to: w.to, status: 'planned' as const, row_count: null, ms: null, error: null };
}

/** A run that was still running when this one started was interrupted (one writer at a time): its open windows failed. */
async function recoverInterruptedRuns(wh: Warehouse): Promise<void> {
  await wh.db.updateTable('control.run_windows').set({ status: 'error', error: 'interrupted' }).where('status', '=', 'planned').execute();
  await wh.db.updateTable('control.pipeline_runs').set({ status: 'failed', error: 'interrupted' }).where('status', '=', 'running').execute();
}

/**
 * The models a phase runs: the windows of dated tables, snapshot tables whole, keyed staging models for the new
 * files, and (in the first phase) every other table model upstream of them.
 */
function workOf(models: Model[], phase: PlannedWindow[], files: string[], first: boolean): RunWork {
  const work: RunWork = { windows: new Map(), whole: new Set(), keyed: new Set(), newFiles: files };
  const byId = new Map(models.map((m) => [m.id, m]));
  for (const w of phase) {
    const model = byId.get(`marts.${w.table}`)!;
    if (!model.config.window) {
      work.whole.add(model.id);
      continue;
    }
    const byConnection = work.windows.get(model.id) ?? new Map<string, DateRange[]>();
    work.windows.set(model.id, byConnection);
    byConnection.set(w.connectionId, [...(byConnection.get(w.connectionId) ?? []), w.from === null ? everyDate : { from: w.from, to: w.to! }]);
  }
  // Upstream of what runs: keyed models take in the new files; other non-catalog models are rebuilt once.
  const seen = new Set<string>();
  const visit = (id: string) => {
    if (seen.has(id)) return;
    seen.add(id);
    const model = byId.get(id)!;
    model.deps.forEach(visit);
    if (model.schema === 'marts') return;
    // A keyed model without new files only has work when its table is still missing (runKeyed then builds it).
    if (model.config.increment) {
      if (first) work.keyed.add(id);
    } else if (first) work.whole.add(id);
  };
  [...work.windows.keys(), ...work.whole].forEach(visit);
  return work;
}

/**
 * After a phase: a connection whose stage windows all succeeded is in SECOND_STAGE while second-stage windows are
 * to come, else COMPLETE; one whose stage windows failed stays where it was (FIRST_STAGE on a first load).
 */
async function setStages(wh: Warehouse, done: (PlannedWindow & { status: string })[], next: PlannedWindow[]): Promise<void> {
  const staged = done.filter((w) => w.stage !== null);
  for (const connectionId of new Set(staged.map((w) => w.connectionId))) {
    const failed = staged.some((w) => w.connectionId === connectionId && w.status !== 'success');
    const stage = failed ? (next.length > 0 ? 'FIRST_STAGE' : 'SECOND_STAGE') : next.some((w) => w.connectionId === connectionId) ? 'SECOND_STAGE' : 'COMPLETE';
    await wh.db
      .updateTable('control.connections')
      .set({ initial_load_stage: stage })
      .where('id', '=', connectionId)
      .where((eb) => (failed ? eb('initial_load_stage', 'is', null).or('initial_load_stage', '<>', 'COMPLETE') : eb.lit(true)))
      .execute();
  }
}

export { addDays, localClock };
