import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { configFile } from '../connectors/config.ts';
import type { Home } from '../home.ts';
import { freeBytes, minFreeBytes } from '../lib/disk-space.ts';
import { secretKeyFile } from '../lib/secrets.ts';
import { fail, ok, type CheckResult } from './check.ts';
import { whyNotWritable } from './writable-folder.ts';

/**
 * The home folder and what mktdata writes in it are writable by this process, and the files holding secrets
 * (`secret.key`, `mktdata.config`) are readable by their owner only.
 */
export function homePermissions(home: Home, name = 'home permissions'): CheckResult {
  if (!existsSync(home.root))
    return fail(name, `${home.root} does not exist`, 'run `mktdata init`, or point --home or MKTDATA_HOME at the home');
  if (!statSync(home.root).isDirectory())
    return fail(name, `${home.root} is a file, not a folder`, 'point --home or MKTDATA_HOME at the home folder');
  const written = [home.root, home.warehouse, home.publishedDir, home.landing, home.landed].filter(existsSync);
  for (const path of written) {
    const why = whyNotWritable(path);
    if (why)
      return fail(
        name,
        `${path} is not writable: ${why}`,
        'give the user that runs mktdata write access to the home (e.g. `chmod u+w`, `chown`, or mount it read-write); no run, build or publish can work until then',
      );
  }
  // mktdata.config must be private only when it holds a client secret (connectors/config.ts refuses it then).
  const config = configFile(home);
  const holdsSecrets = (file: string) => file !== config || /clientSecret/.test(readFileSync(file, 'utf8'));
  for (const file of [secretKeyFile(home), config]) {
    if (existsSync(file) && (statSync(file).mode & 0o077) !== 0 && holdsSecrets(file))
      return fail(
        name,
        `${file} is readable by other users (mode ${(statSync(file).mode & 0o777).toString(8).padStart(4, '0')})`,
        `\`chmod 600 ${file}\`: it holds secrets`,
      );
  }
  return ok(name, `${home.root} is writable; the files that hold secrets are private (0600)`);
}

/**
 * Free space on the home's disk against what its next publish may need: at least MKTDATA_MIN_FREE_DISK and at least
 * the size of its databases (the warehouse and the published snapshot), since a publish without a spare writes a
 * whole new snapshot beside the one served, and a full refresh rewrites tables before their old blocks are freed.
 */
export async function diskSpace(home: Home, name = 'disk space'): Promise<CheckResult> {
  const sizeOf = (file: string) => (existsSync(file) ? statSync(file).size : 0);
  const databases = [home.warehouse, `${home.warehouse}.wal`, home.published, join(home.publishedDir, '.spare.duckdb')]
    .map(sizeOf)
    .reduce((a, b) => a + b, 0);
  const threshold = minFreeBytes();
  const needed = Math.max(threshold, databases);
  const free = await freeBytes(home.root);
  const what = `${size(free)} free on the disk of ${home.root}; needed ${size(needed)} (the larger of MKTDATA_MIN_FREE_DISK ${size(threshold)} and the home's databases ${size(databases)})`;
  if (free >= needed) return ok(name, what);
  return fail(
    name,
    what,
    'free some space on that disk (old exports in exports/, other programs), or move the home to a larger one',
  );
}

/** A byte count the way people read it: `1.2 GB`, `340 MB`. */
export function size(bytes: number): string {
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}
