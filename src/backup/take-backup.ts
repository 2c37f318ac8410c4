import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative } from 'node:path';
import type { Warehouse } from '../db/warehouse.ts';
import { MktdataError } from '../errors.ts';
import type { Home } from '../home.ts';
import { secretKeyFile } from '../lib/secrets.ts';
import { backupFormatVersion, manifestName, type BackupManifest } from './backup-manifest.ts';
import { copyInto, filesUnder, type CopiedFile } from './copy-file.ts';
import { copyWarehouse } from './copy-warehouse.ts';
import { EarlyCopies } from './early-copies.ts';

/** Options of `takeBackup`. */
export interface BackupOptions {
  /** Put the home's `secret.key` in the backup. @default false */
  includeSecretKey?: boolean;
  /** The running mktdata's version, recorded in the manifest. */
  mktdataVersion: string;
}

/** What a backup holds, and what the operator must hear about the secret key. */
export interface BackupResult {
  dir: string;
  files: number;
  bytes: number;
  secretKeyIncluded: boolean;
  /** Lines for stderr: where the key that reads the stored secrets is, when it is not in the backup. */
  warnings: string[];
}

/** Runs work as the home's one writer: beside `mktdata serve`, in turn with its pipeline runs. */
export type AsWriter = <T>(work: (wh: Warehouse) => Promise<T>) => Promise<T>;

// The published snapshot and its manifest: replaced by a rename at each publish, never written in place while current.
const snapshot = ['published/warehouse.duckdb', 'published/manifest.json'];

// Files still being written: a connector's download (`.tmp`, `.partial`) and an upload (`.part`).
const inProgress = (name: string) => /\.(tmp|partial|part)$/.test(name);

/**
 * Copies a home into `dir` (new or empty) with a manifest of checksums, consistently while a server and its
 * pipelines run: the landed documents (written once, under their file id) and the published snapshot with its
 * manifest are copied first without holding the home; then, as its writer (`asWriter`), the warehouse checkpointed,
 * those of the first copies that changed since, what waits in `landing/`, `quarantine/`, `files/`, `mktdata.config`, and
 * `secret.key` only with `includeSecretKey`. Not copied: `exports/` (temporary results, re-created on request), the
 * spare snapshot (the next publish copies without it), the WAL (empty of anything before the checkpoint), spill and
 * lock files. Everything is built in a hidden folder beside `dir` and renamed into place at the end.
 */
export async function takeBackup(
  home: Home,
  dir: string,
  options: BackupOptions,
  asWriter: AsWriter,
): Promise<BackupResult> {
  checkTarget(home, dir);
  const staging = join(dirname(dir), `.${basename(dir)}.partial-${randomBytes(4).toString('hex')}`);
  mkdirSync(staging, { mode: 0o700 });
  try {
    const early = new EarlyCopies(home.root, staging);
    for (const path of [...snapshot, ...filesUnder(home.root, home.landed)]) await early.take(path);
    const { files, takenAt } = await asWriter(async (wh) => {
      const takenAt = new Date().toISOString();
      return { files: await copyAsWriter(wh, staging, early, options), takenAt };
    });
    const secretKeyIncluded = files.some((f) => f.path === 'secret.key');
    const manifest: BackupManifest = {
      format: 'mktdata-backup',
      formatVersion: backupFormatVersion,
      mktdataVersion: options.mktdataVersion,
      createdAt: takenAt,
      home: home.root,
      secretKeyIncluded,
      files: files.sort((a, b) => (a.path < b.path ? -1 : 1)),
    };
    writeFileSync(join(staging, manifestName), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600, flush: true });
    if (existsSync(dir)) rmdirSync(dir);
    renameSync(staging, dir);
    const bytes = files.reduce((sum, f) => sum + f.size, 0);
    return { dir, files: files.length, bytes, secretKeyIncluded, warnings: keyWarnings(home, options) };
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  }
}

/**
 * The part of a backup taken as the home's writer: the warehouse, the snapshot and the landed documents as they are
 * now (the `early` copies that still hold), and the folders and files whose content changes.
 */
async function copyAsWriter(
  wh: Warehouse,
  staging: string,
  early: EarlyCopies,
  options: BackupOptions,
): Promise<CopiedFile[]> {
  const { home } = wh;
  const copy = (path: string) => copyInto(home.root, staging, path);
  const out = [await copyWarehouse(wh, staging)];
  for (const path of snapshot) if (existsSync(join(home.root, path))) out.push(await early.current(path));
  for (const path of filesUnder(home.root, home.landed)) out.push(await early.current(path));
  early.dropRest();
  for (const folder of [home.landing, home.quarantine, home.files])
    for (const path of filesUnder(home.root, folder, inProgress)) out.push(await copy(path));
  for (const path of ['mktdata.config', ...(options.includeSecretKey ? ['secret.key'] : [])])
    if (existsSync(join(home.root, path))) out.push(await copy(path));
  return out;
}

/** A backup goes into a new or empty folder outside the home. */
function checkTarget(home: Home, dir: string): void {
  const inside = relative(home.root, dir);
  if (inside === '' || (!inside.startsWith('..') && !isAbsolute(inside)))
    throw new MktdataError('ERR_BACKUP_TARGET', { dir, reason: `it is inside the home ${home.root}` });
  if (!existsSync(dir)) {
    if (!existsSync(dirname(dir)))
      throw new MktdataError('ERR_BACKUP_TARGET', { dir, reason: `its parent folder ${dirname(dir)} does not exist` });
    return;
  }
  if (!statSync(dir).isDirectory()) throw new MktdataError('ERR_BACKUP_TARGET', { dir, reason: 'it is a file' });
  if (readdirSync(dir).length > 0)
    throw new MktdataError('ERR_BACKUP_TARGET', {
      dir,
      reason: 'it is not empty (a backup goes into a new or empty folder; choose another name, e.g. with the date)',
    });
}

/** What the operator must keep besides the backup to read its stored secrets (the key itself is never printed). */
function keyWarnings(home: Home, options: BackupOptions): string[] {
  const hasFile = existsSync(secretKeyFile(home));
  if (process.env.MKTDATA_SECRET_KEY !== undefined)
    return [
      'WARNING: this home encrypts its stored credentials and webhook secrets with MKTDATA_SECRET_KEY, which is not in the backup: keep it safe; a restored home reads them only with the same MKTDATA_SECRET_KEY',
    ];
  if (!options.includeSecretKey && hasFile)
    return [
      "WARNING: secret.key is NOT in this backup: the stored credentials (refresh tokens) and webhook secrets it holds cannot be read after a restore unless the same key is supplied (this home's secret.key file, or MKTDATA_SECRET_KEY); add --include-secret-key to include it, and keep the backup as safe as the key",
    ];
  return [];
}
