import type { Warehouse } from '../db/warehouse.ts';
import type { Home } from '../home.ts';
import { publishedManifests } from '../publish/open-snapshot.ts';
import { loadPipelines, type Pipeline, type PipelineTable } from './pipeline-config.ts';
import { addDays } from './plan.ts';
import { publishedWindows } from './run-windows.ts';
import { fetchesBySource } from './fetch/fetch-requests.ts';
import type { Freshness } from '../catalog/catalog.ts';


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

/** A table's freshness for one connection: its rows' latest published rebuild, and the date they are final through. */
export interface ConnectionFreshness {
  sellerOrVendorId: string;
  lastRefreshedAt: string | null;
  finalThrough: string | null;
}

/** A catalog table's freshness for each of `connectionIds` (no published run yet: nulls). */
export async function connectionFreshness(
  wh: Pick<Warehouse, 'db'>,
  tableName: string,
  connectionIds: string[],
): Promise<ConnectionFreshness[]> {
  const pipeline = loadPipelines().find((p) => p.tables.some((t) => t.name === tableName));
  const table = pipeline?.tables.find((t) => t.name === tableName);
  const days = pipeline && table ? restatementDays(table, pipeline) : null;
  const windows = (await publishedWindows(wh.db)).filter((w) => w.table_name === tableName);
  return connectionIds.map((id) => {
    const window = windows.find((w) => w.connection_id === id);
    return {
      sellerOrVendorId: id,
      lastRefreshedAt: window ? new Date(window.refreshed_at).toISOString() : null,
      finalThrough: window && days !== null ? addDays(window.local_date, -days) : null,
    };
  });
}

/** The freshness of every catalog table, by table name. */
export async function tableFreshness(wh: Warehouse, home: Home): Promise<Map<string, Freshness>> {
  // The snapshot's publish time, per table: in a scaled-out install, the latest of the shards that publish it.
  const published = new Map<string, string>();
  for (const m of publishedManifests(home))
    for (const t of m.tables) if ((published.get(t.name) ?? '') < m.publishedAt) published.set(t.name, m.publishedAt);
  // On the control-plane connection: the runner's connection may be inside a run's transaction.
  const runs = (await publishedWindows(wh.db)).map((r) => [r.table_name, null, r.refreshed_at, r.local_date]);
  const fetched = await fetchesBySource(wh.db, new Date());
  const bySource = new Map(fetched.map((r) => [r.source, r]));
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
