import { freeBytes, minFreeBytes } from '../../lib/disk-space.ts';
import { failing, passing, type ReadyCheck } from './ready-report.ts';

/** A size in bytes as an operator reads it: `12.3 GB`, `850 MB`. */
function size(bytes: number): string {
  const [unit, scale] = bytes >= 1e12 ? ['TB', 1e12] : bytes >= 1e9 ? ['GB', 1e9] : ['MB', 1e6];
  return `${(bytes / scale).toFixed(bytes >= scale * 100 ? 0 : 1)} ${unit}`;
}

/**
 * The disk that holds `path` (the home, or a worker's work folder: named by `what`) has at least `minFree` bytes
 * free. The threshold is read when the check is made, so a wrong MKTDATA_MIN_FREE_DISK stops the process at start.
 */
export function diskCheck(path: string, what: string, minFree: number = minFreeBytes()): ReadyCheck {
  return async () => {
    const free = await freeBytes(path);
    if (free >= minFree) return passing();
    return failing(`${size(free)} free on the disk of ${what}, below MKTDATA_MIN_FREE_DISK (${size(minFree)})`);
  };
}
