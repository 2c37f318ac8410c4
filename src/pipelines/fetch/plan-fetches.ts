import { mergeRanges, type DateRange } from '../../models/date-ranges.ts';
import type { Pipeline } from '../pipeline-config.ts';
import { addDays, localClock, subtractRanges, type InitialStage, type PlannedWindow } from '../plan.ts';
import type { Api } from '../../connectors/credentials.ts';
import { isDated, type FetchSpec } from './fetch-specs.ts';

/** A request the plan asks the connectors to make; `from`/`to` null for a snapshot. */
export interface PlannedFetch {
  connectionId: string;
  source: string;
  stage: InitialStage | null;
  from: string | null;
  to: string | null;
  /** Set when the marketplace cannot deliver this range (older than it keeps): recorded, not requested. */
  unavailable?: string;
}

/** A request already made recently (or still in flight): what it covers needs no second request. */
export interface RecentFetch {
  connectionId: string;
  source: string;
  from: string | null;
  to: string | null;
}

export interface FetchPlanInput {
  pipeline: Pipeline;
  windows: PlannedWindow[];
  /** Connections with the APIs they hold credentials for, and their marketplace time zones. */
  connections: { id: string; timezone: string; apis: ReadonlySet<Api> }[];
  specs: ReadonlyMap<string, FetchSpec>;
  now: Date;
  recent: RecentFetch[];
}

/**
 * Windows that ask for data: late data and retries of failed builds are consequences of data already landed; a retry
 * of a window whose data did not come asks again.
 */
const fetching = new Set(['INITIAL', 'RECURRING_DAILY', 'RECURRING_MONTHLY', 'REFRESH', 'CONTINUOUS', 'BACKFILL']);
const asks = (w: PlannedWindow) => fetching.has(w.kind) || w.refetch === true;

/**
 * The requests a run's windows need (docs/design/ARCHITECTURE.md "Fetching"). Each source is fetched on the windows of
 * the tables that own it: the pipeline's tables with their own fetch periods that read it, or, when only tables
 * computed
 * from others (CONTINUOUS) or snapshots read it, theirs. A snapshot table's window asks a dated source for its last
 * `maxDaysPerRequest` days before today (30 without). Per connection and source the ranges are merged, what recent
 * requests cover is left out, history the marketplace no longer keeps is recorded as unavailable, and the rest is cut
 * into
 * requests of at most `maxDaysPerRequest` days, newest first. One report serves every table that reads it.
 */
export function planFetches(input: FetchPlanInput): PlannedFetch[] {
  const planned: PlannedFetch[] = [];
  for (const connection of input.connections) {
    const today = localClock(input.now, connection.timezone).date;
    const mine = input.windows.filter((w) => w.connectionId === connection.id && asks(w));
    for (const [source, spec] of input.specs) {
      if (!(source in input.pipeline.sources) || !connection.apis.has(spec.api)) continue;
      const maxDays = Math.min(input.pipeline.sources[source]?.maxDaysPerRequest ?? 30, maxDaysOf(spec));
      const needs = needsOf(input.pipeline, source, mine);
      for (const stage of [...new Set(needs.map((n) => n.stage))]) {
        const ranges = needs.filter((n) => n.stage === stage);
        const base = { connectionId: connection.id, source, stage };
        if (!isDated(spec)) {
          const again = planned.some((p) => p.connectionId === connection.id && p.source === source);
          if (!again && !covered(input.recent, connection.id, source)) planned.push({ ...base, from: null, to: null });
          continue;
        }
        const wanted = mergeRanges(
          ranges.map((r) => r.range ?? { from: addDays(today, -maxDays), to: addDays(today, -1) }),
        );
        const recent = input.recent.filter(
          (r) => r.connectionId === connection.id && r.source === source && r.from !== null,
        );
        const rest = subtractRanges(
          wanted,
          recent.map((r) => ({ from: r.from!, to: r.to! })),
        );
        planned.push(...clampAndChunk(spec, rest, today, maxDays).map((r) => ({ ...base, ...r })));
      }
    }
  }
  return planned;
}

/** The longest window one request of the spec may cover. */
function maxDaysOf(spec: FetchSpec): number {
  if (spec.kind === 'ads-report') return spec.maxDays;
  if (spec.kind === 'report') return spec.maxDays ?? 366;
  return 366;
}

/** The dated ranges (null: the table's whole, a snapshot) that the owners of a source ask for, by stage. */
function needsOf(
  pipeline: Pipeline,
  source: string,
  windows: PlannedWindow[],
): { stage: InitialStage | null; range: DateRange | null }[] {
  const readers = pipeline.tables.filter((t) => t.sources.includes(source));
  const own = readers.filter((t) => !t.fetchPeriods.some((p) => p.type === 'CONTINUOUS'));
  const owners = new Set((own.length > 0 ? own : readers).map((t) => t.name));
  return windows
    .filter((w) => owners.has(w.table))
    .map((w) => ({ stage: w.stage, range: w.from === null ? null : { from: w.from, to: w.to! } }));
}

const covered = (recent: RecentFetch[], connectionId: string, source: string) =>
  recent.some((r) => r.connectionId === connectionId && r.source === source && r.from === null);

/** Ranges cut to what the marketplace keeps (the rest marked unavailable) and into requests, newest first. */
function clampAndChunk(
  spec: FetchSpec,
  ranges: DateRange[],
  today: string,
  maxDays: number,
): { from: string; to: string; unavailable?: string }[] {
  const keptDays =
    spec.kind === 'ads-report' ? spec.retentionDays : spec.kind === 'report' ? spec.historyDays : undefined;
  // One day of margin: a long run (or the marketplace's clock in another zone) may already be a day further.
  const oldest = keptDays === undefined ? null : addDays(today, 2 - keptDays);
  const out: { from: string; to: string; unavailable?: string }[] = [];
  for (const range of [...ranges].sort((a, b) => (a.from < b.from ? 1 : -1))) {
    if (range.from > today) continue;
    const to = range.to > today ? today : range.to;
    let from = range.from;
    if (oldest !== null && from < oldest) {
      const unavailableTo = to < oldest ? to : addDays(oldest, -1);
      out.push({
        from,
        to: unavailableTo,
        unavailable: `the marketplace keeps ${keptDays} days of this source: dates before ${oldest} cannot be fetched`,
      });
      if (to < oldest) continue;
      from = oldest;
    }
    for (let end = to; end >= from; end = addDays(end, -maxDays)) {
      const start = addDays(end, 1 - maxDays);
      out.push({ from: start < from ? from : start, to: end });
    }
  }
  return out.sort((a, b) => (a.unavailable ? 1 : 0) - (b.unavailable ? 1 : 0) || (a.to < b.to ? 1 : -1));
}
