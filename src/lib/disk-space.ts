import { statfs } from 'node:fs/promises';
import { MktdataError } from '../errors.ts';

// The free space of the home's disk, read by `/ready`, the metrics and `mktdata doctor` alike, and the one threshold
// below which the home counts as short of room (MKTDATA_MIN_FREE_DISK, docs/operations.md).

/** Bytes an unprivileged process may still write on the file system that holds `path`. */
export async function freeBytes(path: string): Promise<number> {
  const s = await statfs(path);
  return s.bavail * s.bsize;
}

/** Bytes of each unit a size may be written in (`2GB`, `1536MiB`, `500 MB`). */
const units: Record<string, number> = {
  b: 1,
  kb: 1e3,
  mb: 1e6,
  gb: 1e9,
  tb: 1e12,
  kib: 2 ** 10,
  mib: 2 ** 20,
  gib: 2 ** 30,
  tib: 2 ** 40,
};

/** A size such as `2GB` or `1536MiB` in bytes; anything else is refused naming `where`. */
export function parseSize(text: string, where: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*([a-z]+)$/i.exec(text.trim());
  const unit = m ? units[m[2]!.toLowerCase()] : undefined;
  if (!m || unit === undefined)
    throw new MktdataError('ERR_INPUT_INVALID', { where, reason: `"${text}" is not a size such as 2GB or 1536MiB` });
  return Math.round(Number(m[1]) * unit);
}

/** The free space below which the home is short of room: MKTDATA_MIN_FREE_DISK, else 1 GB. */
export function minFreeBytes(env: NodeJS.ProcessEnv = process.env): number {
  const text = env.MKTDATA_MIN_FREE_DISK?.trim();
  return text ? parseSize(text, 'MKTDATA_MIN_FREE_DISK') : 1e9;
}
