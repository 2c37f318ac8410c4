import { constants, copyFileSync, existsSync, linkSync, mkdirSync, readdirSync, renameSync, rmSync, statfsSync, statSync, writeFileSync } from 'node:fs';
import { copyFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Warehouse } from '../db/warehouse.ts';
import { loadModels, type Model } from '../models/load-models.ts';
import { windowRows } from '../models/date-ranges.ts';
import { inTransaction } from '../models/run-models.ts';
import { replaceRows } from '../models/tables.ts';
import { isPublished, unpublishedChanges } from './changes.ts';
import { readManifest } from './open-snapshot.ts';
import { MktdataError } from '../errors.ts';

/** What a publish wrote. */
export interface PublishResult {
  path: string;
  tables: { name: string; rows: number }[];
  publishedAt: string;
  /** the connections known when it was published: `mktdata export` reads them from the manifest, not the writer's file */
  connections: PublishedConnection[];
  /** this snapshot's id; the warehouse keeps the id of the last snapshot it published */
  snapshotId: string;
  /** the published file as it was written: a file changed since is not started from */
  file: { size: number; mtimeMs: number };
  /** whether it started from the previous snapshot and replaced only what changed since */
  incremental: boolean;
}

/** A connection as the manifest records it. */
export interface PublishedConnection {
  id: string;
  organizationId: string;
  type: string;
  marketplaceId: string;
}

/**
 * When a write was refused for want of space (or over a quota or the file size limit), the line of the error that
 * says so; else undefined.
 */
function diskFull(error: unknown): string | undefined {
  const saying = /no space left on device|ENOSPC|disk quota exceeded|EDQUOT|file too large|EFBIG/i;
  return String((error as Error)?.message ?? error).split('\n').find((line) => saying.test(line))?.trim();
}

/** A copy of the published snapshot started ahead of a publish, by home folder (see copySnapshotAhead). */
const aheadCopies = new Map<string, { snapshotId: string; path: string; copied: Promise<boolean> }>();

/**
 * Starts copying the published snapshot in the background, for the next publish to start from: the copy grows with
 * history (0.3 s of a next-day run on two years of the bench, 0.85 s on four) and is then made while the models run.
 * Does nothing when the publish could not start from the snapshot, a copy is under way, or the disk is nearly full.
 * The next publish takes the copy when the snapshot is still the one copied, else deletes it; discardSnapshotAhead
 * deletes one no publish took.
 */
export async function copySnapshotAhead(wh: Warehouse): Promise<void> {
  if (aheadCopies.has(wh.home.root)) return;
  const previous = await startingPoint(wh);
  if (!previous) return;
  // With less room than twice the snapshot, the copy waits for the publish: made now, it could take the space the
  // models' own writes need, and a full disk would then fail the models rather than only the publish.
  const { bavail, bsize } = statfsSync(wh.home.publishedDir);
  if (bavail * bsize < 2 * previous.file.size) return;
  const path = join(wh.home.publishedDir, `.next-${randomUUID()}.duckdb`);
  // (A failed copy is deleted and the publish copies again: its own error is the one to report.)
  const copied = copyFile(wh.home.published, path, constants.COPYFILE_FICLONE).then(
    () => true,
    () => (rmSync(path, { force: true }), false),
  );
  aheadCopies.set(wh.home.root, { snapshotId: previous.snapshotId, path, copied });
}

/** Deletes the copy copySnapshotAhead started, when no publish took it. */
export async function discardSnapshotAhead(wh: Warehouse): Promise<void> {
  await takeAheadCopy(wh, undefined);
}

/** The copy made ahead when it is of `snapshotId` and whole, else null (any other copy is deleted, once whole). */
async function takeAheadCopy(wh: Warehouse, snapshotId: string | undefined): Promise<string | null> {
  const ahead = aheadCopies.get(wh.home.root);
  if (!ahead) return null;
  aheadCopies.delete(wh.home.root);
  if ((await ahead.copied) && ahead.snapshotId === snapshotId) return ahead.path;
  rmSync(ahead.path, { force: true });
  return null;
}

let publishes = 0;
/** How many snapshots this process has published: what depends on the published state is cached by it. */
export const publishCount = () => publishes;

/**
 * Writes the catalog tables to a new DuckDB file, then renames it over `published/warehouse.duckdb`: readers see
 * the old snapshot or the new one, never a mix.
 *
 * When the published file is the last snapshot this warehouse wrote, unchanged since, the new file starts as a copy
 * of it and gets only what models changed since (their windows' rows, or whole tables); otherwise every table is
 * copied. Either way the snapshot holds the same rows as the warehouse's catalog tables.
 */
