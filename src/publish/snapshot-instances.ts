import { statSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';

/** A published file opened read-only, and how many readers are using it. */
interface Opened {
  file: string;
  /** the file's inode, size and time when opened: a publish renames another file into place */
  version: string;
  /** the inodes of `file` seen around its opening (a publish may rename another file into place meanwhile) */
  inodes: Set<number>;
  instance: Promise<DuckDBInstance>;
  users: number;
  retired: boolean;
  idle?: NodeJS.Timeout;
}

/** The open instance of each published file, by path. */
const opened = new Map<string, Opened>();

/** Every instance not yet closed, retired ones included. */
const live = new Set<Opened>();

/**
 * Whether an instance of this process may have the file of inode `ino` open: a publish must not write into it (file
 * locks keep other processes' readers out, not this one's).
 */
export const openHere = (ino: number) => held.has(ino) || [...live].some((entry) => entry.inodes.has(ino));

/** Inodes of published files attached by instances of their own (the query sandbox), with how many hold each. */
const held = new Map<number, number>();

/**
 * Marks the published `file` open in this process while an instance of its own attaches it (the query sandbox,
 * src/mcp/query), so that a publish here does not write into it once it becomes the spare. Call `seen` after the
 * attach (a publish may rename another file into place meanwhile) and `release` when the instance is closed.
 */
export function holdPublishedFile(file: string): { seen(): void; release(): void } {
  const inodes = new Set<number>();
  const add = () => {
    const ino = statSync(file, { throwIfNoEntry: false })?.ino;
    if (ino === undefined || inodes.has(ino)) return;
    inodes.add(ino);
    held.set(ino, (held.get(ino) ?? 0) + 1);
  };
  add();
  return {
    seen: add,
    release() {
      for (const ino of inodes) {
        const left = (held.get(ino) ?? 1) - 1;
        if (left > 0) held.set(ino, left);
        else held.delete(ino);
      }
      inodes.clear();
    },
  };
}

/** How long an instance no reader uses stays open. */
const IDLE_MS = 30_000;

/**
 * Runs `work` on a read-only DuckDB instance of the published `file`, shared by this process's readers: opening one
 * per export and closing it after (freeing its buffers on the event loop) cost more than a large export's own
 * bookkeeping. Another
 * file renamed into place (a publish) is opened anew; the instance of the old one closes when its last reader is
 * done, and an instance closes after IDLE_MS unused (the old file's space is freed then).
 */
export async function withPublishedInstance<T>(
  file: string,
  options: Record<string, string>,
  work: (instance: DuckDBInstance) => Promise<T>,
): Promise<T> {
  const { ino, size, mtimeMs } = statSync(file);
  const version = `${ino}/${size}/${mtimeMs}`;
  let entry = opened.get(file);
  if (entry && entry.version !== version) retire(entry);
  entry = opened.get(file);
  if (!entry) {
    const inodes = new Set([ino]);
    const instance = DuckDBInstance.create(file, { ...options, access_mode: 'READ_ONLY' }).finally(() => {
      const now = statSync(file, { throwIfNoEntry: false });
      if (now) inodes.add(now.ino);
    });
    entry = { file, version, inodes, instance, users: 0, retired: false };
    opened.set(file, entry);
    live.add(entry);
  }
  const used = entry;
  clearTimeout(used.idle);
  used.users++;
  try {
    const instance = await used.instance.catch((error: unknown) => {
      retire(used);
      throw error;
    });
    return await work(instance);
  } finally {
    used.users--;
    if (used.users === 0) {
      if (used.retired) close(used);
      else used.idle = setTimeout(() => retire(used), IDLE_MS).unref();
    }
  }
}

function retire(entry: Opened): void {
  entry.retired = true;
  if (opened.get(entry.file) === entry) opened.delete(entry.file);
  if (entry.users === 0) close(entry);
}

function close(entry: Opened): void {
  clearTimeout(entry.idle);
  void entry.instance
    .then(
      (instance) => instance.closeSync(),
      () => {},
    )
    .finally(() => live.delete(entry));
}
