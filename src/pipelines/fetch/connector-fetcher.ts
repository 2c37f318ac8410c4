import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Warehouse } from '../../db/warehouse.ts';
import type { LandResult } from '../../ingest/land-file.ts';
import { landAndArchive } from '../../ingest/landing.ts';
import { planConnections } from '../run-history.ts';
import { appCredentials } from '../../connectors/config.ts';
import type { Connectors } from '../../connectors/connectors.ts';
import { readAllCredentials, type Api, type Credentials } from '../../connectors/credentials.ts';
import { executeFetches, type ConnectionContext, type FetchEvent } from './execute-fetches.ts';
import { fetchGaps, type FetchedConnection } from './fetch-gaps.ts';
import { insertFetches, pendingFetches, recentFetches, updateFetch, type FetchRequest } from './fetch-requests.ts';
import { fetchSpecs } from './fetch-specs.ts';
import { LandingQueue } from './landing-queue.ts';
import { runsLast } from './operations.ts';
import { planFetches } from './plan-fetches.ts';
import { upstreamRequest } from './upstream-request.ts';
import { type FetchPhase, type RunFetcher } from './fetch-stage.ts';
import { connectionAccounts } from '../../control/connections/connections.ts';
import { landedRowCount } from '../../control/landed-files.ts';

export interface FetcherOptions {
  onFetched?: (event: FetchEvent) => void;
  /** When a request's document is downloaded, before it lands with the fetch's other documents. */
  onDownloaded?: (request: FetchRequest) => void;
  /** Said once per fetch when connections hold credentials of an API whose application is not configured. */
  onWarning?: (message: string) => void;
  /** After fetched documents landed together, with the real milliseconds their landing took. */
  onLanded?: (results: LandResult[], ms: number) => void;
  /** Each fetched document's landing result, with its source. */
  onDocumentLanded?: (result: LandResult & { source: string }) => void;
  /** How long a report may keep processing before this run leaves it to the next. @default 45 minutes */
  pollBudgetMs?: number;
}

interface LiveConnection {
  id: string;
  timezone: string;
  marketplaceId: string;
  credentials: Partial<Record<Api, Credentials>>;
}

const apiName = (api: Api) => (api === 'sp-api' ? 'SP-API' : 'Ads API');

/**
 * Connections with active credentials of a configured application (live), with their time zones and marketplaces;
 * and every connection with credentials, with why those the run cannot use are not tried.
 */
async function liveConnections(
  wh: Warehouse,
  connectors: Connectors,
  warn?: (message: string) => void,
): Promise<{ live: Map<string, LiveConnection>; fetched: FetchedConnection[] }> {
  const stored = await readAllCredentials(wh);
  const unconfigured = new Map<Api, string>();
  for (const api of ['sp-api', 'ads'] as const) {
    try {
      appCredentials(connectors.config, api);
    } catch (error) {
      unconfigured.set(api, (error as Error).message);
      if ([...stored.values()].some((c) => c[api]))
        warn?.(`${(error as Error).message}; connections with ${api} credentials are not fetched`);
    }
  }
  const zones = new Map((await planConnections(wh)).map((c) => [c.id, c.timezone]));
  const marketplaces = new Map(
    (await connectionAccounts(wh.db)).map((c) => [c.id, c.marketplace_id]),
  );
  const live = new Map<string, LiveConnection>();
  const fetched: FetchedConnection[] = [];
  for (const [id, byApi] of stored) {
    const blocked = new Map<Api, string>();
    for (const [api, c] of Object.entries(byApi) as [Api, Credentials][]) {
      if (unconfigured.has(api)) blocked.set(api, `not tried: ${unconfigured.get(api)}`);
      else if (c.status !== 'active')
        blocked.set(
          api,
          `not tried: the ${apiName(api)} grant needs re-authorization (${c.statusReason ?? 'refused by the marketplace'}); connect the seller again or store a new refresh token`,
        );
    }
    const timezone = zones.get(id) ?? 'UTC';
    fetched.push({ id, timezone, apis: new Set(Object.keys(byApi) as Api[]), blocked });
    const active = Object.fromEntries(
      Object.entries(byApi).filter(([api]) => !blocked.has(api as Api)),
    ) as LiveConnection['credentials'];
    if (Object.keys(active).length > 0)
      live.set(id, { id, timezone, marketplaceId: marketplaces.get(id)!, credentials: active });
  }
  return { live, fetched };
}

