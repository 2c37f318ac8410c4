import type { DuckDBConnection } from '@duckdb/node-api';
import { sql, type Kysely } from 'kysely';
import type { ControlPlane } from '../db/control-plane.ts';

// control.run_windows, one row per (connection, table, window) a run planned and how it ended: every query on it is
// in this file (test/db/control-table-modules.test.ts).

type Db = Kysely<ControlPlane>;

/**
 * Per (connection, table), what the pipeline's successful windows tell the planner: the first stage's first date,
 * the last daily and monthly dates, and the clock of the last run that refreshed it. Only windows of runs started
 * since the connection began to be fetched for the table (`since`) count.
 */
export async function windowHistory(
  db: Db,
  pipeline: string,
  since: { connection_id: string; table_name: string; since: string }[],
) {
  const result = await sql<{
    connection_id: string;
    table_name: string;
    initial_date: string | null;
    last_daily: string | null;
    last_monthly: string | null;
    last_refresh: string | null;
  }>`
    with since as (
        select connection_id, table_name, max(since) as since
        from (select unnest(from_json(${JSON.stringify(since)}::json, '[{"connection_id":"VARCHAR","table_name":"VARCHAR","since":"TIMESTAMPTZ"}]'), recursive := true))
        group by all
    )
    select w.connection_id, w.table_name,
        min(w.local_date) filter (where w.stage = 'FIRST_STAGE')::varchar as initial_date,
        max(w.local_date) filter (where w.kind = 'RECURRING_DAILY')::varchar as last_daily,
        max(w.local_date) filter (where w.kind = 'RECURRING_MONTHLY')::varchar as last_monthly,
        max(r.clock) filter (where w.kind in ('INITIAL', 'RECURRING_DAILY', 'RECURRING_MONTHLY', 'REFRESH', 'CONTINUOUS'))::varchar as last_refresh
    from control.run_windows as w
    join control.pipeline_runs as r on r.id = w.run_id
    left join since as s on s.connection_id = w.connection_id and s.table_name = w.table_name
    where w.pipeline = ${pipeline} and w.status = 'success' and (s.since is null or r.started_at >= s.since)
    group by all`.execute(db);
  return result.rows;
}

/** Windows of earlier runs of the pipeline that failed or were skipped, and were not retried yet. */
export function windowsToRetry(db: Db, pipeline: string) {
  return db
    .selectFrom('control.run_windows')
    .selectAll()
    .where('pipeline', '=', pipeline)
    .where('status', 'in', ['error', 'skipped'])
    .where('retried', '=', false)
    .execute();
}

/** Fails every window still planned: its run was interrupted (one writer at a time). */
export async function failPlannedWindows(db: Db): Promise<void> {
  await db
    .updateTable('control.run_windows')
    .set({ status: 'error', error: 'interrupted' })
    .where('status', '=', 'planned')
    .execute();
}

/**
 * The latest successful window of a published run, per (table, connection): when its run finished and its local
 * date.
 */
export async function publishedWindows(db: Db) {
  const result = await sql<{ table_name: string; connection_id: string; refreshed_at: string; local_date: string }>`
    select w.table_name, w.connection_id, max(r.finished_at)::varchar as refreshed_at, max(w.local_date)::varchar as local_date
    from control.run_windows as w join control.pipeline_runs as r on r.id = w.run_id
    where w.status = 'success' and r.published
    group by w.table_name, w.connection_id`.execute(db);
  return result.rows;
}

/** A run's windows, by table, connection and dates (`mktdata runs`). */
export function windowsOfRun(db: Db, runId: string) {
  return db
    .selectFrom('control.run_windows')
    .selectAll()
    .where('run_id', '=', runId)
    .orderBy('table_name')
    .orderBy('connection_id')
    .orderBy('date_from')
    .execute();
}

/** A run's windows of these connections, the failed ones first, then by table and connection (the console). */
export function windowsOfRunFor(db: Db, runId: string, connectionIds: string[]) {
  return db
    .selectFrom('control.run_windows')
    .select([
      'connection_id',
      'table_name',
      'kind',
      'stage',
      'local_date',
      'date_from',
      'date_to',
      'status',
      'row_count',
      'ms',
      'error',
      'retried',
    ])
    .where('run_id', '=', runId)
    .where('connection_id', 'in', connectionIds)
    .orderBy(sql`case when status = 'error' then 0 else 1 end`)
    .orderBy('table_name')
    .orderBy('connection_id')
    .execute();
}

// The queries below run on the warehouse's own DuckDB connection, inside the transaction of whoever holds it.

/** Records a run's planned windows, in one statement: a run of hundreds of connections plans thousands. */
export async function recordPlannedWindows(
  duck: DuckDBConnection,
  runId: string,
  pipeline: string,
  windows: {
    connection_id: string;
    table_name: string;
    kind: string;
    stage: string | null;
    local_date: string;
    date_from: string | null;
    date_to: string | null;
  }[],
): Promise<void> {
  await duck.run(
    `
    insert into control.run_windows (run_id, pipeline, connection_id, table_name, kind, stage, local_date, date_from, date_to, status)
    select $run, $pipeline, connection_id, table_name, kind, stage, local_date, date_from, date_to, 'planned'
    from (select unnest(from_json($rows, '[{"connection_id":"VARCHAR","table_name":"VARCHAR","kind":"VARCHAR","stage":"VARCHAR","local_date":"DATE","date_from":"DATE","date_to":"DATE"}]'), recursive := true))`,
    { run: runId, pipeline, rows: JSON.stringify(windows) },
  );
}

/** Records the outcome of a run's windows, each found by its key, in one statement. */
export async function recordWindowOutcomes(
  duck: DuckDBConnection,
  runId: string,
  outcomes: {
    connection_id: string;
    table_name: string;
    kind: string;
    date_from: string | null;
    stage: string | null;
    status: string;
    row_count: number | null;
    ms: number | null;
    error: string | null;
  }[],
): Promise<void> {
  await duck.run(
    `
    update control.run_windows as w set status = o.status, row_count = o.row_count, ms = o.ms, error = o.error
    from (select unnest(from_json($outcomes, '[{"connection_id":"VARCHAR","table_name":"VARCHAR","kind":"VARCHAR","date_from":"DATE","stage":"VARCHAR","status":"VARCHAR","row_count":"BIGINT","ms":"BIGINT","error":"VARCHAR"}]'), recursive := true)) as o
    where w.run_id = $run and w.connection_id = o.connection_id and w.table_name = o.table_name and w.kind = o.kind
        and w.date_from is not distinct from o.date_from and w.stage is not distinct from o.stage`,
    { run: runId, outcomes: JSON.stringify(outcomes) },
  );
}

/** Marks the failed and skipped windows of the pipeline's earlier runs retried: this run planned their retries. */
export async function markWindowsRetried(duck: DuckDBConnection, pipeline: string, runId: string): Promise<void> {
  await duck.run(
    `update control.run_windows set retried = true where pipeline = $pipeline and run_id <> $run and status in ('error', 'skipped') and not retried`,
    { pipeline, run: runId },
  );
}
