import { resolve, join } from 'node:path';

/** Paths inside a mktdata home folder (ARCHITECTURE.md, "The home folder"). */
export interface Home {
  root: string;
  warehouse: string;
  writerFile: string;
  publishedDir: string;
  published: string;
  landing: string;
  /** where landed documents are archived under their file id (the source of truth a build can be redone from) */
  landed: string;
  quarantine: string;
  exports: string;
  files: string;
  tmp: string;
  /** scale-out: the shared folder of the shards' published snapshots, which exports read instead of `published` */
  shards?: string;
}

/**
 * Resolves the home folder from an explicit option, then MKTDATA_HOME.
 * @default './.mktdata'
 */
export function resolveHome(option?: string): Home {
  const root = resolve(option ?? process.env.MKTDATA_HOME ?? '.mktdata');
  return {
    root,
    warehouse: join(root, 'warehouse.duckdb'),
    writerFile: join(root, 'writer.json'),
    publishedDir: join(root, 'published'),
    published: join(root, 'published', 'warehouse.duckdb'),
    landing: join(root, 'landing'),
    landed: join(root, 'landed'),
    quarantine: join(root, 'quarantine'),
    exports: join(root, 'exports'),
    files: join(root, 'files'),
    tmp: join(root, 'tmp'),
  };
}
