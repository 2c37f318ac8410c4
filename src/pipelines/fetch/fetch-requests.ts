import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { ControlPlane, FetchStatus } from '../../db/control-plane.ts';
import type { Warehouse } from '../../db/warehouse.ts';
import type { PlannedFetch, RecentFetch } from './plan-fetches.ts';
import type { UpstreamRequest } from './upstream-request.ts';
import { connectionsStillLoading } from '../../control/connections/load-stages.ts';
import type { FetchRequest, FetchUpdate } from './fetch-request.ts';

// control.fetch_requests, every request made upstream and how it went: every query on it is in this file
// (test/db/control-table-modules.test.ts).

type Db = Kysely<ControlPlane>;

export type { FetchRequest, FetchUpdate } from './fetch-request.ts';

/** How long a request's range counts as fresh: another pipeline of the same run, or a rerun, does not ask again. */
export const FRESH_MS = 30 * 60_000;
/** A failed request is retried by later runs at most this many times in all. */
export const MAX_ATTEMPTS = 5;

/** Requests not yet ended: a later run resumes them and plans nothing new over their ranges. */
const unfinished: FetchStatus[] = ['planned', 'creating', 'requested', 'downloaded'];

/** A DATE column as `YYYY-MM-DD`. */
const dateOf = (value: string | null) => (value === null ? null : String(value).slice(0, 10));

type Row = Awaited<ReturnType<typeof selectAll>>[number];
const selectAll = (wh: Warehouse) => wh.db.selectFrom('control.fetch_requests').selectAll().execute();

function fromRow(r: Row): FetchRequest {
  return {
    id: r.id,
    runId: r.run_id,
    connectionId: r.connection_id,
    source: r.source,
    stage: r.stage,
    from: dateOf(r.date_from),
    to: dateOf(r.date_to),
    request: JSON.parse(r.request) as UpstreamRequest,
    upstreamId: r.upstream_id,
    status: r.status,
    attempts: Number(r.attempts),
    error: r.error,
    documents: Number(r.documents),
    requestedAt: r.requested_at === null ? null : new Date(String(r.requested_at)).toISOString(),
    fileName: r.file_name,
  };
}

/** Records planned fetches (unavailable ranges are recorded as such, never sent); returns those to make. */
export async function insertFetches(
  wh: Warehouse,
  runId: string | null,
  fetches: (PlannedFetch & { request: UpstreamRequest; upstreamId?: string })[],
  now: Date,
): Promise<FetchRequest[]> {
  if (fetches.length === 0) return [];
  const rows = fetches.map((f) => ({
    id: randomUUID(),
    run_id: runId,
    connection_id: f.connectionId,
    source: f.source,
    stage: f.stage,
    date_from: f.from,
    date_to: f.to,
    request: JSON.stringify(f.request),
    upstream_id: f.upstreamId ?? null,
    status: (f.unavailable ? 'unavailable' : 'planned') as FetchStatus,
    error: f.unavailable ?? null,
    file_name: null,
    rows: null,
    retry_at: null,
    created_at: now.toISOString(),
    requested_at: null,
    finished_at: f.unavailable ? now.toISOString() : null,
  }));
  await wh.db.insertInto('control.fetch_requests').values(rows).execute();
  const ids = new Set(rows.filter((r) => r.status === 'planned').map((r) => r.id));
  return (
    await wh.db
      .selectFrom('control.fetch_requests')
      .selectAll()
      .where('id', 'in', [...ids, ''])
      .execute()
  ).map(fromRow);
}

/**
 * Ranges that need no new request: made in the last FRESH_MS, not yet ended (a killed run's, to be resumed), failed
 * and to be retried, or fetched already by an initial load that has not completed (a killed first load's rerun
 * goes on from what it has, however long ago that was fetched).
 */
export async function recentFetches(wh: Warehouse, now: Date): Promise<RecentFetch[]> {
  const loading = connectionsStillLoading(wh.db);
  const rows = await wh.db
    .selectFrom('control.fetch_requests')
    .select(['connection_id', 'source', 'date_from', 'date_to'])
    .where((eb) =>
      eb.or([
        eb('created_at', '>=', new Date(now.getTime() - FRESH_MS).toISOString()),
        eb('status', 'in', unfinished),
        eb.and([eb('status', '=', 'failed'), eb('attempts', '<', MAX_ATTEMPTS)]),
        eb.and([
          eb('stage', 'is not', null),
          eb('status', 'in', ['landed', 'empty']),
          eb('connection_id', 'in', loading),
        ]),
      ]),
    )
    .where('status', '<>', 'unavailable')
    .execute();
  return rows.map((r) => ({
    connectionId: r.connection_id,
    source: r.source,
    from: dateOf(r.date_from),
    to: dateOf(r.date_to),
  }));
}

/**
 * Statuses that say a request's range was fetched: its documents landed, there was nothing, or it is older than kept.
 */
const settledGood: FetchStatus[] = ['landed', 'empty', 'unavailable'];

/**
 * The ranges a run has its data for: requests of the run that settled well, and those `recentFetches` would spare a
 * new request for (made in the last FRESH_MS, or fetched by a first load that has not completed).
 */
