import { randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { quote } from '../../db/sql.ts';
import type { Home } from '../../home.ts';
import { publishedFiles } from '../../publish/open-snapshot.ts';
import { holdPublishedFile } from '../../publish/snapshot-instances.ts';

/** Threads of one sandbox: two sandboxes at once then keep to the cores of a small server. */
const SANDBOX_THREADS = '2';

/** How long a prepared instance waits for a call before it is closed (it keeps the snapshot file open). */
const SPARE_IDLE_MS = 30_000;

/** A fresh in-memory instance with the published snapshots attached, and nothing else yet. */
export interface AttachedSnapshots {
  sql: DuckDBConnection;
  /** each published table's sources, `<alias>.main.<table>` (one per shard that holds it) */
  sources: Map<string, string[]>;
  close(): void;
}

interface Spare {
  /**
   * the instance, and the published files' identities (path, inode, size, time) it attached; null when a publish
   * renamed a file into place meanwhile (which one it attached is then unknown)
   */
  ready: Promise<{ attached: AttachedSnapshots; version: string | null }>;
  idle: NodeJS.Timeout;
}

/** At most one prepared instance per home, never used twice. */
const spares = new Map<string, Spare>();

/**
 * A fresh instance with the home's published snapshots attached: the one prepared after the previous call
 * (`prepareSpare`) when it still attaches the current files, else a new one. A prepared instance holds no
 * organization's view or row (the views come after, for one call only), so preparing it ahead shares nothing between
 * organizations; it saves each call the instance's start-up and the attach, the bulk of a small query's time.
 */
export async function takeAttached(home: Home): Promise<AttachedSnapshots> {
  const spare = spares.get(home.root);
  spares.delete(home.root);
  if (spare) {
    clearTimeout(spare.idle);
    const ready = await spare.ready.catch(() => undefined);
    if (ready && ready.version !== null && ready.version === versionOf(home)) return ready.attached;
    ready?.attached.close();
  }
  return attach(home);
}

/** Closes the prepared instances (tests, shutdown). */
export async function closeSpares(): Promise<void> {
  const all = [...spares.values()];
  spares.clear();
  for (const spare of all) {
    clearTimeout(spare.idle);
    (await spare.ready.catch(() => undefined))?.attached.close();
  }
}

/**
 * Starts preparing the instance the home's next call takes. Call it once a call has answered: preparing meanwhile
 * would take the cores its statement runs on.
 */
export function prepareSpare(home: Home): void {
  if (spares.has(home.root)) return;
  const before = versionOf(home);
  const ready = attach(home).then((attached) => ({
    attached,
    version: before === versionOf(home) ? before : null,
  }));
  const idle = setTimeout(() => {
    if (spares.get(home.root) === spare) spares.delete(home.root);
    void ready.then(
      ({ attached }) => attached.close(),
      () => {},
    );
  }, SPARE_IDLE_MS).unref();
  const spare: Spare = { ready, idle };
  // Not published, or the file unreadable: no spare; the next call says why.
  void ready.catch(() => spares.get(home.root) === spare && spares.delete(home.root));
  spares.set(home.root, spare);
}

/** The published files' identities, or '' when there are none (ERR_NOT_PUBLISHED comes from `attach`). */
function versionOf(home: Home): string {
  try {
    return publishedFiles(home)
      .map(({ file }) => {
        const { ino, size, mtimeMs } = statSync(file);
        return `${file}:${ino}/${size}/${mtimeMs}`;
      })
      .join(',');
  } catch {
    return '';
  }
}

/** Creates an in-memory instance and attaches every published snapshot read-only under a random alias. */
async function attach(home: Home): Promise<AttachedSnapshots> {
  const files = publishedFiles(home);
  const holds: ReturnType<typeof holdPublishedFile>[] = [];
  const instance = await DuckDBInstance.create(':memory:', {
    threads: SANDBOX_THREADS,
    // No temporary directory: what does not fit in the memory cap fails instead of spilling to disk.
    temp_directory: '',
    max_temp_directory_size: '0KiB',
    autoload_known_extensions: 'false',
    autoinstall_known_extensions: 'false',
    allow_community_extensions: 'false',
  });
  let sql: DuckDBConnection | undefined;
  const close = () => {
    sql?.closeSync();
    instance.closeSync();
    for (const hold of holds) hold.release();
  };
  try {
    sql = await instance.connect();
    const sources = new Map<string, string[]>();
    for (const { file, tables } of files) {
      holds.push(holdPublishedFile(file));
      // Random per instance: a statement cannot name what it cannot guess (and other databases' names are refused).
      const alias = `s_${randomBytes(8).toString('hex')}`;
      // ATTACH takes no parameters; the path is the home's, quoted as a literal.
      await sql.run(`attach ${quote(file)} as ${alias} (read_only)`);
      holds.at(-1)!.seen();
      for (const table of tables)
        sources.set(table, [...(sources.get(table) ?? []), `${alias}.main."${table.replace(/"/g, '""')}"`]);
    }
    return { sql, sources, close };
  } catch (error) {
    close();
    throw error;
  }
}
