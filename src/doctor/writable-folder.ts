import { accessSync, constants, existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { sep } from 'node:path';

/**
 * Why this process cannot write in `path` (a folder or a file), or null when it can. Three tests, since each misses
 * what another sees: access(2) (the kernel's answer for this user), the mode bits (root passes access(2) on a folder
 * made 0555 on purpose, and the service user that runs `serve` would not), and the mount's `ro` flag (a read-only
 * mount refuses even root, which access(2) reports only on some file systems).
 */
export function whyNotWritable(path: string): string | null {
  if (!existsSync(path)) return 'it does not exist';
  const stat = statSync(path);
  const mode = (stat.mode & 0o777).toString(8).padStart(4, '0');
  try {
    accessSync(path, constants.W_OK);
  } catch {
    return `this process (uid ${process.getuid?.() ?? '?'}) may not write in it (mode ${mode})`;
  }
  // The write bit of whichever class this process falls in; root is held to the owner's.
  const uid = process.getuid?.();
  const gids = process.getgroups?.() ?? [];
  const bit = uid === undefined || uid === 0 || uid === stat.uid ? 0o200 : gids.includes(stat.gid) ? 0o020 : 0o002;
  if ((stat.mode & bit) === 0)
    return `its mode ${mode} gives no write permission to ${bit === 0o200 ? 'its owner' : 'this user'}`;
  const mount = readOnlyMount(path);
  if (mount) return `it is on a read-only mount (${mount})`;
  return null;
}

/** This process's mount table (Linux), or null elsewhere: access(2) and the mode bits then say what they can. */
function mountTable(): string | null {
  try {
    return readFileSync('/proc/self/mountinfo', 'utf8');
  } catch {
    return null;
  }
}

/**
 * The mount point holding `path` when it is mounted read-only, else null.
 * @param table the mount table in /proc/self/mountinfo's format. @default this process's
 */
export function readOnlyMount(path: string, table = mountTable()): string | null {
  if (table === null) return null;
  const real = realpathSync(path);
  let best: { point: string; ro: boolean } | null = null;
  for (const line of table.split('\n').filter(Boolean)) {
    // id parent major:minor root mount-point mount-options [optional…] - fstype source super-options
    const fields = line.split(' ');
    const point = unescape(fields[4]!);
    const inside = real === point || real.startsWith(point === sep ? sep : `${point}${sep}`);
    // Later lines mount over earlier ones at the same point: the last, longest match is the one in force.
    if (!inside || (best && point.length < best.point.length)) continue;
    const superOptions = fields[fields.indexOf('-') + 3] ?? '';
    best = { point, ro: fields[5]!.split(',').includes('ro') || superOptions.split(',').includes('ro') };
  }
  return best?.ro ? best.point : null;
}

/** mountinfo writes space, tab, newline and backslash in paths as octal escapes (`\040`). */
const unescape = (text: string) =>
  text.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8)));