export async function publish(wh: Warehouse): Promise<PublishResult> {
  const { home, sql } = wh;
  mkdirSync(home.publishedDir, { recursive: true });
  const built = await builtTables(wh);
  const changes = await unpublishedChanges(sql);
  // A build that replaced every table whole gains nothing from the last snapshot.
  const everyTableReplaced = built.every((m) => changes.byTable.get(m.name) === 'whole');
  const previous = everyTableReplaced ? null : await startingPoint(wh);
  const ahead = await takeAheadCopy(wh, previous?.snapshotId);
  await replacedSnapshotRemoved(wh);
  // A publish killed mid-copy leaves its unfinished file, DuckDB's log and its manifest behind, and one killed after
  // it the snapshot it replaced; no reader opened them under those names.
  for (const stale of readdirSync(home.publishedDir).filter((f) => ['.next-', '.manifest-', '.replaced-'].some((p) => f.startsWith(p)))) {
    if (join(home.publishedDir, stale) !== ahead) rmSync(join(home.publishedDir, stale), { force: true });
  }
  const next = ahead ?? join(home.publishedDir, `.next-${randomUUID()}.duckdb`);
  const tables: PublishResult['tables'] = [];
  const manifest = join(home.publishedDir, `.manifest-${randomUUID()}.json`);
  let result: PublishResult;
  try {
    // A copy-on-write clone where the file system offers one (btrfs, xfs, APFS), else a plain copy.
    if (previous && !ahead) copyFileSync(home.published, next, constants.COPYFILE_FICLONE);
    // ATTACH takes no parameters; the path is ours (home folder + uuid), quoted as a literal.
    await sql.run(`attach '${next.replace(/'/g, "''")}' as next_snapshot`);
    try {
      // One transaction: the snapshot file takes one commit, not one per statement (each wrote its log and checkpointed).
      await inTransaction(sql, async () => {
        for (const model of built) {
          const target = `next_snapshot.main.${model.name}`;
          const before = previous?.tables.find((t) => t.name === model.name);
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
        for (const gone of (previous?.tables ?? []).filter((t) => !built.some((m) => m.name === t.name))) {
          await sql.run(`drop table if exists next_snapshot.main.${gone.name}`);
        }
      });
    } finally {
      await sql.run('detach database if exists next_snapshot');
    }
    const connections = (await wh.db.selectFrom('control.connections').select(['id', 'organization_id', 'type', 'marketplace_id']).orderBy('id').execute())
      .map((c) => ({ id: c.id, organizationId: c.organization_id, type: c.type, marketplaceId: c.marketplace_id }));
    // Renaming keeps the file's size and time: the manifest is written before anything is renamed, so a disk
    // that fills up stops the publish while the previous snapshot and its manifest are still in place.
    const { size, mtimeMs } = statSync(next);
    result = { path: home.published, tables, publishedAt: new Date().toISOString(), connections, snapshotId: randomUUID(), file: { size, mtimeMs }, incremental: previous !== null };
    writeFileSync(manifest, JSON.stringify({ ...result, path: undefined }, null, 2));
  } catch (error) {
    // The unfinished file, the log DuckDB kept beside it, and the manifest: on a full disk their space is needed.
    for (const file of [next, `${next}.wal`, manifest]) rmSync(file, { force: true });
    const reason = diskFull(error);
    throw reason ? new MktdataError('ERR_PUBLISH_DISK_FULL', { dir: home.publishedDir, reason, previous: readManifest(home)?.publishedAt ?? 'none yet' }, { cause: error }) : error;
  }
  // Any crash from here on leaves the manifest and the warehouse naming different snapshots: the next publish is whole.
  await inTransaction(sql, async () => {
    await sql.run(`delete from control.unpublished_changes where seq <= $seq`, { seq: changes.upTo });
    await sql.run(`insert or replace into control.settings values ('published_snapshot_id', $id)`, { id: result.snapshotId });
  });
  // Renaming over the last snapshot would free its blocks on the way (0.1 s for two years of the bench's 580 MB on
  // ext4): it is kept under another name until the new one is in place, and deleted in the background.
  // (With no snapshot yet, or on a file system without hard links, the new one is renamed over the old.)
  let replaced: string | null = join(home.publishedDir, `.replaced-${randomUUID()}.duckdb`);
  try {
    linkSync(home.published, replaced);
  } catch {
    replaced = null;
  }
  renameSync(next, home.published);
  renameSync(manifest, join(home.publishedDir, 'manifest.json'));
  if (replaced) removals.set(home.root, rm(replaced, { force: true }).catch(() => {}));
  publishes++;
  return result;
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
  const pending = await wh.sql.runAndReadAll('select 1 from control.unpublished_changes limit 1');
  if (pending.currentRowCount > 0) return true;
  const row = await wh.db.selectFrom('control.settings').select('value').where('name', '=', 'published_snapshot_id').executeTakeFirst();
  return row !== undefined && (readManifest(wh.home)?.snapshotId !== row.value || !existsSync(wh.home.published));
}

/** The published snapshot's manifest, when its file is the last one this warehouse published and is unchanged since. */
async function startingPoint(wh: Warehouse): Promise<PublishResult | null> {
  const manifest = readManifest(wh.home);
  // A manifest edited by hand, or from before snapshots had ids, is not started from.
  if (typeof manifest?.snapshotId !== 'string' || !manifest.file || !Array.isArray(manifest.tables) || !existsSync(wh.home.published)) return null;
  const row = await wh.db.selectFrom('control.settings').select('value').where('name', '=', 'published_snapshot_id').executeTakeFirst();
  const { size, mtimeMs } = statSync(wh.home.published);
  const unchanged = size === manifest.file.size && mtimeMs === manifest.file.mtimeMs;
  return row?.value === manifest.snapshotId && unchanged ? manifest : null;
}

/** Catalog tables that exist in the warehouse. */
async function builtTables(wh: Warehouse): Promise<Model[]> {
  const reader = await wh.sql.runAndReadAll(`select table_name from information_schema.tables where table_schema = 'marts'`);
  const existing = new Set(reader.getRowsJson().map(([name]) => String(name)));
  return loadModels().filter((m) => isPublished(m) && existing.has(m.name));
}
