import { join } from 'node:path';
import { sql as kysql } from 'kysely';
import type { Warehouse } from '../db/warehouse.ts';
import { modelsDir } from '../models/load-models.ts';
import type { ModelResult } from '../models/run-models.ts';
import { noHistory, type PlanConnection, type PlannedWindow, type TableHistory } from './plan.ts';

/**
 * The connections a pipeline plans for, with their marketplace timezones. Read through the control connection, so
 * that a fetch running beside a build (a first load's history) reads committed rows, never inside the build's
 * transaction.
 */
export async function planConnections(wh: Warehouse): Promise<PlanConnection[]> {
  const read = (marketplaces: ReturnType<typeof kysql>) =>
    kysql<PlanConnection>`select c.id, coalesce(m.timezone, 'UTC') as timezone
      from control.connections as c left join ${marketplaces} as m using (marketplace_id) order by c.id`.execute(wh.db);
  // Before the first build made seeds.marketplaces: the seed file itself.
  const { rows } = await read(kysql`seeds.marketplaces`).catch(() => read(kysql`read_csv(${join(modelsDir, 'seeds', 'marketplaces.csv')}, header=true)`));
  return rows;
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
export async function readRetries(wh: Warehouse, pipeline: string): Promise<(PlannedWindow & { runId: string })[]> {
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


/** Records a run's planned windows, in one statement: a run of hundreds of connections plans thousands. */
export async function insertWindows(wh: Warehouse, runId: string, pipeline: string, windows: PlannedWindow[]): Promise<void> {
  if (windows.length === 0) return;
  const rows = windows.map((w) => ({ connection_id: w.connectionId, table_name: w.table, kind: w.kind, stage: w.stage, local_date: w.localDate, date_from: w.from, date_to: w.to }));
  await wh.sql.run(`
    insert into control.run_windows (run_id, pipeline, connection_id, table_name, kind, stage, local_date, date_from, date_to, status)
    select $run, $pipeline, connection_id, table_name, kind, stage, local_date, date_from, date_to, 'planned'
    from (select unnest(from_json($rows, '[{"connection_id":"VARCHAR","table_name":"VARCHAR","kind":"VARCHAR","stage":"VARCHAR","local_date":"DATE","date_from":"DATE","date_to":"DATE"}]'), recursive := true))`,
    { run: runId, pipeline, rows: JSON.stringify(rows) });
}

/** A run that was still running when this one started was interrupted (one writer at a time): its open windows failed. */
export async function recoverInterruptedRuns(wh: Warehouse): Promise<void> {
  await wh.db.updateTable('control.run_windows').set({ status: 'error', error: 'interrupted' }).where('status', '=', 'planned').execute();
  await wh.db.updateTable('control.pipeline_runs').set({ status: 'failed', error: 'interrupted' }).where('status', '=', 'running').execute();
}

/**
 * After a phase: a connection whose stage windows all succeeded is in SECOND_STAGE while second-stage windows are
 * to come, else COMPLETE; one whose stage windows failed stays where it was (FIRST_STAGE on a first load).
 */
export async function setStages(wh: Warehouse, done: (PlannedWindow & { status: string })[], next: PlannedWindow[]): Promise<void> {
  const staged = done.filter((w) => w.stage !== null);
  const failedIds = new Set(staged.filter((w) => w.status !== 'success').map((w) => w.connectionId));
  const nextIds = new Set(next.map((w) => w.connectionId));
  // One update per outcome, for every connection it holds: a first load of hundreds of connections.
  const byOutcome = new Map<string, { stage: 'FIRST_STAGE' | 'SECOND_STAGE' | 'COMPLETE'; failed: boolean; ids: string[] }>();
  for (const connectionId of new Set(staged.map((w) => w.connectionId))) {
    const failed = failedIds.has(connectionId);
    const stage = failed ? (next.length > 0 ? 'FIRST_STAGE' : 'SECOND_STAGE') : nextIds.has(connectionId) ? 'SECOND_STAGE' : 'COMPLETE' as const;
    const key = `${stage}/${failed}`;
    if (!byOutcome.has(key)) byOutcome.set(key, { stage, failed, ids: [] });
    byOutcome.get(key)!.ids.push(connectionId);
  }
  for (const { stage, failed, ids } of byOutcome.values()) {
    await wh.db
      .updateTable('control.connections')
      .set({ initial_load_stage: stage })
      .where('id', 'in', ids)
      .where((eb) => (failed ? eb('initial_load_stage', 'is', null).or('initial_load_stage', '<>', 'COMPLETE') : eb.lit(true)))
      .execute();
  }
}

/**
 * Records each window's outcome from the models' results (status, rows in its range, time, error) in one statement:
 * a run of hundreds of connections has thousands of windows.
 */
export async function recordResults(wh: Warehouse, runId: string, phase: (PlannedWindow & { status: string; rows: number | null; error: string | null })[], results: ModelResult[]): Promise<void> {
  const byModel = new Map(results.map((r) => [r.model, r]));
  const outcomes = phase.map((w) => {
    const result = byModel.get(`marts.${w.table}`);
    // A model that failed for some connections built the others.
    const unbuilt = result?.unbuilt?.find((u) => u.connectionId === w.connectionId);
    w.status = unbuilt?.status ?? (result?.unbuilt ? 'success' : (result?.status ?? 'skipped'));
    w.error = unbuilt?.error ?? (result?.unbuilt ? null : (result?.error ?? (result ? null : 'not run')));
    w.rows = result?.windows
      ? result.windows.filter((r) => r.connectionId === w.connectionId && (w.from === null || (r.from >= w.from && r.to <= w.to!) || (r.from <= w.from && r.to >= w.to!))).reduce((sum, r) => sum + r.rows, 0)
      : (result?.rows ?? null);
    return { connection_id: w.connectionId, table_name: w.table, kind: w.kind, date_from: w.from, stage: w.stage, status: w.status, row_count: w.rows, ms: result?.ms ?? null, error: w.error };
  });
  if (outcomes.length === 0) return;
  // (Windows with the same key, such as retries of two failed runs, are one row to update: the last outcome holds.)
  const byKey = new Map(outcomes.map((o) => [JSON.stringify([o.connection_id, o.table_name, o.kind, o.date_from, o.stage]), o]));
  await wh.sql.run(`
    update control.run_windows as w set status = o.status, row_count = o.row_count, ms = o.ms, error = o.error
    from (select unnest(from_json($outcomes, '[{"connection_id":"VARCHAR","table_name":"VARCHAR","kind":"VARCHAR","date_from":"DATE","stage":"VARCHAR","status":"VARCHAR","row_count":"BIGINT","ms":"BIGINT","error":"VARCHAR"}]'), recursive := true)) as o
    where w.run_id = $run and w.connection_id = o.connection_id and w.table_name = o.table_name and w.kind = o.kind
        and w.date_from is not distinct from o.date_from and w.stage is not distinct from o.stage`, { run: runId, outcomes: JSON.stringify([...byKey.values()]) });
}
