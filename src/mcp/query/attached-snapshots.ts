import { randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { quote } from '../../db/sql.ts';
import type { Home } from '../../home.ts';
import { publishedFiles } from '../../publish/open-snapshot.ts';
import { holdPublishedFile } from '../../publish/snapshot-instances.ts';
import { QUERY_SLOTS } from './query-slots.ts';

/** Threads of the reader: two statements at once then keep to the cores of a small server. */
const READER_THREADS = '2';

/** How long a reader no call uses stays open (it keeps the snapshot files open). */
const IDLE_MS = 30_000;

/** Idle connections a reader keeps for the next calls of the same scope (the least recently used go first). */
const POOLED = 16;

/** A connection of its own to the home's locked reader, for one statement. */
export interface ReaderConnection {
  sql: DuckDBConnection;
  /** the temporary views this connection already holds (a pooled one keeps those of its scope's earlier calls) */
  views: Set<string>;
  /** each published table's sources, `<alias>.main.<table>` (one per shard that holds it) */
  sources: Map<string, string[]>;
  /**
   * Gives the connection back: kept, with its views, for the next call of the same scope; closed (its temporary views
   * with it) when the reader is retired. `spent`: the statement hit a cap; the reader is retired, so that the memory
   * it took is given back with its instance rather than kept by the allocator.
   */
  close(spent?: boolean): void;
}

interface Reader {
  /** the instance, locked, with the published files of `version` attached */
  ready: Promise<{ instance: DuckDBInstance; sources: Map<string, string[]>; close(): void }>;
  /** the published files' identities (path, inode, size, time) when it attached them; null when unknown */
  version: string | null;
  connections: number;
  retired: boolean;
  idle?: NodeJS.Timeout;
  /** idle connections by scope, oldest first */
  pool: { scope: string; sql: DuckDBConnection; views: Set<string> }[];
}

/** The current reader of each home (and memory cap). */
const readers = new Map<string, Reader>();

/**
 * A new connection to the home's reader: one in-memory DuckDB instance holding no table of its own, with the
 * published snapshots attached read-only under random aliases, then locked (no external access, no local file
 * system, no spilling, `QUERY_SLOTS` × `memoryLimit` of memory, configuration locked). A call's views are temporary
 * views of its own connection: no other connection sees them, and they are gone when it closes. A reader whose files
 * a publish replaced is retired: the calls still on it finish, the next ones get a new one.
 */
export async function connectReader(home: Home, memoryLimit: string, scope: string): Promise<ReaderConnection> {
  const key = `${home.root}\n${memoryLimit}`;
  let reader = readers.get(key);
  if (reader && (reader.version === null || reader.version !== versionOf(home))) {
    retire(key, reader);
    reader = undefined;
  }
  if (!reader) {
    const before = versionOf(home);
    const created: Reader = {
      ready: attach(home, memoryLimit),
      version: null,
      connections: 0,
      retired: false,
      pool: [],
    };
    created.ready.then(
      () => (created.version = before === versionOf(home) ? before : null),
      () => retire(key, created),
    );
    readers.set(key, (reader = created));
  }
  const current = reader;
  current.connections++;
  clearTimeout(current.idle);
  try {
    const { instance, sources } = await current.ready;
    const pooled = current.pool.findIndex((p) => p.scope === scope);
    const { sql, views } =
      pooled >= 0 ? current.pool.splice(pooled, 1)[0]! : { sql: await instance.connect(), views: new Set<string>() };
    let open = true;
    const close = (spent = false) => {
      if (!open) return;
      open = false;
      if (spent) retire(key, current);
      if (current.retired) sql.closeSync();
      else current.pool.push({ scope, sql, views });
      if (current.pool.length > POOLED) current.pool.shift()!.sql.closeSync();
      release(key, current);
    };
    return { sql, sources, views, close };
  } catch (error) {
    release(key, current);
    throw error;
  }
}

/** Closes every reader (tests, shutdown). */
export async function closeReaders(): Promise<void> {
  for (const [key, reader] of [...readers]) retire(key, reader);
}

function release(key: string, reader: Reader): void {
  reader.connections--;
  if (reader.connections > 0) return;
  if (reader.retired) return void shut(reader);
  reader.idle = setTimeout(() => retire(key, reader), IDLE_MS).unref();
}

function retire(key: string, reader: Reader): void {
  if (readers.get(key) === reader) readers.delete(key);
  reader.retired = true;
  clearTimeout(reader.idle);
  for (const { sql } of reader.pool.splice(0)) sql.closeSync();
  if (reader.connections === 0) shut(reader);
}

function shut(reader: Reader): void {
  reader.ready.then(
    (r) => r.close(),
    () => {},
  );
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

/** Creates the in-memory instance, attaches every published snapshot read-only under a random alias, and locks it. */
async function attach(home: Home, memoryLimit: string) {
  const files = publishedFiles(home);
  const holds: ReturnType<typeof holdPublishedFile>[] = [];
  const instance = await DuckDBInstance.create(':memory:', {
    threads: READER_THREADS,
    // No temporary directory: what does not fit in the memory cap fails instead of spilling to disk.
    temp_directory: '',
    max_temp_directory_size: '0KiB',
    autoload_known_extensions: 'false',
    autoinstall_known_extensions: 'false',
    allow_community_extensions: 'false',
  });
  const close = () => {
    instance.closeSync();
    for (const hold of holds) hold.release();
  };
  let sql: DuckDBConnection | undefined;
  try {
    sql = await instance.connect();
    const sources = new Map<string, string[]>();
    for (const { file, tables } of files) {
      holds.push(holdPublishedFile(file));
      // Random per reader: a statement cannot name what it cannot guess (and other databases' names are refused).
      const alias = `s_${randomBytes(8).toString('hex')}`;
      // ATTACH takes no parameters; the path is the home's, quoted as a literal.
      await sql.run(`attach ${quote(file)} as ${alias} (read_only)`);
      holds.at(-1)!.seen();
      for (const table of tables)
        sources.set(table, [...(sources.get(table) ?? []), `${alias}.main."${table.replace(/"/g, '""')}"`]);
    }
    const memory = `${QUERY_SLOTS} * ${memoryLimit}`;
    await sql.run(
      `set memory_limit = ${quote(scaled(memoryLimit, QUERY_SLOTS, memory))}; set enable_external_access = false; set disabled_filesystems = 'LocalFileSystem'; set lock_configuration = true`,
    );
    sql.closeSync();
    return { instance, sources, close };
  } catch (error) {
    sql?.closeSync();
    close();
    throw error;
  }
}

/** `size` (a DuckDB size such as 256MB) times `n`, as a size DuckDB reads. */
function scaled(size: string, n: number, what: string): string {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(size);
  if (!match) throw new Error(`not a memory size: ${what}`);
  return `${Number(match[1]) * n}${match[2]}`;
}
