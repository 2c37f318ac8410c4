import { closeSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { duckDbOptions, type Warehouse } from '../db/warehouse.ts';
import { MktdataError } from '../errors.ts';
import { copyHashed, type CopiedFile } from './copy-file.ts';

// DuckDB's file starts with its main header and two database headers, 4 KiB each; a checkpoint writes its new blocks
// into blocks the current header does not use, then points the other database header at them. So while these 12 KiB
// stay the same, every block the copied header points at stays the same too: a copy whose headers equal those read
// before and after copying it is the database as of the last checkpoint, whatever other transactions commit to the
// WAL (those come after the backup) or write into unused blocks meanwhile (a large insert does when it commits).
const headerBytes = 3 * 4096;
const tries = 3;

function headerOf(file: string): Buffer {
  const fd = openSync(file, 'r');
  try {
    const header = Buffer.alloc(headerBytes);
    readSync(fd, header, 0, headerBytes, 0);
    return header;
  } finally {
    closeSync(fd);
  }
}

/**
 * Checkpoints the warehouse and copies its file to `toRoot` (as `warehouse.duckdb`); run it as the home's writer
 * (between pipeline runs) so that the checkpoint holds everything committed. Copies again when a checkpoint moved the
 * file meanwhile, and checks that the copy opens in DuckDB. The WAL is not copied: after the checkpoint it holds only
 * what committed later.
 */
export async function copyWarehouse(wh: Warehouse, toRoot: string): Promise<CopiedFile> {
  const target = join(toRoot, 'warehouse.duckdb');
  for (let attempt = 1; ; attempt++) {
    await wh.sql.run('checkpoint');
    const before = headerOf(wh.home.warehouse);
    const { mode, mtimeMs } = statSync(wh.home.warehouse);
    const copied = await copyHashed(wh.home.warehouse, target, mode & 0o777);
    if (before.equals(headerOf(wh.home.warehouse)) && before.equals(headerOf(target))) {
      await checkOpens(target);
      return { path: 'warehouse.duckdb', ...copied, mode: mode & 0o777, mtimeMs };
    }
    rmSync(target);
    if (attempt === tries) throw new MktdataError('ERR_BACKUP_UNSTABLE', { file: wh.home.warehouse, tries });
  }
}

/** Opens a copied warehouse read-only (which writes nothing) and reads its catalog. */
async function checkOpens(file: string): Promise<void> {
  const instance = await DuckDBInstance.create(file, { ...duckDbOptions, access_mode: 'READ_ONLY' });
  try {
    const sql = await instance.connect();
    try {
      await sql.run('select count(*) from duckdb_tables()');
    } finally {
      sql.closeSync();
    }
  } finally {
    instance.closeSync();
  }
}