export async function goodFetches(wh: Warehouse, runId: string, now: Date): Promise<RecentFetch[]> {
  const loading = connectionsStillLoading(wh.db);
  const rows = await wh.db
    .selectFrom('control.fetch_requests')
    .select(['connection_id', 'source', 'date_from', 'date_to'])
    .where('status', 'in', settledGood)
    .where((eb) =>
      eb.or([
        eb('run_id', '=', runId),
        eb('created_at', '>=', new Date(now.getTime() - FRESH_MS).toISOString()),
        eb.and([eb('stage', 'is not', null), eb('connection_id', 'in', loading)]),
      ]),
    )
    .execute();
  return rows.map((r) => ({
    connectionId: r.connection_id,
    source: r.source,
    from: dateOf(r.date_from),
    to: dateOf(r.date_to),
  }));
}

/**
 * Requests whose data has not come: in flight, failed and still to be retried, or (of this run) abandoned. Their
 * ranges are what a run's windows lack.
 */
export async function unsettledFetches(wh: Warehouse, runId: string, connectionIds: string[]): Promise<FetchRequest[]> {
  if (connectionIds.length === 0) return [];
  const rows = await wh.db
    .selectFrom('control.fetch_requests')
    .selectAll()
    .where('connection_id', 'in', connectionIds)
    .where((eb) =>
      eb.or([
        eb('status', 'in', unfinished),
        eb.and([eb('status', '=', 'failed'), eb('attempts', '<', MAX_ATTEMPTS)]),
        eb.and([eb('status', 'in', ['failed', 'abandoned']), eb('run_id', '=', runId)]),
      ]),
    )
    .orderBy('created_at', 'desc')
    .execute();
  return rows.map(fromRow);
}

/** Requests a killed run left in flight (to resume), and failed ones whose cool-down has passed (to retry). */
export async function pendingFetches(wh: Warehouse, now: Date): Promise<FetchRequest[]> {
  const rows = await wh.db
    .selectFrom('control.fetch_requests')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb('status', 'in', unfinished),
        eb.and([
          eb('status', '=', 'failed'),
          eb('retry_at', '<=', now.toISOString()),
          eb('attempts', '<', MAX_ATTEMPTS),
        ]),
      ]),
    )
    .orderBy('created_at')
    .execute();
  return rows.map(fromRow);
}

/** Records a fetch request's progress. */
export async function updateFetch(wh: Warehouse, id: string, change: FetchUpdate): Promise<void> {
  const set: Record<string, unknown> = {};
  const columns: Record<keyof FetchUpdate, string> = {
    status: 'status',
    upstreamId: 'upstream_id',
    attempts: 'attempts',
    retryAt: 'retry_at',
    error: 'error',
    documents: 'documents',
    fileName: 'file_name',
    rows: 'rows',
    requestedAt: 'requested_at',
    finishedAt: 'finished_at',
    request: 'request',
  };
  for (const [key, value] of Object.entries(change))
    set[columns[key as keyof FetchUpdate]] = key === 'request' ? JSON.stringify(value) : value;
  await wh.db.updateTable('control.fetch_requests').set(set).where('id', '=', id).execute();
}

/** The settlement reports already fetched (or being fetched) for a connection, by report id. */
export async function knownUpstreamIds(wh: Warehouse, connectionId: string, source: string): Promise<Set<string>> {
  const rows = await wh.db
    .selectFrom('control.fetch_requests')
    .select('upstream_id')
    .where('connection_id', '=', connectionId)
    .where('source', '=', source)
    .where('upstream_id', 'is not', null)
    .where('status', 'not in', ['failed', 'abandoned'])
    .execute();
  return new Set(rows.map((r) => r.upstream_id!));
}

/** A run's requests, by source, connection and dates (`mktdata runs`). */
export function fetchesOfRun(db: Db, runId: string) {
  return db
    .selectFrom('control.fetch_requests')
    .selectAll()
    .where('run_id', '=', runId)
    .orderBy('source')
    .orderBy('connection_id')
    .orderBy('date_from')
    .execute();
}

/** Per connection: when a request of it last brought documents (or found none), and how many failed. */
export function fetchesByConnection(db: Db, connectionIds: string[]) {
  return db
    .selectFrom('control.fetch_requests')
    .select([
      'connection_id',
      sql<string | null>`max(finished_at) filter (where status in ('landed', 'empty'))`.as('fetched_at'),
      sql<number>`count(*) filter (where status in ('failed', 'abandoned'))`.as('failed'),
    ])
    .where('connection_id', 'in', connectionIds)
    .groupBy('connection_id')
    .execute();
}

/** A request failing at `now`: failed and waiting for a retry, or abandoned in the 7 days before. */
const failingAt = (now: Date) =>
  sql`(status = 'failed' or (status = 'abandoned' and finished_at > ${new Date(now.getTime() - 7 * 86_400_000).toISOString()}::timestamptz))`;

/** Per source: when a request of it last brought documents (or found none), and how many are failing at `now`. */
export async function fetchesBySource(db: Db, now: Date) {
  const result = await sql<{ source: string; fetched_at: string | null; failed: number }>`
    select source, max(finished_at) filter (where status in ('landed', 'empty'))::varchar as fetched_at,
        count(*) filter (where ${failingAt(now)})::integer as failed
    from control.fetch_requests group by source`.execute(db);
  return result.rows;
}

/** Per connection: how many requests are failing at `now`; connections without any are left out. */
export async function failedFetchesByConnection(db: Db, now: Date) {
  const result = await sql<{ connection_id: string; failed: number }>`
    select connection_id, count(*)::integer as failed
    from control.fetch_requests where ${failingAt(now)} group by connection_id`.execute(db);
  return result.rows;
}
