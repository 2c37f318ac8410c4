import { describe, expect, it } from 'vitest';
import { tmpdir } from 'node:os';
import { freeBytes, minFreeBytes, parseSize } from '../../src/lib/disk-space.ts';

describe('disk space', () => {
  it('reads sizes in decimal and binary units', () => {
    expect(parseSize('2GB', 'X')).toBe(2_000_000_000);
    expect(parseSize('1536MiB', 'X')).toBe(1536 * 1024 * 1024); // 1,610,612,736
    expect(parseSize('0.5 kb', 'X')).toBe(500);
  });

  it('refuses a size without a unit, naming where it came from', () => {
    expect(() => minFreeBytes({ MKTDATA_MIN_FREE_DISK: '100' })).toThrow(/MKTDATA_MIN_FREE_DISK.*"100" is not a size/);
  });

  it('defaults the threshold to 1 GB', () => {
    expect(minFreeBytes({})).toBe(1e9);
  });

  it('tells the free bytes of a real folder', async () => {
    expect(await freeBytes(tmpdir())).toBeGreaterThan(0);
  });
});
