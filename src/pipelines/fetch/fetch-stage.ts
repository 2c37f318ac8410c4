import type { Warehouse } from '../../db/warehouse.ts';
import type { LandResult } from '../../ingest/land-file.ts';
import type { Pipeline } from '../pipeline-config.ts';
import type { PlannedWindow } from '../plan.ts';

// The contract between a pipeline run and its fetch stage: what the run asks for, what a fetch answers.

/**
 * Fetches what a phase's windows need from the marketplace and lands it (the live connectors); a run without one
 * lands dropped files only.
 */
export interface RunFetcher {
  /** The time fetching lives by (the run plans with it too). */
  now(): Date;
  /** Fetches and lands; returns what landed, how many requests failed, and what the phase's windows still lack. */
  fetch(wh: Warehouse, phase: FetchPhase): Promise<FetchOutcome>;
}

/** What one fetch of a run did. */
export interface FetchOutcome {
  /** The landing results of the documents fetched. */
  landed: LandResult[];
  /** Requests that failed or were given up in this fetch. */
  failed: number;
  /** Ranges of a connection's source whose data has not come: the windows that read them are not done. */
  gaps: FetchGap[];
}

/** A range of one source of a connection that a fetch could not bring (`from` null: the whole source). */
export interface FetchGap {
  connectionId: string;
  source: string;
  from: string | null;
  to: string | null;
  /** Why, in words the seller or operator can act on. */
  reason: string;
}

/** What one fetch of a run is for. */
export interface FetchPhase {
  runId: string;
  pipeline: Pipeline;
  windows: PlannedWindow[];
  now: Date;
  /** The run's first fetch (it resumes what a killed run left in flight). */
  first: boolean;
  /**
   * Documents land only once this settles: a first load's history downloads while its first stage builds, and lands
   * after it. Until then the fetch uses only the control connection (`wh.db`), never `wh.sql`, whose transactions
   * the build holds.
   */
  landAfter?: Promise<void>;
}
