import type { Warehouse } from '../../db/warehouse.ts';
import { refusalText, type LandResult } from '../../ingest/land-file.ts';
import type { AdsApiClient } from '../../connectors/ads-api.ts';
import type { Clock } from '../../time/clock.ts';
import type { SpApiClient } from '../../connectors/sp-api.ts';
import { renameSync } from 'node:fs';
import { basename } from 'node:path';
import { documentPath, writeSidecar } from './document-file.ts';
import type { FetchRequest, FetchUpdate } from './fetch-requests.ts';

/** What a fetch handler works with: its connection, clients, the clock, and the landing of what it downloads. */
export interface HandlerContext {
  wh: Warehouse;
  clock: Clock;
  connection: { id: string; marketplaceId: string; timezone: string; sellingPartnerId: string | null };
  sp?: SpApiClient;
  ads?: AdsApiClient;
  /** Lands a document written to the landing folder and archives it (with the run's other waiting documents). */
  land(file: string): Promise<LandResult>;
  /** Records the request's progress. */
  update(change: FetchUpdate): Promise<void>;
  /** Adds requests found on the way (settlement reports of a listing); they run in the same fetch. */
  spawn(requests: FetchRequest[]): void;
  /** How long (clock ms) a report may stay processing before it is left in flight for a later run to resume. */
  pollBudgetMs: number;
}

/** How a request ended in this run. */
export type Outcome =
  | { status: 'landed'; documents: number; rows: number; results: LandResult[]; processingMs?: number }
  | { status: 'empty'; reason: string }
  | { status: 'pending' };

/** A report the marketplace failed to generate (FATAL, FAILED): retried after `coolDownMs`, unless it never can be. */
export class UpstreamFailure extends Error {
  constructor(
    message: string,
    readonly coolDownMs: number,
    readonly permanent = false,
  ) {
    super(message);
    this.name = 'UpstreamFailure';
  }
}

/** What landed documents gave; a document the ingest refused fails the request (kept in quarantine). */
export function summarize(results: LandResult[]): Outcome {
  const refused = results.find((r) => r.status === 'refused');
  if (refused && refused.status === 'refused')
    throw new UpstreamFailure(`the document was refused by the ingest: ${refusalText(refused)}`, 0, true);
  const rows = results.reduce((sum, r) => sum + (r.status === 'landed' ? r.rows : 0), 0);
  return { status: 'landed', documents: results.length, rows, results };
}

/** Lands downloaded documents (together, in their order) and sums up what they gave. */
export async function landAll(ctx: HandlerContext, files: string[]): Promise<Outcome> {
  return summarize(await Promise.all(files.map((file) => ctx.land(file))));
}

/**
 * Moves a downloaded report document into landing/ under its request's name, beside the sidecar of its request,
 * records the request as downloaded (a run killed now lands the file next time) and lands it.
 */
export async function keepAndLand(
  ctx: HandlerContext,
  request: FetchRequest,
  temp: string,
  name: { upstreamId: string; extension: string },
  sidecar: Record<string, unknown>,
): Promise<Outcome> {
  const file = documentPath(ctx.wh.home, request, { ...name, at: ctx.clock.now() });
  writeSidecar(file, request, { ...sidecar, downloadedAt: new Date(ctx.clock.now()).toISOString() });
  renameSync(temp, file);
  await ctx.update({ status: 'downloaded', fileName: basename(file) });
  return landAll(ctx, [file]);
}
