import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, resolve, join } from 'node:path';
import { MktdataError } from './errors.ts';

/** Paths inside a mktdata home folder (docs/design/ARCHITECTURE.md, "The home folder"). */
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

/**
 * Creates a folder and the missing folders above it, or says plainly why it cannot (a file in the way, no
 * permission, a read-only or virtual file system). Node's own recursive mkdir never returns on some paths (under
 * /proc), so each level is made here.
 */
export function ensureFolder(dir: string): void {
  if (existsSync(dir)) {
    if (!statSync(dir).isDirectory())
      throw new MktdataError('ERR_INPUT_INVALID', { where: dir, reason: 'is a file, not a folder' });
    return;
  }
  const parent = dirname(dir);
  if (parent !== dir) ensureFolder(parent);
  try {
    mkdirSync(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'EACCES' || code === 'EPERM'
        ? 'permission denied'
        : code === 'EROFS'
          ? 'read-only file system'
          : code === 'ENOENT'
            ? 'this file system does not allow new folders here'
            : (error as Error).message;
    throw new MktdataError(
      'ERR_INPUT_INVALID',
      { where: dir, reason: `cannot create the folder: ${why}` },
      { cause: error },
    );
  }
}

/** The request record the connectors write beside a fetched document (`<file>.sidecar.json`). */
export const sidecarOf = (file: string): string => `${file}.sidecar.json`;
