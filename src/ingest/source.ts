import type { DuckDBConnection } from '@duckdb/node-api';
import type { FetchSpec } from './fetch-spec.ts';

/** The connection a file is landed for, with what lineage needs of it. */
export interface LandingConnection {
  id: string;
  marketplaceId: string;
}

/** What a source needs to land one file. */
export interface LandContext {
  sql: DuckDBConnection;
  /** Path DuckDB reads: the original file, or its UTF-8 transcoding. */
  path: string;
  fileName: string;
  fileId: string;
  landedAt: string;
  connection: LandingConnection;
}

/** A file of a batch: where it is, its id and landing time, and its connection. */
export type BatchFile = Pick<LandContext, 'path' | 'fileId' | 'landedAt' | 'connection'>;

/**
 * An upstream source (docs/design/INGEST.md): one folder under src/ingest/sources/ each, named as the source is, that
 * declares how it is fetched, its format and how it lands.
 * `stage` (if any) runs before the caller's transaction, `land` inside it; either throws RefusedFile for a bad file.
 */
export interface Source {
  /** The marketplace's report type or operation name, as on the CLI and in landing/. */
  name: string;
  /** Schema-qualified table the rows land in. */
  table: string;
  /** DDL that creates `table` if it does not exist. */
  createTable: string;
  /** How the source is fetched upstream; absent for one that comes from dropped files only. */
  fetch?: FetchSpec;
  /**
   * Reads the file into a temp table for `land`, before the transaction: DuckDB reads a temp table made inside a
   * transaction back at about half the speed of one made outside. The caller
   * drops it.
   */
  stage?(ctx: LandContext): Promise<StagedFile>;
  /** Lands the rows; `staged` is what `stage` returned, for a source that has it. */
  land(ctx: LandContext, staged?: StagedFile): Promise<number>;
  /**
   * Lands several files at once, inside the caller's transaction (ingest/land-files.ts). `key` says which files may
   * land together (those with the same key; null: this one lands on its own); `land` returns each one's rows by file
   * id, and throws for any bad file: the caller then lands them one by one, where the bad one is named.
   * A source whose `land` does more than another's (checks, other tables) must not take that one's `batch`.
   */
  batch?: {
    key(file: Pick<BatchFile, 'path' | 'connection'>): string | null;
    land(sql: DuckDBConnection, key: string, files: BatchFile[]): Promise<Map<string, number>>;
  };
  /**
   * Derives the webhook events of what this file changed (webhooks/outbox.ts `appendEvents`), inside the same
   * transaction as `land`: an event exists if and only if its change was committed.
   */
  events?(ctx: LandContext): Promise<void>;
}

/** A file refused whole: where and why. */
export class RefusedFile extends Error {
  constructor(
    readonly line: number | null,
    readonly reason: string,
  ) {
    super(reason);
    this.name = 'RefusedFile';
  }
}

/**
 * A file read into a temporary table `stage` (text columns f0…, or the raw table's typed ones), with its header
 * mapped to canonical columns.
 */
export interface StagedFile {
  stage: string;
  /** canonical column → stage column, for the columns present in the header */
  present: Map<string, string>;
  /** unknown header name → stage column */
  extra: Map<string, string>;
  /** A stage column already holding the unknown fields as JSON text (JSON sources). */
  extraJson?: string;
  /** SQL expression of a stage row's line number in the file (header = line 1). */
  line: string;
  /** Reads the file into the stage again, after a failed statement rolled the transaction back. */
  restage(): Promise<void>;
  drop(): Promise<void>;
}
