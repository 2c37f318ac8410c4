import type { Warehouse } from '../db/warehouse.ts';
import { sourceApi } from './fetch/fetch-specs.ts';
import { loadModels } from '../models/load-models.ts';
import type { Pipeline } from './pipeline-config.ts';
import type { ModelResult } from '../models/run-models.ts';
import { noHistory, type PlanConnection, type PlannedWindow, type TableHistory } from './plan.ts';
import { connectionTimezones } from '../control/connections/connections.ts';
import { advanceLoadStages } from '../control/connections/load-stages.ts';
import { credentialStates } from '../connectors/credentials.ts';
import { failInterruptedRuns } from './pipeline-runs.ts';
import {
  failPlannedWindows,
  recordPlannedWindows,
  recordWindowOutcomes,
  windowHistory,
  windowsToRetry,
} from './run-windows.ts';

/**
 * The connections a pipeline plans for, with their marketplace timezones. Read through the control connection, so
 * that a fetch running beside a build (a first load's history) reads committed rows, never inside the build's
 * transaction.
 */
export async function planConnections(wh: Warehouse): Promise<PlanConnection[]> {
  return connectionTimezones(wh.db);
}

/**
 * When each (connection, table) began to be fetched: the latest time the connection got credentials for an API one of
 * the table's sources is fetched from. Windows built before it were built from dropped files only, and do not count
 * as the table's history: a connection that gets credentials has its first load (again) for those tables.
 */
async function fetchedSince(
  wh: Warehouse,
  pipeline: Pipeline,
): Promise<{ connection_id: string; table_name: string; since: string }[]> {
  const stored = await credentialStates(wh.db);
  return stored.flatMap((c) =>
    pipeline.tables
      .filter((t) => t.sources.some((s) => sourceApi(s) === c.api))
      .map((t) => ({
        connection_id: c.connection_id,
        table_name: t.name,
        since: new Date(String(c.created_at)).toISOString(),
      })),
  );
}

