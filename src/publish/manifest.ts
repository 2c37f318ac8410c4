// What a publish records of the snapshot it wrote: the manifest beside the published file.

/** What a publish wrote. */
export interface PublishResult {
  path: string;
  tables: { name: string; rows: number }[];
  publishedAt: string;
  /**
   * the connections known when it was published: `mktdata export` reads them from the manifest, not the writer's file
   */
  connections: PublishedConnection[];
  /** this snapshot's id; the warehouse keeps the id of the last snapshot it published */
  snapshotId: string;
  /** the published file as it was written: a file changed since is not started from */
  file: { size: number; mtimeMs: number };
  /** whether it started from the previous snapshot and replaced only what changed since */
  incremental: boolean;
}

/** A connection as the manifest records it. */
export interface PublishedConnection {
  id: string;
  organizationId: string;
  type: string;
  marketplaceId: string;
}
