import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';

/** A file as a backup's manifest records it. */
export interface CopiedFile {
  /** Its path inside the home (and the backup), with `/` between folders. */
  path: string;
  size: number;
  sha256: string;
  /** Its permission bits (a 0600 key or config stays 0600). */
  mode: number;
  mtimeMs: number;
}

/**
 * Copies `from` to `to` (a new file, `mode`), streaming, hashing what it copies, and syncs it to disk; returns its
 * size and sha256. The hash is of the bytes written, so a file that changed while copied cannot pass as its old self.
 */
export async function copyHashed(from: string, to: string, mode = 0o600): Promise<{ size: number; sha256: string }> {
  mkdirSync(dirname(to), { recursive: true });
  const hash = createHash('sha256');
  let size = 0;
  await pipeline(
    createReadStream(from, { highWaterMark: 1 << 20 }),
    async function* (source: AsyncIterable<Buffer>) {
      for await (const chunk of source) {
        hash.update(chunk);
        size += chunk.length;
        yield chunk;
      }
    },
    createWriteStream(to, { flags: 'wx', mode }),
  );
  const written = await open(to, 'r+');
  try {
    await written.sync();
  } finally {
    await written.close();
  }
  return { size, sha256: hash.digest('hex') };
}

/** The sha256 of a file, streaming. */
export async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * Every regular file under `dir`, as paths relative to `base` with `/` separators, sorted; `skip` leaves out files by
 * name (files still being written). A missing folder has none.
 */
export function filesUnder(base: string, dir: string, skip: (name: string) => boolean = () => false): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(base, full, skip));
    else if (entry.isFile() && !skip(entry.name)) out.push(relative(base, full).split(sep).join('/'));
  }
  return out.sort();
}

/** Copies one file of a home into a backup or a home being restored, and describes it for the manifest. */
export async function copyInto(fromRoot: string, toRoot: string, path: string): Promise<CopiedFile> {
  const from = join(fromRoot, path);
  const { mode, mtimeMs } = statSync(from);
  const copied = await copyHashed(from, join(toRoot, path), mode & 0o777);
  return { path, ...copied, mode: mode & 0o777, mtimeMs };
}
