import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { Kysely } from 'kysely';
import { MktdataError } from '../errors.ts';
import { ensureFolder, type Home } from '../home.ts';
import type { ControlPlane } from './control-plane.ts';
import { DuckDbDialect } from './kysely-duckdb.ts';
import { migrateHome } from './home-version.ts';

/** DuckDB settings for every database mktdata opens: nothing is ever downloaded. */
export const duckDbOptions = { autoinstall_known_extensions: 'false', autoload_known_extensions: 'true' };

/**
 * DuckDB's memory limit, threads and spill directory for the warehouse, from the environment (docs/operations.md
 * "Memory and disk"):
 * MKTDATA_MEMORY_LIMIT (a size such as `2GB`; DuckDB's default is 80% of the machine's memory),
 * MKTDATA_THREADS (how many threads a query may use; DuckDB's default is one per core) and
 * MKTDATA_TEMP_DIRECTORY (where a build spills what does not fit; default `warehouse.duckdb.tmp/` in the home).
 * Each snapshot an export reads gets the same memory limit and threads ({@link readerOptions}).
 */
export function resourceOptions(env: NodeJS.ProcessEnv = process.env): {
  memory_limit?: string;
  threads?: string;
  temp_directory?: string;
} {
  const limit = env.MKTDATA_MEMORY_LIMIT?.trim();
  const threads = env.MKTDATA_THREADS?.trim();
  const temp = env.MKTDATA_TEMP_DIRECTORY?.trim();
  if (limit && !/^\d+(\.\d+)?\s*(KB|MB|GB|TB|KiB|MiB|GiB|TiB)$/i.test(limit)) {
    throw new MktdataError('ERR_INPUT_INVALID', {
      where: 'MKTDATA_MEMORY_LIMIT',
      reason: `"${limit}" is not a size such as 2GB or 1536MiB`,
    });
  }
  if (threads && !(/^\d+$/.test(threads) && Number(threads) >= 1 && Number(threads) <= 1024)) {
    throw new MktdataError('ERR_INPUT_INVALID', {
      where: 'MKTDATA_THREADS',
      reason: `"${threads}" is not a whole number of threads from 1 to 1024`,
    });
  }
  return {
    ...(limit ? { memory_limit: limit } : {}),
    ...(threads ? { threads } : {}),
    ...(temp ? { temp_directory: resolve(temp) } : {}),
  };
}

/** The options of a read-only instance of a published snapshot: the warehouse's memory limit and threads. */
export function readerOptions(): Record<string, string> {
  const { memory_limit, threads } = resourceOptions();
  return { ...duckDbOptions, ...(memory_limit ? { memory_limit } : {}), ...(threads ? { threads } : {}) };
}

/** The one writer of a home: the DuckDB warehouse, a SQL connection and the control plane. */
export interface Warehouse {
  home: Home;
  sql: DuckDBConnection;
  db: Kysely<ControlPlane>;
  close(): Promise<void>;
}

/** Who holds the write lock of a home, as recorded in `writer.json`. */
interface WriterRecord {
  pid: number;
  command: string;
  since: string;
  /** The admin channel's socket, when the holder is `mktdata serve` (src/cli/admin-channel.ts). */
  admin?: string;
  /** The URL the holder serves `/api/v1` at (`mktdata mcp` relays to its `/mcp`). */
  api?: string;
}

function readWriter(home: Home): WriterRecord | null {
  try {
    return JSON.parse(readFileSync(home.writerFile, 'utf8')) as WriterRecord;
  } catch {
    return null;
  }
}

/**
 * The admin socket of a home: `admin.sock` in it, or, when that path is longer than a Unix socket's (about 100
 * bytes), one in the system's temporary folder named after the home. With `served`: the socket the live holder of
 * the home recorded, or null.
 */
export function adminSocketOf(home: Home, options: { served: true }): string | null;
export function adminSocketOf(home: Home): string;
export function adminSocketOf(home: Home, options?: { served: true }): string | null {
  if (options?.served) {
    const record = readWriter(home);
    return record?.admin && writerAlive(home) ? record.admin : null;
  }
  const inHome = join(home.root, 'admin.sock');
  return Buffer.byteLength(inHome) < 100
    ? inHome
    : join(tmpdir(), `mktdata-${createHash('sha256').update(home.root).digest('hex').slice(0, 16)}.sock`);
}

/** Records in `writer.json` the admin socket of the process holding the home. */
export function recordAdminSocket(home: Home, path: string): void {
  recordWriter(home, { admin: path });
}

