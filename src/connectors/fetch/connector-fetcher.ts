import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Warehouse } from '../../db/warehouse.ts';
import type { LandResult } from '../../ingest/land-file.ts';
import { landAndArchive, landDocuments, type WaitingDocument } from '../../pipelines/landing.ts';
import { planConnections } from '../../pipelines/run-history.ts';
import type { FetchPhase, RunFetcher } from '../../pipelines/run-pipeline.ts';
import { appCredentials } from '../config.ts';
import type { Connectors } from '../connectors.ts';
import { readAllCredentials, type Api, type Credentials } from '../credentials.ts';
import { executeFetches, type ConnectionContext, type FetchEvent } from './execute-fetches.ts';
import { insertFetches, pendingFetches, recentFetches, updateFetch, type FetchRequest } from './fetch-requests.ts';
import { fetchSpecs } from './fetch-specs.ts';
import { runsLast } from './operations.ts';
import { planFetches } from './plan-fetches.ts';
import { upstreamRequest } from './upstream-request.ts';

export interface FetcherOptions {
  onFetched?: (event: FetchEvent) => void;
  /** When a request's document is downloaded, before it lands with the fetch's other documents. */
  onDownloaded?: (request: FetchRequest) => void;
  /** Said once per fetch when connections hold credentials of an API whose application is not configured. */
  onWarning?: (message: string) => void;
  /** After fetched documents landed together, with the real milliseconds their landing took. */
  onLanded?: (results: LandResult[], ms: number) => void;
  /** How long a report may keep processing before this run leaves it to the next. @default 45 minutes */
  pollBudgetMs?: number;
}

interface LiveConnection {
  id: string;
  timezone: string;
  marketplaceId: string;
  credentials: Partial<Record<Api, Credentials>>;
}

/** Connections with active credentials of a configured application, with their time zones and marketplaces. */
async function liveConnections(wh: Warehouse, connectors: Connectors, warn?: (message: string) => void): Promise<Map<string, LiveConnection>> {
  const stored = await readAllCredentials(wh);
  const configured = new Set<Api>();
  for (const api of ['sp-api', 'ads'] as const) {
    try {
      appCredentials(connectors.config, api);
      configured.add(api);
    } catch (error) {
      if ([...stored.values()].some((c) => c[api])) warn?.(`${(error as Error).message}; connections with ${api} credentials are not fetched`);
    }
  }
  const zones = new Map((await planConnections(wh)).map((c) => [c.id, c.timezone]));
  const marketplaces = new Map((await wh.db.selectFrom('control.connections').select(['id', 'marketplace_id']).execute()).map((c) => [c.id, c.marketplace_id]));
  const live = new Map<string, LiveConnection>();
  for (const [id, byApi] of stored) {
    const active = Object.fromEntries(Object.entries(byApi).filter(([api, c]) => c.status === 'active' && configured.has(api as Api))) as LiveConnection['credentials'];
    if (Object.keys(active).length > 0) live.set(id, { id, timezone: zones.get(id) ?? 'UTC', marketplaceId: marketplaces.get(id)!, credentials: active });
  }
  return live;
}

/**
 * A request downloaded before a run was killed: its document waited in landing/ and the run's first step landed it.
 * Recorded as landed from the ingest's own record (or landed now if it is still waiting).
 */
async function settleDownloaded(wh: Warehouse, request: FetchRequest, connection: LiveConnection): Promise<boolean> {
  if (request.status !== 'downloaded' || !request.fileName) return false;
  const waiting = join(wh.home.landing, request.connectionId, request.source, request.fileName);
  if (existsSync(waiting)) await landAndArchive(wh, connection, request.source, waiting);
  const landed = await wh.db.selectFrom('control.landed_files').select(['row_count']).where('connection_id', '=', request.connectionId).where('file_name', '=', request.fileName).executeTakeFirst();
  await updateFetch(wh, request.id, landed ? { status: 'landed', rows: Number(landed.row_count), documents: 1, finishedAt: new Date().toISOString() } : { status: 'failed', error: 'the downloaded document was not landed', retryAt: new Date().toISOString(), upstreamId: null });
  return true;
}

/**
 * The live connectors as a pipeline run's fetcher: for every connection with credentials, resumes what a killed run
 * left in flight and retries failed requests whose cool-down passed (first phase), plans the requests the phase's
 * windows need, runs them, and lands the documents they download together (see `executeFetches`).
 */
export function connectorFetcher(connectors: Connectors, options: FetcherOptions = {}): RunFetcher {
  return {
    now: () => new Date(connectors.clock.now()),
    async fetch(wh, phase: FetchPhase) {
      const live = await liveConnections(wh, connectors, options.onWarning);
      if (live.size === 0) return [];
      const inPipeline = (r: FetchRequest) => r.source in phase.pipeline.sources && live.has(r.connectionId);
      const resumed = phase.first ? (await pendingFetches(wh, phase.now)).filter(inPipeline) : [];
      const open: FetchRequest[] = [];
      for (const request of resumed) if (!(await settleDownloaded(wh, request, live.get(request.connectionId)!))) open.push(request);
      const planned = planFetches({
        pipeline: phase.pipeline,
        windows: phase.windows,
        connections: [...live.values()].map((c) => ({ id: c.id, timezone: c.timezone, apis: new Set(Object.keys(c.credentials) as Api[]) })),
        specs: fetchSpecs,
        now: phase.now,
        recent: await recentFetches(wh, phase.now),
      });
      const created = await insertFetches(wh, phase.runId, planned.map((p) => ({ ...p, request: upstreamRequest(fetchSpecs.get(p.source)!, p, live.get(p.connectionId)!, phase.now.getTime()) })), phase.now);
      const clients = new Map<string, ConnectionContext>();
      const contextOf = (request: FetchRequest): ConnectionContext | null => {
        const connection = live.get(request.connectionId);
        const api = fetchSpecs.get(request.source)?.api;
        const credentials = api ? connection?.credentials[api] : undefined;
        if (!connection || !credentials) return null;
        const key = `${connection.id}/${api}`;
        if (!clients.has(key)) {
          clients.set(key, {
            wh,
            clock: connectors.clock,
            connection: { id: connection.id, marketplaceId: connection.marketplaceId, timezone: connection.timezone, sellingPartnerId: credentials.sellingPartnerId },
            ...(api === 'ads' ? { ads: connectors.ads(credentials) } : { sp: connectors.sp(credentials) }),
            pollBudgetMs: options.pollBudgetMs ?? 45 * 60_000,
          });
        }
        return clients.get(key)!;
      };
      const all = [...open, ...created];
      const land = async (documents: WaitingDocument[]) => {
        await phase.landAfter;
        const started = performance.now();
        const results = await landDocuments(wh, documents);
        options.onLanded?.(results, performance.now() - started);
        return results;
      };
      const execute = { wh, clock: connectors.clock, contextOf, land, onFetched: options.onFetched, onDownloaded: options.onDownloaded };
      const results = await executeFetches(execute, all.filter((r) => !runsLast.has(r.source)));
      // The last ones read what landed (the seller's listings), through the warehouse's connection: after the build
      // this fetch runs beside, even when nothing before them had a document to land.
      const last = all.filter((r) => runsLast.has(r.source));
      if (last.length > 0) await phase.landAfter;
      results.push(...(await executeFetches(execute, last)));
      return results;
    },
  };
}
