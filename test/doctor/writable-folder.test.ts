import { mkdirSync, mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readOnlyMount } from '../../src/doctor/writable-folder.ts';

// Mount tables in /proc/self/mountinfo's format: id parent major:minor root mount-point options … - type source
// super-options.
const line = (point: string, options: string, superOptions = 'rw') =>
  `36 1 8:1 / ${point.replace(/ /g, '\\040')} ${options},relatime shared:1 - ext4 /dev/vda ${superOptions}`;

describe('readOnlyMount', () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'mktdata-mounts-')));
  const home = join(dir, 'with space', 'home');
  mkdirSync(home, { recursive: true });

  it('names the read-only mount a folder is on, its path unescaped', () => {
    const table = [line('/', 'rw'), line(join(dir, 'with space'), 'ro')].join('\n');
    expect(readOnlyMount(home, table)).toBe(join(dir, 'with space'));
  });

  it('reads a file system mounted read-only from its super options', () => {
    expect(readOnlyMount(home, [line('/', 'rw'), line(dir, 'rw', 'ro,errors=remount-ro')].join('\n'))).toBe(dir);
  });

  it('follows the mount in force: the deepest, and of two at one point the later', () => {
    expect(readOnlyMount(home, [line('/', 'ro'), line(dir, 'rw')].join('\n'))).toBeNull();
    expect(readOnlyMount(home, [line(dir, 'ro'), line(dir, 'rw')].join('\n'))).toBeNull();
    expect(readOnlyMount(home, [line(dir, 'rw'), line(dir, 'ro')].join('\n'))).toBe(dir);
  });

  it('does not take a sibling whose name starts the same for a parent', () => {
    expect(readOnlyMount(home, [line('/', 'rw'), line(join(dir, 'with'), 'ro')].join('\n'))).toBeNull();
  });

  it('says nothing without a mount table (not Linux)', () => {
    expect(readOnlyMount(home, null)).toBeNull();
  });
});
