import type { FetchStatus } from '../../db/control-plane.ts';
import type { InitialStage } from '../plan.ts';
import type { UpstreamRequest } from './upstream-request.ts';

// The shapes of a fetch request as the fetch stage sees it; its queries are in fetch-requests.ts.

/** A persisted fetch request (control.fetch_requests). */
export interface FetchRequest {
  id: string;
  runId: string | null;
  connectionId: string;
  source: string;
  stage: InitialStage | null;
  from: string | null;
  to: string | null;
  request: UpstreamRequest;
  upstreamId: string | null;
  status: FetchStatus;
  attempts: number;
  error: string | null;
  documents: number;
  requestedAt: string | null;
  fileName: string | null;
}

/** What a fetch request's progress changes. */
export type FetchUpdate = Partial<{
  status: FetchStatus;
  upstreamId: string | null;
  attempts: number;
  retryAt: string | null;
  error: string | null;
  documents: number;
  fileName: string | null;
  rows: number;
  requestedAt: string;
  finishedAt: string;
  request: UpstreamRequest;
}>;
