import { statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { Warehouse } from '../db/warehouse.ts';
import { forgetSetting, noteSetting, settingsNamed } from '../db/settings.ts';
import { mergeRanges, type DateRange } from '../models/date-ranges.ts';
import type { Model } from '../models/load-models.ts';
import { forgetChangesUpTo, type TableChange } from '../models/changes.ts';
import { readManifest } from './open-snapshot.ts';
import { openHere } from './snapshot-instances.ts';

/**
 * A snapshot file a publish can start from: one this warehouse wrote, unchanged since, with the tables it holds and
 * the last change it took in (a seq of control.unpublished_changes).
 */
export interface Base {
  path: string;
  snapshotId: string;
  tables: { name: string; rows: number }[];
  /** the file as it was written: a file changed since is not started from */
  file: { size: number; mtimeMs: number };
  upTo: number;
}

const noted = z.object({
  snapshotId: z.string(),
  tables: z.array(z.object({ name: z.string(), rows: z.number() })),
  file: z.object({ size: z.number(), mtimeMs: z.number() }),
  upTo: z.number(),
});

/**
 * The spare: the snapshot the published one replaced, kept so that the next publish brings it up to date (the
 * changes of two publishes) instead of copying the published file whole, which grows with history.
 */
export const sparePath = (wh: Warehouse) => join(wh.home.publishedDir, '.spare.duckdb');

/**
 * Days of one table and connection a publish may change and still keep the snapshot it replaced as the spare: the
 * next publish changes them again. A day's windows (28-35 days, a monthly refresh's two months) are worth it; a first
 * load's years are not (the day after one would rewrite years of rows from the spare, several times a routine day).
 */
const SPARE_DAYS = 62;

/** Whether the snapshot a publish replaces is worth keeping as the spare, given what the publish changed in it. */
export function worthKeeping(changes: Map<string, TableChange>, models: Model[]): boolean {
  const days = (r: DateRange) => (Date.parse(r.to) - Date.parse(r.from)) / 86_400_000 + 1;
  return [...changes].every(([table, change]) =>
    change === 'whole'
      ? !models.find((m) => m.name === table)?.config.window // (a table without windows is copied whole from either)
      : change.every((c) => mergeRanges(c.ranges).reduce((sum, r) => sum + days(r), 0) <= SPARE_DAYS),
  );
}

/** What the settings note of the published snapshot and of the spare. */
export async function notedSnapshots(wh: Warehouse) {
  const rows = await settingsNamed(wh.db, ['published_snapshot_id', 'published_changes_seq', 'spare_snapshot']);
  const value = (name: string) => rows.find((r) => r.name === name)?.value;
  let spare: z.infer<typeof noted> | null = null;
  try {
    spare = noted.parse(JSON.parse(value('spare_snapshot') ?? 'null'));
  } catch {
    // (None noted, or a value mangled by hand: the next publish copies the published file.)
  }
  return {
    publishedId: value('published_snapshot_id'),
    publishedUpTo: Number(value('published_changes_seq') ?? 0),
    spare,
  };
}

/** The published snapshot, when it is the last one this warehouse published and its file is unchanged since. */
export async function publishedBase(wh: Warehouse): Promise<Base | null> {
  const manifest = readManifest(wh.home);
  // A manifest edited by hand, or from before snapshots had ids, is not started from.
  if (typeof manifest?.snapshotId !== 'string' || !manifest.file || !Array.isArray(manifest.tables)) return null;
  const { publishedId, publishedUpTo } = await notedSnapshots(wh);
  const base = {
    path: wh.home.published,
    snapshotId: manifest.snapshotId,
    tables: manifest.tables,
    file: manifest.file,
    upTo: publishedUpTo,
  };
  return publishedId === manifest.snapshotId && unchanged(base) ? base : null;
}

/**
 * The spare, when it is unchanged since it was published, has no other name (a publish killed while it was still
 * the published file's second name leaves it so) and no reader of this process has it open.
 */
export async function spareBase(wh: Warehouse): Promise<Base | null> {
  const { spare } = await notedSnapshots(wh);
  if (!spare) return null;
  const base = { ...spare, path: sparePath(wh) };
  const now = unchanged(base);
  return now && now.nlink === 1 && !openHere(now.ino) ? base : null;
}

/** The file's state when it is the one `base` notes, else undefined. */
function unchanged(base: Base) {
  const now = statSync(base.path, { throwIfNoEntry: false });
  return now && now.size === base.file.size && now.mtimeMs === base.file.mtimeMs ? now : undefined;
}

/**
 * Notes that `snapshot` is published and `spare` is the one before it (or that there is none), and forgets the
 * changes the spare holds. Call it in the transaction that ends a publish.
 */
export async function notePublished(
  wh: Warehouse,
  snapshot: { snapshotId: string; upTo: number },
  spare: Base | null,
): Promise<void> {
  const { sql } = wh;
  const set = (name: string, value: string) => noteSetting(sql, name, value);
  await forgetChangesUpTo(sql, spare?.upTo ?? snapshot.upTo);
  await set('published_snapshot_id', snapshot.snapshotId);
  await set('published_changes_seq', String(snapshot.upTo));
  if (spare)
    await set(
      'spare_snapshot',
      JSON.stringify({ snapshotId: spare.snapshotId, tables: spare.tables, file: spare.file, upTo: spare.upTo }),
    );
  else await forgetSetting(sql, 'spare_snapshot');
}