/** Records in `writer.json` the URL of the `/api/v1` the process holding the home serves. */
export function recordApiUrl(home: Home, url: string): void {
  recordWriter(home, { api: url });
}

function recordWriter(home: Home, detail: Partial<WriterRecord>): void {
  const record = readWriter(home);
  if (record?.pid === process.pid) writeFileSync(home.writerFile, JSON.stringify({ ...record, ...detail }));
}

/** The `/api/v1` URL of the live `mktdata serve` holding the home, or null when none serves it. */
export function servedApiUrl(home: Home): string | null {
  const record = readWriter(home);
  return record?.api && writerAlive(home) ? record.api : null;
}

/**
 * Opens the warehouse of a home for writing, running pending control-plane migrations.
 * A second writer fails with ERR_HOME_LOCKED naming the process that holds the home; a home last opened by a newer
 * mktdata fails with ERR_HOME_NEWER before anything is written.
 */
export async function openWarehouse(
  home: Home,
  command: string,
  options: { create?: boolean } = {},
): Promise<Warehouse> {
  if (!options.create && !existsSync(home.warehouse)) {
    throw new MktdataError('ERR_HOME_NOT_INITIALIZED', { home: home.root });
  }
  ensureFolder(home.root);
  const instance = await createInstance(home);
  writeFileSync(home.writerFile, JSON.stringify({ pid: process.pid, command, since: new Date().toISOString() }));
  const sql = await instance.connect();
  const controlConnection = await instance.connect();
  const db = new Kysely<ControlPlane>({ dialect: new DuckDbDialect(controlConnection) });
  const close = async () => {
    await db.destroy();
    sql.closeSync();
    controlConnection.closeSync();
    instance.closeSync();
    rmSync(home.writerFile, { force: true });
  };
  try {
    await migrateHome(db, home.root);
  } catch (error) {
    await close();
    throw error;
  }
  return { home, sql, db, close };
}

/**
 * Opens the DuckDB file. A lock held by a live writer fails at once; a lock whose writer has already let go (its
 * `writer.json` removed, or its process gone) is waited for a few seconds, since DuckDB may release the file
 * lock a moment after the writer closed it.
 */
async function createInstance(home: Home): Promise<DuckDBInstance> {
  for (const started = Date.now(); ;) {
    try {
      return await DuckDBInstance.create(home.warehouse, { ...duckDbOptions, ...resourceOptions() });
    } catch (error) {
      const text = String(error);
      if (/Out of Memory Error/i.test(text) && process.env.MKTDATA_MEMORY_LIMIT) {
        throw new MktdataError(
          'ERR_INPUT_INVALID',
          {
            where: 'MKTDATA_MEMORY_LIMIT',
            reason: `"${process.env.MKTDATA_MEMORY_LIMIT}" is too small to open the warehouse (${text.split('\n')[0]})`,
          },
          { cause: error },
        );
      }
      // DuckDB's file lock ("Could not set lock on file …: Conflicting lock is held"), not any message with "block" in
      // it.
      if (!/could not set lock|conflicting lock/i.test(text)) throw error;
      if (writerAlive(home) || Date.now() - started > lockReleaseWaitMs) {
        throw new MktdataError(
          'ERR_HOME_LOCKED',
          { home: home.root, holder: describeHolder(home, error) },
          { cause: error },
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

const lockReleaseWaitMs = 10_000;

/** Whether `writer.json` names a process that is still running. */
function writerAlive(home: Home): boolean {
  const record = readWriter(home);
  if (!record) return false;
  try {
    process.kill(record.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The process holding a home for writing, described (`mktdata serve`, pid, since), or null when none is alive. */
export function liveWriter(home: Home): string | null {
  return writerAlive(home) ? describeHolder(home, null) : null;
}

function describeHolder(home: Home, error: unknown): string {
  const record = readWriter(home);
  if (record) return `\`mktdata ${record.command}\`, pid ${record.pid}, since ${record.since}`;
  const pid = /PID (\d+)/.exec(String(error))?.[1];
  return pid ? `pid ${pid}` : 'unknown process';
}

/** Runs `work` with the warehouse open and always closes it. */
export async function withWarehouse<T>(home: Home, command: string, work: (wh: Warehouse) => Promise<T>): Promise<T> {
  const wh = await openWarehouse(home, command);
  try {
    return await work(wh);
  } finally {
    await wh.close();
  }
}