/** Per (connection, table), what earlier successful windows of the pipeline tell the planner. */
export async function readHistory(
  wh: Warehouse,
  pipeline: Pipeline,
): Promise<(connectionId: string, table: string) => TableHistory> {
  const rows = await windowHistory(wh.db, pipeline.name, await fetchedSince(wh, pipeline));
  const byKey = new Map(rows.map((r) => [`${r.connection_id}/${r.table_name}`, r]));
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

/** How the error of a window whose data did not come begins. */
const notFetched = 'not fetched: ';

/** Windows of earlier runs of the pipeline that failed, were skipped, or never finished. */
export async function readRetries(wh: Warehouse, pipeline: string): Promise<(PlannedWindow & { runId: string })[]> {
  const rows = await windowsToRetry(wh.db, pipeline);
  return rows.map((w) => ({
    runId: w.run_id,
    connectionId: w.connection_id,
    table: w.table_name,
    kind: 'RETRY',
    stage: w.stage,
    localDate: String(w.local_date),
    from: w.date_from === null ? null : String(w.date_from),
    to: w.date_to === null ? null : String(w.date_to),
    refetch: w.error?.startsWith(notFetched) ?? false,
  }));
}

/** Records a run's planned windows, in one statement: a run of hundreds of connections plans thousands. */
export async function insertWindows(
  wh: Warehouse,
  runId: string,
  pipeline: string,
  windows: PlannedWindow[],
): Promise<void> {
  if (windows.length === 0) return;
  const rows = windows.map((w) => ({
    connection_id: w.connectionId,
    table_name: w.table,
    kind: w.kind,
    stage: w.stage,
    local_date: w.localDate,
    date_from: w.from,
    date_to: w.to,
  }));
  await recordPlannedWindows(wh.sql, runId, pipeline, rows);
}

/**
 * A run that was still running when this one started was interrupted (one writer at a time): its open windows failed.
 */
export async function recoverInterruptedRuns(wh: Warehouse): Promise<void> {
  await failPlannedWindows(wh.db);
  await failInterruptedRuns(wh.db);
}

/**
 * After a phase, from every staged window of the run so far: a connection whose staged windows all succeeded is in
 * SECOND_STAGE while second-stage windows are to come, else COMPLETE; one with a staged window not done stays where
 * it was (FIRST_STAGE on a first load).
 */
export async function setStages(
  wh: Warehouse,
  done: (PlannedWindow & { status: string })[],
  next: PlannedWindow[],
): Promise<void> {
  const staged = done.filter((w) => w.stage !== null);
  const failedIds = new Set(staged.filter((w) => w.status !== 'success').map((w) => w.connectionId));
  const nextIds = new Set(next.map((w) => w.connectionId));
  // One update per outcome, for every connection it holds: a first load of hundreds of connections.
  const byStage = new Map<'FIRST_STAGE' | 'SECOND_STAGE' | 'COMPLETE', string[]>();
  for (const connectionId of new Set(staged.map((w) => w.connectionId))) {
    const stage = failedIds.has(connectionId) ? 'FIRST_STAGE' : nextIds.has(connectionId) ? 'SECOND_STAGE' : 'COMPLETE';
    byStage.set(stage, [...(byStage.get(stage) ?? []), connectionId]);
  }
  for (const [stage, ids] of byStage) {
    await advanceLoadStages(wh.db, ids, stage);
  }
}

/**
 * The rows each window's table holds in the window (its connection and dates; an undated table's rows of the
 * connection) after the run, one statement per table: what a window's `rows` says, whatever range its model's
 * statement covered.
 */
async function windowRows(wh: Warehouse, windows: PlannedWindow[]): Promise<Map<PlannedWindow, number>> {
  const models = new Map(loadModels().map((m) => [m.name, m]));
  const counts = new Map<PlannedWindow, number>();
  for (const table of new Set(windows.map((w) => w.table))) {
    const mine = windows.filter((w) => w.table === table);
    const model = models.get(table);
    const config = model?.config.window;
    const connection =
      config?.connection_column ??
      (model?.config.columns.some((c) => c.name === 'seller_or_vendor_id') ? 'seller_or_vendor_id' : null);
    if (!connection) continue;
    // (The dates' bounds as constants: the scan skips the row groups outside them, a table being in date order.)
    const dated =
      config && mine.every((w) => w.from !== null)
        ? `and t.${config.date_column} between '${mine.reduce((a, w) => (w.from! < a ? w.from! : a), '9999-12-31')}' and '${mine.reduce((a, w) => (w.to! > a ? w.to! : a), '0000-01-01')}'
         and t.${config.date_column} between w.date_from and w.date_to`
        : config
          ? `and (w.date_from is null or t.${config.date_column} between w.date_from and w.date_to)`
          : '';
    const list = JSON.stringify(
      mine.map((w, i) => ({
        i,
        connection_id: w.connectionId,
        date_from: config ? w.from : null,
        date_to: config ? w.to : null,
      })),
    );
    const reader = await wh.sql
      .runAndReadAll(
        `
      select w.i, count(t.${connection})::bigint
      from (select unnest(from_json($list, '[{"i":"INTEGER","connection_id":"VARCHAR","date_from":"DATE","date_to":"DATE"}]'), recursive := true)) as w
      left join marts.${table} as t on t.${connection} = w.connection_id ${dated}
      group by w.i`,
        { list },
      )
      .catch(() => null);
    if (!reader) continue; // a table not built yet
    for (const [i, n] of reader.getRowsJson()) counts.set(mine[Number(i)]!, Number(n));
  }
  return counts;
}

/**
 * Records each window's outcome from the models' results (status, rows in its range, its model's time, error) in one
 * statement: a run of hundreds of connections has thousands of windows.
 */
export async function recordResults(
  wh: Warehouse,
  runId: string,
  phase: (PlannedWindow & { status: string; rows: number | null; ms?: number | null; error: string | null })[],
  results: ModelResult[],
  lacking: (window: PlannedWindow) => string | null = () => null,
): Promise<void> {
  const byModel = new Map(results.map((r) => [r.model, r]));
  const rows = await windowRows(
    wh,
    phase.filter((w) => byModel.has(`marts.${w.table}`)),
  );
  const outcomes = phase.map((w) => {
    const result = byModel.get(`marts.${w.table}`);
    // A model that failed for some connections built the others.
    const unbuilt = result?.unbuilt?.find((u) => u.connectionId === w.connectionId);
    w.status = unbuilt?.status ?? (result?.unbuilt ? 'success' : (result?.status ?? 'skipped'));
    w.error = unbuilt?.error ?? (result?.unbuilt ? null : (result?.error ?? (result ? null : 'not run')));
    // Built from what landed, but its data has not all come: not done (and its retry fetches again).
    const lack = w.status === 'success' ? lacking(w) : null;
    if (lack) [w.status, w.error] = ['error', `${notFetched}${lack}`];
    w.rows = rows.get(w) ?? null;
    // (The windows a model builds share its statements: a window's time is its model's.)
    w.ms = result?.ms ?? null;
    return {
      connection_id: w.connectionId,
      table_name: w.table,
      kind: w.kind,
      date_from: w.from,
      stage: w.stage,
      status: w.status,
      row_count: w.rows,
      ms: w.ms,
      error: w.error,
    };
  });
  if (outcomes.length === 0) return;
  // (Windows with the same key, such as retries of two failed runs, are one row to update: the last outcome holds.)
  const byKey = new Map(
    outcomes.map((o) => [JSON.stringify([o.connection_id, o.table_name, o.kind, o.date_from, o.stage]), o]),
  );
  await recordWindowOutcomes(wh.sql, runId, [...byKey.values()]);
}
