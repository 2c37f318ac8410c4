import { copyFileSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Warehouse } from '../db/warehouse.ts';
import { RefusedFile, type LandContext, type LandingConnection, type Source } from './source.ts';
import { fallbackEncoding, gzipDamage, hashFile, transcodeToUtf8 } from './text-file.ts';
import { ensureMacros } from '../db/macros.ts';
import { landedFileOf, recordLandedFileIn } from '../control/landed-files.ts';
import { recordQuarantinedFile } from '../control/quarantined-files.ts';

/** What happened to one file. */
export type LandResult =
  | { status: 'landed'; file: string; fileId: string; rows: number }
  | { status: 'skipped'; file: string; fileId: string }
  | { status: 'refused'; file: string; line: number | null; reason: string; keptAt: string };

/** Where and why a file was refused, for people: `line 4: amount: X is not a valid decimal`, or the reason alone. */
export const refusalText = (r: { line: number | null; reason: string }) =>
  r.line === null ? r.reason : `line ${r.line}: ${r.reason}`;

/**
 * Lands one file of a source for a connection: once per content hash, whole or not at all.
 * A refused file is copied to quarantine/ with its reason; nothing of it reaches the tables.
 */
export async function landFile(
  wh: Warehouse,
  source: Source,
  connection: LandingConnection,
  file: string,
): Promise<LandResult> {
  const sha256 = await hashFile(file);
  const existing = await landedFileOf(wh.db, { connectionId: connection.id, source: source.name, sha256 });
  if (existing) return { status: 'skipped', file, fileId: existing };

  await wh.sql.run(source.createTable);
  const fileId = randomUUID();
  const ctx: LandContext = {
    sql: wh.sql,
    path: file,
    fileName: basename(file),
    fileId,
    landedAt: new Date().toISOString(),
    connection,
  };
  try {
    const damage = await gzipDamage(file);
    if (damage) throw new RefusedFile(null, damage);
    const rows = await landWithEncodingFallback(wh, source, ctx, { sha256, size: statSync(file).size });
    return { status: 'landed', file, fileId, rows };
  } catch (error) {
    if (!(error instanceof RefusedFile)) throw error;
    const keptAt = quarantine(wh, file, sha256, error);
    await recordQuarantinedFile(wh.db, {
      id: fileId,
      connection_id: connection.id,
      source: source.name,
      sha256,
      file_name: basename(file),
      kept_at: keptAt,
      line: error.line,
      reason: error.reason,
      refused_at: ctx.landedAt,
    });
    return { status: 'refused', file, line: error.line, reason: error.reason, keptAt };
  }
}

/** Tries the bytes as UTF-8 first; on an encoding error, lands a UTF-8 transcoding from the marketplace's fallback. */
async function landWithEncodingFallback(
  wh: Warehouse,
  source: Source,
  ctx: LandContext,
  file: FileRecord,
): Promise<number> {
  try {
    return await landInTransaction(wh, source, ctx, file);
  } catch (error) {
    if (!(error instanceof RefusedFile) || error.reason !== 'invalid text encoding') throw error;
  }
  mkdirSync(wh.home.tmp, { recursive: true });
  const utf8 = join(wh.home.tmp, `${ctx.fileId}.utf8`);
  try {
    await transcodeToUtf8(ctx.path, utf8, fallbackEncoding(ctx.connection.marketplaceId));
    return await landInTransaction(wh, source, { ...ctx, path: utf8 }, file);
  } finally {
    rmSync(utf8, { force: true });
  }
}

interface FileRecord {
  sha256: string;
  size: number;
}

/** Lands the rows and records the file in one transaction: both or neither. */
async function landInTransaction(wh: Warehouse, source: Source, ctx: LandContext, file: FileRecord): Promise<number> {
  const staged = await source.stage?.(ctx);
  if (source.events) await ensureMacros(wh.sql);
  await wh.sql.run('begin transaction');
  try {
    const rows = await source.land(ctx, staged);
    await source.events?.(ctx);
    await recordLandedFileIn(
      wh.sql,
      {
        id: ctx.fileId,
        connectionId: ctx.connection.id,
        source: source.name,
        sha256: file.sha256,
        fileName: ctx.fileName,
        size: file.size,
      },
      rows,
      ctx.landedAt,
    );
    await wh.sql.run('commit');
    return rows;
  } catch (error) {
    await wh.sql.run('rollback');
    throw error;
  } finally {
    await staged?.drop();
  }
}

function quarantine(wh: Warehouse, file: string, sha256: string, refusal: RefusedFile): string {
  const dir = join(wh.home.quarantine, sha256.slice(0, 16));
  mkdirSync(dir, { recursive: true });
  const kept = join(dir, basename(file));
  copyFileSync(file, kept);
  writeFileSync(
    join(dir, 'reason.json'),
    JSON.stringify({ file, line: refusal.line, reason: refusal.reason }, null, 2),
  );
  return kept;
}
