import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readdirSync, renameSync, rmdirSync, rmSync, utimesSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative } from 'node:path';
import { liveWriter } from '../db/warehouse.ts';
import { ensureFolder, type Home } from '../home.ts';
import { MktdataError } from '../errors.ts';
import { readBackup, type BackupManifest } from './backup-manifest.ts';
import { copyHashed } from './copy-file.ts';
import { heldBy, moveQuarantinePaths } from './restored-warehouse.ts';

/** Options of `restoreBackup`. */
export interface RestoreOptions {
  /** Replace a home that is not empty: everything in it goes, the backup's files come. @default false */
  force?: boolean;
}

/** What a restore brought back. */
export interface RestoreResult {
  manifest: BackupManifest;
  files: number;
  bytes: number;
  /** Whether the home had files that the restore replaced. */
  replaced: boolean;
}

/**
 * Restores the backup in `from` into `home`: checks the manifest and every file's presence and size first, refuses a
 * home that a process holds or that is not empty (unless `force`), then copies the backup into a hidden folder beside
 * the home, checking each file's sha256 as it copies (a mismatch removes that folder and names the file), points the
 * quarantine records at the new home's path, and renames the folder into place. With `force` the old home's content
 * is renamed aside and deleted once the new one is in place.
 */
export async function restoreBackup(home: Home, from: string, options: RestoreOptions = {}): Promise<RestoreResult> {
  const inside = relative(home.root, from);
  if (inside === '' || (!inside.startsWith('..') && !isAbsolute(inside)))
    throw new MktdataError('ERR_INPUT_INVALID', { where: from, reason: `the backup is inside the home ${home.root}` });
  const manifest = readBackup(from, home.root);
  const holder = liveWriter(home) ?? (await heldBy(home.warehouse));
  if (holder) throw new MktdataError('ERR_RESTORE_HOME_IN_USE', { home: home.root, holder });
  const occupied = existsSync(home.root) && readdirSync(home.root).length > 0;
  if (occupied && !options.force) throw new MktdataError('ERR_RESTORE_HOME_NOT_EMPTY', { home: home.root });
  ensureFolder(dirname(home.root));
  const suffix = randomBytes(4).toString('hex');
  const staging = join(dirname(home.root), `.${basename(home.root)}.restoring-${suffix}`);
  mkdirSync(staging, { mode: 0o700 });
  try {
    for (const file of manifest.files) {
      const copied = await copyHashed(join(from, file.path), join(staging, file.path), file.mode);
      if (copied.sha256 !== file.sha256 || copied.size !== file.size)
        throw new MktdataError('ERR_BACKUP_REFUSED', {
          dir: from,
          file: file.path,
          reason: 'its content does not match its sha256 in the manifest (the backup is damaged)',
          home: home.root,
        });
      chmodSync(join(staging, file.path), file.mode);
      utimesSync(join(staging, file.path), new Date(), file.mtimeMs / 1000);
    }
    await moveQuarantinePaths(join(staging, 'warehouse.duckdb'), join(home.root, 'quarantine'));
    swapInto(home, staging, occupied, suffix);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  }
  const bytes = manifest.files.reduce((sum, f) => sum + f.size, 0);
  return { manifest, files: manifest.files.length, bytes, replaced: occupied };
}

/** Puts the restored folder where the home is: an empty home folder is replaced, a full one renamed aside first. */
function swapInto(home: Home, staging: string, occupied: boolean, suffix: string): void {
  if (!occupied) {
    if (existsSync(home.root)) rmdirSync(home.root);
    renameSync(staging, home.root);
    return;
  }
  const aside = join(dirname(home.root), `.${basename(home.root)}.replaced-${suffix}`);
  renameSync(home.root, aside);
  renameSync(staging, home.root);
  rmSync(aside, { recursive: true, force: true });
}
