import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { copyWarehouse } from '../../src/backup/copy-warehouse.ts';
import { restoreBackup } from '../../src/backup/restore-backup.ts';
import { takeBackup, type AsWriter } from '../../src/backup/take-backup.ts';
import type { Warehouse } from '../../src/db/warehouse.ts';
import type { MktdataError } from '../../src/errors.ts';
import { resolveHome } from '../../src/home.ts';
import { makeHome } from '../helpers/home.ts';

/** Counts the rows of a table in a DuckDB file opened read-only. */
async function countIn(file: string, table: string): Promise<number> {
  const instance = await DuckDBInstance.create(file, { access_mode: 'READ_ONLY' });
  try {
    const conn = await instance.connect();
    const count = Number((await conn.runAndReadAll(`select count(*) from ${table}`)).getRows()[0]![0]);
    conn.closeSync();
    return count;
  } finally {
    instance.closeSync();
  }
}

/** The error `work` fails with. */
async function errorOf(work: Promise<unknown>): Promise<MktdataError> {
  try {
    await work;
  } catch (error) {
    return error as MktdataError;
  }
  throw new Error('expected a failure');
}

const version = { mktdataVersion: '0.0.0-test' };

describe('backup and restore of a home', () => {
  let wh: Warehouse | undefined;
  afterEach(async () => {
    await wh?.close();
    wh = undefined;
    delete process.env.MKTDATA_SECRET_KEY;
  });

  it('copies the warehouse as of its checkpoint, though a commit after it writes into the file', async () => {
    const made = await makeHome();
    wh = made.wh;
    const file = made.home.warehouse;
    await wh.sql.run('create table main.kept as select range as i from range(1000); create table main.big (i bigint)');
    await wh.sql.run('checkpoint');
    const header = () => readFileSync(file).subarray(0, 3 * 4096);
    const whole = () => createHash('sha256').update(readFileSync(file)).digest('hex');
    const [checkpointedHeader, checkpointed] = [header(), whole()];
    // Another connection commits 3,000,000 rows: DuckDB writes their row groups into unused blocks of the file at
    // the commit and logs only their place in the WAL; the headers keep pointing at the checkpoint's blocks.
    await sql`insert into main.big select range from range(3000000)`.execute(wh.db);
    expect(whole()).not.toBe(checkpointed);
    expect(header().equals(checkpointedHeader)).toBe(true);
    // What copyWarehouse copies when such a commit comes during the copy: the file without the WAL, which is the
    // database as of the checkpoint (1000 rows of range(1000), none of the commit's).
    const during = join(made.dir, 'during');
    mkdirSync(during);
    copyFileSync(file, join(during, 'warehouse.duckdb'));
    expect(await countIn(join(during, 'warehouse.duckdb'), 'main.kept')).toBe(1000);
    expect(await countIn(join(during, 'warehouse.duckdb'), 'main.big')).toBe(0);
    // copyWarehouse checkpoints first: the committed rows are in its copy.
    const after = join(made.dir, 'after');
    mkdirSync(after);
    expect((await copyWarehouse(wh, after)).path).toBe('warehouse.duckdb');
    expect(await countIn(join(after, 'warehouse.duckdb'), 'main.big')).toBe(3000000);
  });

  it('leaves out the files being written, exports and the key, and restores the rest with their checksums', async () => {
    const made = await makeHome();
    wh = made.wh;
    const { home, dir } = made;
    const put = (path: string, text: string) => {
      mkdirSync(join(home.root, path, '..'), { recursive: true });
      writeFileSync(join(home.root, path), text);
    };
    put('landed/c/S/id-a.tsv', 'landed a');
    put('landing/c/S/b.tsv', 'waiting b');
    put('landing/c/S/c.tsv.partial', 'still downloading');
    put('files/f.csv', 'uploaded');
    put('files/g.csv.part', 'uploading');
    put('exports/e.csv', 'temporary');
    put('secret.key', 'not a real key');
    put('landed/c/S/id-gone.tsv', "purged before the writer's turn");
    put('published/warehouse.duckdb', 'snapshot 1');
    put('published/manifest.json', 'manifest 1');
    const asWriter: AsWriter = (work) => work(wh!);
    // Between the first copies and the writer's turn, a publish renames a new snapshot and manifest into place and a
    // connection's documents are purged: the backup holds the new pair and not the purged document.
    const publishing: AsWriter = (work) => {
      for (const [name, text] of [
        ['warehouse.duckdb', 'snapshot 2'],
        ['manifest.json', 'manifest 2'],
      ]) {
        put(`published/.next-${name}`, text!);
        renameSync(join(home.root, 'published', `.next-${name}`), join(home.root, 'published', name!));
      }
      rmSync(join(home.root, 'landed/c/S/id-gone.tsv'));
      return work(wh!);
    };
    const to = join(dir, 'backup');
    const result = await takeBackup(home, to, version, publishing);
    expect(result.warnings).toEqual([expect.stringContaining('WARNING: secret.key is NOT in this backup')]);
    const manifest = JSON.parse(readFileSync(join(to, 'backup.json'), 'utf8')) as { files: { path: string }[] };
    expect(manifest.files.map((f) => f.path)).toEqual([
      'files/f.csv',
      'landed/c/S/id-a.tsv',
      'landing/c/S/b.tsv',
      'published/manifest.json',
      'published/warehouse.duckdb',
      'warehouse.duckdb',
    ]);
    expect(readFileSync(join(to, 'published/warehouse.duckdb'), 'utf8')).toBe('snapshot 2');
    expect(readFileSync(join(to, 'published/manifest.json'), 'utf8')).toBe('manifest 2');
    expect(existsSync(join(to, 'landed/c/S/id-gone.tsv'))).toBe(false);
    // Nothing is left beside the backup: its hidden folder was renamed into place.
    expect(readdirSync(dir).filter((name) => name.startsWith('.'))).toEqual([]);

    // A folder that holds anything, or one inside the home, is refused; a backup that fails keeps nothing.
    expect((await errorOf(takeBackup(home, to, version, asWriter))).message).toContain('it is not empty');
    const inside = await errorOf(takeBackup(home, join(home.root, 'b'), version, asWriter));
    expect(inside.message).toContain(`it is inside the home ${home.root}`);
    const failing: AsWriter = () => Promise.reject(new Error('disk gone'));
    expect((await errorOf(takeBackup(home, join(dir, 'failed'), version, failing))).message).toBe('disk gone');
    expect(readdirSync(dir).filter((name) => name.startsWith('.') || name === 'failed')).toEqual([]);

    // The home's key is MKTDATA_SECRET_KEY: the backup says it does not hold it.
    process.env.MKTDATA_SECRET_KEY = 'a key of at least sixteen characters';
    const withEnv = await takeBackup(home, join(dir, 'env'), { ...version, includeSecretKey: true }, asWriter);
    expect(withEnv.warnings).toEqual([expect.stringContaining('with MKTDATA_SECRET_KEY, which is not in the backup')]);
    await wh.close();
    wh = undefined;

    const restored = resolveHome(join(dir, 'elsewhere', 'home'));
    const done = await restoreBackup(restored, to);
    expect([done.files, done.replaced]).toEqual([6, false]);
    expect(readFileSync(join(restored.root, 'landing/c/S/b.tsv'), 'utf8')).toBe('waiting b');
    expect(existsSync(join(restored.root, 'exports'))).toBe(false);

    // A file added to the backup, a manifest of another format, a backup inside the home: refused.
    writeFileSync(join(to, 'notes.txt'), 'added later');
    const extra = await errorOf(restoreBackup(resolveHome(join(dir, 'x')), to));
    expect(extra.message).toContain('notes.txt: not in the manifest');
    const other = JSON.parse(readFileSync(join(to, 'backup.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(to, 'backup.json'), JSON.stringify({ ...other, formatVersion: 2 }));
    const newer = await errorOf(restoreBackup(resolveHome(join(dir, 'x')), to));
    expect(newer.message).toContain('backup.json: format version 2, made by mktdata 0.0.0-test');
    const within = await errorOf(restoreBackup(resolveHome(dir), to, { force: true }));
    expect(within.message).toContain(`the backup is inside the home ${dir}`);
    expect(existsSync(join(dir, 'x'))).toBe(false);
  });
});
