import { sql } from 'kysely';
import type { Warehouse } from '../db/warehouse.ts';
import type { Home } from '../home.ts';
import { publishedManifests } from '../publish/open-snapshot.ts';
import { loadPipelines, type Pipeline, type PipelineTable } from './pipeline-config.ts';
import { addDays } from './plan.ts';

/** How fresh a catalog table is: when its data was last refreshed, and through which date no run will change it. */
export interface Freshness {
  /** The end of the latest run that rebuilt and published it (or the latest publish of a build without runs). */
  lastRefreshedAt: string | null;
  /**
   * The last local date its scheduled windows no longer revisit: the date of its latest refresh minus its restatement
   * window (the widest of RECURRING_DAILY n and RECURRING_MONTHLY n + shift days; for a dated CONTINUOUS table, the
   * widest of the tables it is computed from). The earliest over connections; null for snapshots and before a run.
   */
  finalThrough: string | null;
  /** When the live connectors last fetched one of its sources (a document landed, or the marketplace had none). */
  lastFetchedAt: string | null;
  /** Requests for its sources that failed and wait for a retry, or were given up in the last 7 days. */
  failedFetches: number;
}

/** Days back from a refresh that later scheduled windows may still change. */
export function restatementDays(table: PipelineTable, pipeline: Pipeline): number | null {
  if (!table.dated) return null;
  if (table.fetchPeriods.some((p) => p.type === 'CONTINUOUS')) {
    const inputs = pipeline.tables.filter((t) => t.dated && !t.fetchPeriods.some((p) => p.type === 'CONTINUOUS'));
    const days = inputs.map((t) => restatementDays(t, pipeline)).filter((d): d is number => d !== null);
    return days.length > 0 ? Math.max(...days) : null;
  }
  const days = table.fetchPeriods.map((p) =>
    p.type === 'RECURRING_DAILY' ? p.numberOfDays : p.type === 'RECURRING_MONTHLY' ? p.numberOfDays + p.shiftDays : 0,
  );
  return Math.max(0, ...days);
}

/** The freshness of every catalog table, by table name. */
export async function tableFreshness(wh: Warehouse, home: Home): Promise<Map<string, Freshness>> {
  // The snapshot's publish time, per table: in a scaled-out install, the latest of the shards that publish it.
  const published = new Map<string, string>();
  for (const m of publishedManifests(home))
    for (const t of m.tables) if ((published.get(t.name) ?? '') < m.publishedAt) published.set(t.name, m.publishedAt);
  // On the control-plane connection: the runner's connection may be inside a run's transaction.
  const result = await sql<{ table_name: string; refreshed_at: string; local_date: string }>`
    select w.table_name, w.connection_id, max(r.finished_at)::varchar as refreshed_at, max(w.local_date)::varchar as local_date
    from control.run_windows as w join control.pipeline_runs as r on r.id = w.run_id
    where w.status = 'success' and r.published
    group by w.table_name, w.connection_id`.execute(wh.db);
  const runs = result.rows.map((r) => [r.table_name, null, r.refreshed_at, r.local_date]);
  const fetched = await sql<{ source: string; fetched_at: string | null; failed: number }>`
    select source, max(finished_at) filter (where status in ('landed', 'empty'))::varchar as fetched_at,
        count(*) filter (where status = 'failed' or (status = 'abandoned' and finished_at > ${new Date(Date.now() - 7 * 86_400_000).toISOString()}::timestamptz))::integer as failed
    from control.fetch_requests group by source`.execute(wh.db);
  const bySource = new Map(fetched.rows.map((r) => [r.source, r]));
  const freshness = new Map<string, Freshness>();
  for (const pipeline of loadPipelines()) {
    for (const table of pipeline.tables) {
      const mine = runs.filter(([name]) => name === table.name);
      const days = restatementDays(table, pipeline);
      const finals = days === null ? [] : mine.map(([, , , localDate]) => addDays(localDate!, -days)).sort();
      const refreshed = mine
        .map(([, , at]) => new Date(at!).toISOString())
        .sort()
        .at(-1);
      const fetches = table.sources.map((source) => bySource.get(source)).filter((f) => f !== undefined);
      const lastFetched = fetches
        .map((f) => f.fetched_at)
        .filter((at) => at !== null)
        .map((at) => new Date(at).toISOString())
        .sort()
        .at(-1);
      freshness.set(table.name, {
        lastRefreshedAt:
          refreshed ?? (published.has(table.name) ? new Date(published.get(table.name)!).toISOString() : null),
        finalThrough: finals[0] ?? null,
        lastFetchedAt: lastFetched ?? null,
        failedFetches: fetches.reduce((sum, f) => sum + Number(f.failed), 0),
      });
    }
  }
  return freshness;
}
