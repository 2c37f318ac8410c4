import {
  constants,
  copyFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Warehouse } from '../db/warehouse.ts';
import { loadModels, type Model } from '../models/load-models.ts';
import { windowRows } from '../models/date-ranges.ts';
import { inTransaction } from '../models/run-models.ts';
import { replaceRows } from '../models/tables.ts';
import { anyChangeAfter, changesAfter, isPublished } from '../models/changes.ts';
import {
  notedSnapshots,
  notePublished,
  publishedBase,
  spareBase,
  sparePath,
  worthKeeping,
  type Base,
} from './bases.ts';
import { readManifest } from './open-snapshot.ts';
import { MktdataError } from '../errors.ts';
import type { PublishResult } from './manifest.ts';
import { quote } from '../db/sql.ts';
import { connectionAccounts } from '../control/connections/connections.ts';

export type { PublishedConnection, PublishResult } from './manifest.ts';

/**
 * When a write was refused for want of space (or over a quota or the file size limit), the line of the error that
 * says so; else undefined.
 */
function diskFull(error: unknown): string | undefined {
  const saying = /no space left on device|ENOSPC|disk quota exceeded|EDQUOT|file too large|EFBIG/i;
  return String((error as Error)?.message ?? error)
    .split('\n')
    .find((line) => saying.test(line))
    ?.trim();
}

let publishes = 0;
/** How many snapshots this process has published: what depends on the published state is cached by it. */
export const publishCount = () => publishes;

/**
 * Writes the catalog tables to a new DuckDB file, then renames it over `published/warehouse.duckdb`: readers see
 * the old snapshot or the new one, never a mix.
 *
 * The new file starts as the spare (the snapshot before the published one) and gets what models changed since it
 * was published: their windows' rows, or whole tables. Without a spare it can start from (none yet, or a reader
 * still holds it open), it starts as a copy of the published file, which grows with history; without a snapshot
 * this warehouse wrote and nobody changed, every table is copied. Either way the snapshot holds the same rows as the
 * warehouse's catalog tables. The snapshot it replaces becomes the spare.
 */
export async function publish(wh: Warehouse): Promise<PublishResult> {
  const { home, sql } = wh;
  mkdirSync(home.publishedDir, { recursive: true });
  const built = await builtTables(wh);
  const current = await publishedBase(wh);
  // A build that replaced every table whole gains nothing from the last snapshots.
  const sinceCurrent = (await changesAfter(sql, current?.upTo ?? 0)).byTable;
  const everyTableReplaced = built.every((m) => sinceCurrent.get(m.name) === 'whole');
  const bases = everyTableReplaced ? [] : [await spareBase(wh), current].filter((b) => b !== null);
  await replacedSnapshotRemoved(wh);
  // A publish killed mid-copy leaves its unfinished file, DuckDB's log and its manifest behind, and one killed after
  // it the snapshot it replaced; no reader opened them under those names.
  for (const stale of readdirSync(home.publishedDir).filter((f) =>
    ['.next-', '.manifest-', '.replaced-'].some((p) => f.startsWith(p)),
  )) {
    rmSync(join(home.publishedDir, stale), { force: true });
  }
  const next = join(home.publishedDir, `.next-${randomUUID()}.duckdb`);
  const tables: PublishResult['tables'] = [];
  const manifest = join(home.publishedDir, `.manifest-${randomUUID()}.json`);
  let result: PublishResult;
  let upTo: number;
  try {
    const base = await attachNext(wh, next, bases);
    try {
      const changes = await changesAfter(sql, base?.upTo ?? 0);
      upTo = Math.max(changes.upTo, (await notedSnapshots(wh)).publishedUpTo);
      // One transaction: the snapshot file takes one commit, not one per statement (each wrote its log and
      // checkpointed).
      await inTransaction(sql, async () => {
        for (const model of built) {
          const target = `next_snapshot.main.${model.name}`;
          const before = base?.tables.find((t) => t.name === model.name);
          const change = changes.byTable.get(model.name);
          if (before && !change) {
            tables.push(before);
            continue;
          }
          if (!before || change === 'whole' || !model.config.window) {
            await sql.run(`create or replace table ${target} as select * from ${model.id}`);
          } else {
            await replaceRows(sql, target, model.id, windowRows(model, change!), model.config.window.date_column);
          }
          const count = await sql.runAndReadAll(`select count(*)::bigint from ${target}`);
          tables.push({ name: model.name, rows: Number(count.getRowsJson()[0]?.[0] ?? 0) });
        }
        for (const gone of (base?.tables ?? []).filter((t) => !built.some((m) => m.name === t.name))) {
          await sql.run(`drop table if exists next_snapshot.main.${gone.name}`);
        }
      });
    } finally {
      await sql.run('detach database if exists next_snapshot');
    }
    const connections = (await connectionAccounts(wh.db)).map((c) => ({
      id: c.id,
      organizationId: c.organization_id,
      type: c.type,
      marketplaceId: c.marketplace_id,
    }));
    // Renaming keeps the file's size and time: the manifest is written before anything is renamed, so a disk
    // that fills up stops the publish while the previous snapshot and its manifest are still in place.
    const { size, mtimeMs } = statSync(next);
    result = {
      path: home.published,
      tables,
      publishedAt: new Date().toISOString(),
      connections,
      snapshotId: randomUUID(),
      file: { size, mtimeMs },
      incremental: base !== null,
    };
    writeFileSync(manifest, JSON.stringify({ ...result, path: undefined }, null, 2));
  } catch (error) {
    // The unfinished file, the log DuckDB kept beside it, and the manifest: on a full disk their space is needed.
    for (const file of [next, `${next}.wal`, manifest]) rmSync(file, { force: true });
    const reason = diskFull(error);
    throw reason
      ? new MktdataError(
          'ERR_PUBLISH_DISK_FULL',
          { dir: home.publishedDir, reason, previous: readManifest(home)?.publishedAt ?? 'none yet' },
          { cause: error },
        )
      : error;
  }
  // Any crash from here on leaves the manifest and the warehouse naming different snapshots: the next publish is whole.
  const spareNext = current && worthKeeping(sinceCurrent, built) ? current : null;
  await inTransaction(sql, () => notePublished(wh, { snapshotId: result.snapshotId, upTo }, spareNext));
  // The published file stays as the spare, under a second name. A spare the publish did not start from, and a
  // published file this warehouse did not write or that is not worth keeping, are deleted in the background: deleting a
  // large file takes long enough to hold the run up.
  const spare = sparePath(wh);
  const aside = () => join(home.publishedDir, `.replaced-${randomUUID()}.duckdb`);
  const oldSpare = existsSync(spare) ? aside() : null;
  if (oldSpare) renameSync(spare, oldSpare);
  const kept = spareNext ? spare : aside();
  try {
    if (existsSync(home.published)) linkSync(home.published, kept);
  } catch {
    // (A file system without hard links: the new snapshot is renamed over the old one, and no spare is kept.)
  }
  renameSync(next, home.published);
  renameSync(manifest, join(home.publishedDir, 'manifest.json'));
  const removed = [oldSpare, spareNext ? null : kept].filter((f) => f !== null);
  removals.set(
    home.root,
    Promise.all(removed.map((file) => rm(file, { force: true }).catch(() => {}))).then(() => {}),
  );
  publishes++;
  return result;
}

