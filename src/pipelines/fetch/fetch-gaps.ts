import type { Warehouse } from '../../db/warehouse.ts';
import type { Api } from '../../connectors/credentials.ts';
import { goodFetches, unsettledFetches, type FetchRequest } from './fetch-requests.ts';
import { fetchSpecs } from './fetch-specs.ts';
import { planFetches } from './plan-fetches.ts';
import { type FetchGap, type FetchPhase } from './fetch-stage.ts';

/** A connection with stored credentials: its APIs, and why those it could not be fetched from were not tried. */
export interface FetchedConnection {
  id: string;
  timezone: string;
  apis: ReadonlySet<Api>;
  /** Per API with credentials that this run could not use (a lapsed grant, an application not configured). */
  blocked: ReadonlyMap<Api, string>;
}

const overlaps = (a: { from: string | null; to: string | null }, b: { from: string | null; to: string | null }) =>
  a.from === null || b.from === null || (a.from <= b.to! && b.from <= a.to!);

/** Why a request's data has not come, in a few words a seller can act on. */
function unsettledReason(request: FetchRequest): string {
  if (request.status === 'failed') return `failed: ${request.error} (retried by a later run)`;
  if (request.status === 'abandoned') return `gave up: ${request.error}`;
  return 'still processing upstream: a later run lands it';
}

/**
 * What a fetch phase's windows still lack after it ran (spec 000 "initialLoadProgress"; a window is done only when
 * its data came): for every connection with credentials, the ranges its windows need that no request has landed
 * (planned again against only the requests that settled well; ranges the marketplace no longer keeps are not
 * lacking), and the ranges of requests whose data has not come (in flight, failed, abandoned by this run).
 * Connections without credentials are fed by dropped files: nothing is fetched for them, and nothing lacks.
 */
export async function fetchGaps(
  wh: Warehouse,
  phase: FetchPhase,
  connections: FetchedConnection[],
): Promise<FetchGap[]> {
  if (connections.length === 0) return [];
  const good = await goodFetches(wh, phase.runId, phase.now);
  const unsettled = (
    await unsettledFetches(
      wh,
      phase.runId,
      connections.map((c) => c.id),
    )
  ).filter((r) => r.source in phase.pipeline.sources);
  const byId = new Map(connections.map((c) => [c.id, c]));
  const missing = planFetches({
    pipeline: phase.pipeline,
    windows: phase.windows,
    connections,
    specs: fetchSpecs,
    now: phase.now,
    recent: good,
  }).filter((p) => !p.unavailable);
  const gaps: FetchGap[] = missing.map((m) => {
    const api = fetchSpecs.get(m.source)!.api;
    const known = unsettled.find((r) => r.connectionId === m.connectionId && r.source === m.source && overlaps(r, m));
    const reason = byId.get(m.connectionId)!.blocked.get(api) ?? (known ? unsettledReason(known) : 'not fetched yet');
    return { connectionId: m.connectionId, source: m.source, from: m.from, to: m.to, reason };
  });
  for (const r of unsettled) {
    const reason = byId.get(r.connectionId)!.blocked.get(fetchSpecs.get(r.source)!.api) ?? unsettledReason(r);
    gaps.push({ connectionId: r.connectionId, source: r.source, from: r.from, to: r.to, reason });
  }
  return gaps;
}
