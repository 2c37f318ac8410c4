import type { Warehouse } from '../../db/warehouse.ts';
import type { LandResult } from '../../ingest/land-file.ts';
import type { Clock } from '../../time/clock.ts';
import { ConnectorError } from '../../connectors/connector-error.ts';
import { markNeedsReauthorization } from '../../connectors/credentials.ts';
import { fetchAdsReport } from './ads-report.ts';
import { MAX_ATTEMPTS, updateFetch, type FetchRequest, type FetchUpdate } from './fetch-requests.ts';
import { UpstreamFailure, type HandlerContext, type Outcome } from './handler.ts';
import type { LandingQueue } from './landing-queue.ts';
import { fetchOperation } from './operations.ts';
import { listSettlements, fetchSettlement } from './settlements.ts';
import { fetchSpReport } from './sp-report.ts';

/** What one finished request tells the caller (printed by `mktdata run`). */
export interface FetchEvent {
  request: FetchRequest;
  status: 'landed' | 'empty' | 'pending' | 'failed' | 'abandoned';
  rows: number;
  error: string | null;
  /** A report's processing time at the marketplace (its creation to its end, as the marketplace stamps them). */
  reportProcessingMs?: number;
}

/** The per-connection part of a handler's context. */
export type ConnectionContext = Omit<HandlerContext, 'update' | 'spawn' | 'land'>;

export interface ExecuteOptions {
  wh: Warehouse;
  clock: Clock;
  /** The context of a request's connection, or null when it has no active credentials for the request's API. */
  contextOf(request: FetchRequest): ConnectionContext | null;
  onFetched?: (event: FetchEvent) => void;
  /** Where downloaded documents wait to land together (a request's `onFetched` follows its landing). */
  landing: LandingQueue;
  /** Requests in progress at once (each waits on its seller's rate limits anyway). @default 32 */
  concurrency?: number;
}

/** Failures other than the marketplace's own (network, 5xx after retries, throttling) wait 5 minutes, doubling. */
const backoff = (attempts: number) => 5 * 60_000 * 2 ** Math.max(0, attempts - 1);

function dispatch(ctx: HandlerContext, request: FetchRequest): Promise<Outcome> {
  switch (request.request.kind) {
    case 'report':
      return fetchSpReport(ctx, request);
    case 'settlements':
      return listSettlements(ctx, request);
    case 'settlement':
      return fetchSettlement(ctx, request);
    case 'ads-report':
      return fetchAdsReport(ctx, request);
    case 'operation':
      return fetchOperation(ctx, request);
  }
}

/** The record of a request that failed, and whether later runs try again. */
async function failure(
  o: ExecuteOptions,
  request: FetchRequest,
  error: unknown,
): Promise<FetchUpdate & { status: 'failed' | 'abandoned' }> {
  const now = o.clock.now();
  const message = error instanceof Error ? error.message : String(error);
  const attempts = Math.max(1, request.attempts);
  if (error instanceof ConnectorError && error.kind === 'invalid-grant') {
    const api = request.request.kind === 'ads-report' ? 'ads' : 'sp-api';
    await markNeedsReauthorization(o.wh, request.connectionId, api, message);
    // Retried once the seller has connected again (the run skips connections whose credentials are not active).
    return { status: 'failed', error: message, retryAt: new Date(now).toISOString() };
  }
  // A request the marketplace calls invalid stays invalid: recorded, not asked again.
  const permanent =
    (error instanceof UpstreamFailure && error.permanent) ||
    (error instanceof ConnectorError && error.kind === 'invalid-input');
  if (permanent || attempts >= MAX_ATTEMPTS)
    return { status: 'abandoned', error: message, finishedAt: new Date(now).toISOString() };
  if (error instanceof UpstreamFailure) {
    // The report ended FATAL (or FAILED): the retry asks for a new one.
    return {
      status: 'failed',
      error: message,
      retryAt: new Date(now + error.coolDownMs).toISOString(),
      upstreamId: null,
    };
  }
  return { status: 'failed', error: message, retryAt: new Date(now + backoff(attempts)).toISOString() };
}

/** Runs one request to its end in this run and records how it ended. */
async function runOne(
  o: ExecuteOptions,
  base: ConnectionContext & Pick<HandlerContext, 'land'>,
  request: FetchRequest,
  spawn: (more: FetchRequest[]) => void,
): Promise<FetchEvent> {
  const update = (change: FetchUpdate) => updateFetch(o.wh, request.id, change);
  try {
    const outcome = await dispatch({ ...base, update, spawn }, request);
    const finishedAt = new Date(o.clock.now()).toISOString();
    if (outcome.status === 'landed') {
      await update({
        status: 'landed',
        documents: request.documents + outcome.documents,
        rows: outcome.rows,
        error: null,
        retryAt: null,
        finishedAt,
      });
      return { request, status: 'landed', rows: outcome.rows, error: null, reportProcessingMs: outcome.processingMs };
    }
    if (outcome.status === 'empty') {
      await update({ status: 'empty', error: outcome.reason, retryAt: null, finishedAt });
      return { request, status: 'empty', rows: 0, error: outcome.reason };
    }
    return { request, status: 'pending', rows: 0, error: null };
  } catch (error) {
    const change = await failure(o, request, error);
    await update(change);
    return { request, status: change.status, rows: 0, error: change.error ?? null };
  }
}

/** Documents waiting to land are landed together once this many wait, even while requests are still downloading. */
const MOST_WAITING = 256;

/**
 * Runs fetch requests concurrently (each seller's rate limits pace them), lands what they download, records how
 * each ended, and returns the landing results. Requests of connections without active credentials wait.
 *
 * Downloaded documents wait (on disk, their requests recorded as downloaded) and land together when no request is
 * left downloading, or when MOST_WAITING wait: one transaction per source and batch, as when landed by hand, not
 * one per document. A request waiting on its landing holds no place among the `concurrency` running.
 */
export async function executeFetches(o: ExecuteOptions, requests: FetchRequest[]): Promise<LandResult[]> {
  const queue = [...requests];
  const running = new Set<Promise<void>>();
  const landed: LandResult[] = [];
  const limit = o.concurrency ?? 32;
  const { landing } = o;
  let wake = () => {};
  landing.onWait(() => wake());
  const start = (request: FetchRequest) => {
    const base = o.contextOf(request);
    if (!base) return;
    const land = (file: string) => landing.land(request, base.connection, file);
    const task = runOne(o, { ...base, land }, request, (more) => queue.push(...more)).then((event) =>
      o.onFetched?.(event),
    );
    const tracked: Promise<void> = task.finally(() => running.delete(tracked));
    running.add(tracked);
  };
  while (queue.length > 0 || running.size > 0) {
    while (queue.length > 0 && running.size - landing.requestsWaiting < limit) start(queue.shift()!);
    if (landing.size > 0 && (running.size === landing.requestsWaiting || landing.size >= MOST_WAITING)) {
      landed.push(...(await landing.flush()));
      continue;
    }
    if (running.size > 0) await Promise.race([...running, new Promise<void>((resolve) => (wake = resolve))]);
  }
  return landed;
}