/**
 * Attaches `next` as next_snapshot, started from the first of `bases` it can: the spare is renamed to `next`, the
 * published file copied (a copy-on-write clone where the file system offers one: btrfs, xfs, APFS). Returns that
 * base, or null for an empty file.
 */
async function attachNext(wh: Warehouse, next: string, bases: Base[]): Promise<Base | null> {
  // ATTACH takes no parameters; the path is ours (home folder + uuid), quoted as a literal.
  const attach = () => wh.sql.run(`attach ${quote(next)} as next_snapshot`);
  for (const base of bases) {
    const isSpare = base.path === sparePath(wh);
    if (isSpare) renameSync(base.path, next);
    else copyFileSync(base.path, next, constants.COPYFILE_FICLONE);
    try {
      await attach();
      return base;
    } catch (error) {
      // A spare that cannot be opened for writing is dropped and the published file copied: another process's reader
      // that still has it open holds a lock on it (it is left to them), or the file was damaged since.
      if (!isSpare) throw error;
      for (const file of [next, `${next}.wal`]) rmSync(file, { force: true });
    }
  }
  await attach();
  return null;
}

/** Deletions of replaced snapshots under way, by home folder (see publish). */
const removals = new Map<string, Promise<void>>();

/** Resolves once the snapshot the last publish replaced is deleted. */
export async function replacedSnapshotRemoved(wh: Warehouse): Promise<void> {
  await removals.get(wh.home.root);
}

/**
 * Whether the published snapshot is behind the warehouse: changes noted since the last publish, or a publish that
 * did not finish (killed after the warehouse recorded it, before the file or its manifest was in place).
 */
export async function snapshotBehind(wh: Warehouse): Promise<boolean> {
  const { publishedId, publishedUpTo } = await notedSnapshots(wh);
  if (await anyChangeAfter(wh.sql, publishedUpTo)) return true;
  return (
    publishedId !== undefined && (readManifest(wh.home)?.snapshotId !== publishedId || !existsSync(wh.home.published))
  );
}

/** Catalog tables that exist in the warehouse. */
async function builtTables(wh: Warehouse): Promise<Model[]> {
  const reader = await wh.sql.runAndReadAll(
    `select table_name from information_schema.tables where table_schema = 'marts'`,
  );
  const existing = new Set(reader.getRowsJson().map(([name]) => String(name)));
  return loadModels().filter((m) => isPublished(m) && existing.has(m.name));
}
