import { mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { withPublishedInstance } from '../../src/publish/snapshot-instances.ts';

// The readers of a process share one read-only instance of the published file until another file is renamed into
// place (as publish does).

describe('withPublishedInstance', () => {
  let dir: string;
  let published: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mktdata-snapshot-'));
    published = join(dir, 'warehouse.duckdb');
  });
  afterEach(() => {
    vi.restoreAllMocks();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Writes a DuckDB file holding `n` in table t beside the published one, then renames it into place. */
  async function publishFile(n: number) {
    const next = join(dir, `.next-${n}.duckdb`);
    const instance = await DuckDBInstance.create(next);
    const sql = await instance.connect();
    await sql.run(`create table t as select ${n} as n`);
    sql.closeSync();
    instance.closeSync();
    renameSync(next, published);
  }

  const readN = () =>
    withPublishedInstance(published, {}, async (instance) => {
      const sql = await instance.connect();
      try {
        return (await sql.runAndReadAll('select n from t')).getRowsJson()[0]![0];
      } finally {
        sql.closeSync();
      }
    });

  it('opens the file once for successive and concurrent readers, and anew once another file is renamed into place', async () => {
    await publishFile(1);
    const create = vi.spyOn(DuckDBInstance, 'create');
    const opened = () => create.mock.calls.filter(([, options]) => options?.access_mode === 'READ_ONLY').length;
    expect(await readN()).toBe(1);
    expect(await Promise.all([readN(), readN()])).toEqual([1, 1]);
    expect(opened()).toBe(1);

    await publishFile(2);
    expect(await readN()).toBe(2);
    expect(await readN()).toBe(2);
    expect(opened()).toBe(2);
  });

  it('does not keep an instance it could not open: the next reader opens the file again', async () => {
    await publishFile(1);
    vi.spyOn(DuckDBInstance, 'create').mockRejectedValueOnce(new Error('IO Error: Too many open files'));
    await expect(readN()).rejects.toThrow('Too many open files');
    expect(await readN()).toBe(1);
  });
});
