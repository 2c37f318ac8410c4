import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { MktdataError } from '../errors.ts';
import { filesUnder } from './copy-file.ts';

/** The manifest's name in a backup folder; it is written last, so a folder without it is not a finished backup. */
export const manifestName = 'backup.json';

/** The manifest format this version writes and reads. */
export const backupFormatVersion = 1;

const fileSchema = z.object({
  path: z
    .string()
    .min(1)
    // A path of the backup stays inside it: no absolute path, no `..`, no empty part.
    .refine((p) => !p.startsWith('/') && p.split('/').every((part) => part !== '' && part !== '.' && part !== '..')),
  size: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  mode: z.number().int().min(0).max(0o777),
  mtimeMs: z.number(),
});

/** `backup.json`: what a backup holds, with every file's size and sha256. */
export const backupManifestSchema = z.object({
  format: z.literal('mktdata-backup'),
  formatVersion: z.number().int(),
  mktdataVersion: z.string(),
  createdAt: z.string(),
  /** The path of the home it was taken from (informational: a backup restores into any folder). */
  home: z.string(),
  secretKeyIncluded: z.boolean(),
  files: z.array(fileSchema),
});
export type BackupManifest = z.infer<typeof backupManifestSchema>;

/**
 * Reads a backup's manifest and checks the folder against it without reading the files' contents: every file listed
 * present with its size, no file that is not listed. Throws ERR_BACKUP_REFUSED naming the first file that is wrong;
 * the checksums are checked as the files are copied (`restoreBackup`).
 */
export function readBackup(dir: string, home: string): BackupManifest {
  const refuse = (file: string, reason: string) => new MktdataError('ERR_BACKUP_REFUSED', { dir, file, reason, home });
  const file = join(dir, manifestName);
  if (!existsSync(file)) throw refuse(manifestName, 'missing: not a backup, or one that did not finish');
  let manifest: BackupManifest;
  try {
    manifest = backupManifestSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
  } catch (error) {
    throw refuse(manifestName, `not a mktdata backup manifest (${(error as Error).message.split('\n')[0]})`);
  }
  if (manifest.formatVersion !== backupFormatVersion)
    throw refuse(
      manifestName,
      `format version ${manifest.formatVersion}, made by mktdata ${manifest.mktdataVersion}; this version reads version ${backupFormatVersion}`,
    );
  const listed = new Set(manifest.files.map((f) => f.path));
  if (!listed.has('warehouse.duckdb'))
    throw refuse('warehouse.duckdb', 'not in the manifest: a backup holds the warehouse');
  for (const f of manifest.files) {
    const path = join(dir, f.path);
    if (!existsSync(path)) throw refuse(f.path, 'missing (the backup is partial)');
    const size = statSync(path).size;
    if (size !== f.size) throw refuse(f.path, `${size} bytes, the manifest says ${f.size}`);
  }
  // A backup is written whole and renamed into place: a file it does not list was put there afterwards.
  const extra = filesUnder(dir, dir).find((p) => p !== manifestName && !listed.has(p));
  if (extra) throw refuse(extra, 'not in the manifest (the folder was changed after the backup)');
  return manifest;
}
