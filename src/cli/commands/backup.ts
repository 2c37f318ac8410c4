import { readFileSync } from 'node:fs';
import type { Home } from '../../home.ts';
import { restoreBackup } from '../../backup/restore-backup.ts';
import { takeBackup, type AsWriter } from '../../backup/take-backup.ts';

const { version } = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

const megabytes = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

/** `mktdata backup --to DIR`: takes the backup and says what it holds, and where the secret key is when not in it. */
export async function backupCommand(
  home: Home,
  dir: string,
  options: { includeSecretKey?: boolean },
  asWriter: AsWriter,
): Promise<void> {
  const result = await takeBackup(home, dir, { ...options, mktdataVersion: version }, asWriter);
  for (const line of result.warnings) console.error(line);
  console.log(
    `backed up ${home.root} into ${result.dir}: ${result.files} file(s), ${megabytes(result.bytes)}, secret key ${result.secretKeyIncluded ? 'included' : 'not included'} (manifest: backup.json)`,
  );
}

/** `mktdata restore --from DIR`: restores the backup into the home and says what came back. */
export async function restoreCommand(home: Home, dir: string, options: { force?: boolean }): Promise<void> {
  const result = await restoreBackup(home, dir, options);
  const { manifest } = result;
  console.log(
    `restored ${result.files} file(s), ${megabytes(result.bytes)}, into ${home.root}${result.replaced ? ' (its previous content deleted)' : ''}: the backup of ${manifest.home} taken ${manifest.createdAt} by mktdata ${manifest.mktdataVersion}`,
  );
  if (!manifest.secretKeyIncluded && process.env.MKTDATA_SECRET_KEY === undefined)
    console.error(
      `WARNING: the backup holds no secret.key: the stored credentials and webhook secrets of ${home.root} can be read only once the original key is supplied (copy the old home's secret.key into ${home.root} with mode 0600, or set MKTDATA_SECRET_KEY to the value the old home used)`,
    );
}