/**
 * A request downloaded before a run was killed: its document waited in landing/ and the run's first step landed it.
 * Recorded as landed from the ingest's own record (or landed now if it is still waiting).
 */
async function settleDownloaded(wh: Warehouse, request: FetchRequest, connection: LiveConnection): Promise<boolean> {
  if (request.status !== 'downloaded' || !request.fileName) return false;
  const waiting = join(wh.home.landing, request.connectionId, request.source, request.fileName);
  if (existsSync(waiting)) await landAndArchive(wh, connection, request.source, waiting);
  const landed = await landedRowCount(wh.db, request.connectionId, request.fileName);
  await updateFetch(
    wh,
    request.id,
    landed !== undefined
      ? { status: 'landed', rows: Number(landed), documents: 1, finishedAt: new Date().toISOString() }
      : {
          status: 'failed',
          error: 'the downloaded document was not landed',
          retryAt: new Date().toISOString(),
          upstreamId: null,
        },
  );
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
      const { live } = await liveConnections(wh, connectors, options.onWarning);
      let failed = 0;
      const onFetched = (event: FetchEvent) => {
        if (event.status === 'failed' || event.status === 'abandoned') failed += 1;
        options.onFetched?.(event);
      };
      const landed = live.size === 0 ? [] : await fetchLive(wh, phase, live, onFetched);
      // (Read again: a grant the marketplace refused during the fetch is now one that needs re-authorization.)
      const { fetched } = await liveConnections(wh, connectors);
      return { landed, failed, gaps: await fetchGaps(wh, phase, fetched) };
    },
  };

  /** Resumes, plans and runs the phase's requests for the live connections; returns what landed. */
  async function fetchLive(
    wh: Warehouse,
    phase: FetchPhase,
    live: Map<string, LiveConnection>,
    onFetched: (event: FetchEvent) => void,
  ): Promise<LandResult[]> {
    const inPipeline = (r: FetchRequest) => r.source in phase.pipeline.sources && live.has(r.connectionId);
    const resumed = phase.first ? (await pendingFetches(wh, phase.now)).filter(inPipeline) : [];
    const open: FetchRequest[] = [];
    for (const request of resumed)
      if (!(await settleDownloaded(wh, request, live.get(request.connectionId)!))) open.push(request);
    const planned = planFetches({
      pipeline: phase.pipeline,
      windows: phase.windows,
      connections: [...live.values()].map((c) => ({
        id: c.id,
        timezone: c.timezone,
        apis: new Set(Object.keys(c.credentials) as Api[]),
      })),
      specs: fetchSpecs,
      now: phase.now,
      recent: await recentFetches(wh, phase.now),
    });
    const created = await insertFetches(
      wh,
      phase.runId,
      planned.map((p) => ({
        ...p,
        request: upstreamRequest(fetchSpecs.get(p.source)!, p, live.get(p.connectionId)!, phase.now.getTime()),
      })),
      phase.now,
    );
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
          connection: {
            id: connection.id,
            marketplaceId: connection.marketplaceId,
            timezone: connection.timezone,
            sellingPartnerId: credentials.sellingPartnerId,
          },
          ...(api === 'ads' ? { ads: connectors.ads(credentials) } : { sp: connectors.sp(credentials) }),
          pollBudgetMs: options.pollBudgetMs ?? 45 * 60_000,
        });
      }
      return clients.get(key)!;
    };
    const all = [...open, ...created];
    const landing = new LandingQueue(wh, {
      after: phase.landAfter,
      onDownloaded: options.onDownloaded,
      onLanded: options.onLanded,
      onDocumentLanded: options.onDocumentLanded,
    });
    const execute = { wh, clock: connectors.clock, contextOf, landing, onFetched };
    const results = await executeFetches(
      execute,
      all.filter((r) => !runsLast.has(r.source)),
    );
    // The last ones read what landed (the seller's listings), through the warehouse's connection: after the build
    // this fetch runs beside, even when nothing before them had a document to land.
    const last = all.filter((r) => runsLast.has(r.source));
    if (last.length > 0) await phase.landAfter;
    results.push(...(await executeFetches(execute, last)));
    return results;
  }
}
