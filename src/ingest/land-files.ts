import { randomUUID } from 'node:crypto';
import { basename } from 'node:path';
import { statSync } from 'node:fs';
import type { Warehouse } from '../db/warehouse.ts';
import { landFile, type LandResult } from './land-file.ts';
import type { BatchFile, LandingConnection, Source } from './source.ts';
import { hashFile } from './text-file.ts';
import { inTransaction } from '../db/sql.ts';
import { ensureMacros } from '../db/macros.ts';
import { receivingConnections } from '../control/connections/connections.ts';
import { landedContents, recordLandedBatch } from '../control/landed-files.ts';

/** A file waiting to be landed for a connection. */
export interface WaitingFile {
  connection: LandingConnection;
  file: string;
}

/**
 * Lands files of one source, in their order per connection: an agency's hundreds of connections each bring a file
 * or a few a day, and landing them one transaction each costs more than their rows. Files of connections whose
 * every waiting file is new and has one batch key (a plain flat file's header line) shared with other files are
 * landed together, one transaction per key (`Source.batch`); the rest, and every file of a batch that fails, one by
 * one.
 */
export async function landFiles(wh: Warehouse, source: Source, waiting: WaitingFile[]): Promise<LandResult[]> {
  const results: (LandResult | undefined)[] = waiting.map(() => undefined);
  if (source.batch && waiting.length > 1) {
    const { groups, hashes, receiving } = await batches(wh, source, waiting);
    for (const [key, indexes] of groups) {
      if (indexes.length < 2) continue;
      const started = Date.now();
      // Landing times one millisecond apart, in order: a connection's later file is its later version, as one by one.
      const files = indexes.map((i, k) => ({
        ...waiting[i]!,
        path: waiting[i]!.file,
        sha256: hashes[i]!,
        fileId: randomUUID(),
        landedAt: new Date(started + k).toISOString(),
      }));
      try {
        const rows = await landBatch(wh, source, key, files, receiving);
        indexes.forEach(
          (i, k) =>
            (results[i] = {
              status: 'landed',
              file: files[k]!.file,
              fileId: files[k]!.fileId,
              rows: rows.get(files[k]!.fileId) ?? 0,
            }),
        );
      } catch {
        // (One by one below: the file at fault is refused there, with its line and reason.)
      }
    }
  }
  for (const [i, w] of waiting.entries()) results[i] ??= await landFile(wh, source, w.connection, w.file);
  return results as LandResult[];
}

/** The files that may land together, by batch key: those of connections whose every waiting file has one. */
async function batches(wh: Warehouse, source: Source, waiting: WaitingFile[]) {
  const hashes = await Promise.all(waiting.map((w) => hashFile(w.file)));
  const landed = await landedContents(wh.sql, source.name, hashes);
  const seen = new Set<string>();
  const keys = waiting.map((w, i) => {
    const content = `${w.connection.id}/${hashes[i]}`;
    if (landed.has(content) || seen.has(content)) return null;
    seen.add(content);
    return source.batch!.key({ path: w.file, connection: w.connection });
  });
  const byConnection = new Map<string, number[]>();
  waiting.forEach((w, i) => byConnection.set(w.connection.id, [...(byConnection.get(w.connection.id) ?? []), i]));
  // A file's webhook events compare it with the versions landed before it: several files of a connection that a
  // subscription receives land one by one, so that each one's events are those it would have on its own.
  const receiving = source.events ? await receivingConnections(wh.sql, [...byConnection.keys()]) : new Set<string>();
  const groups = new Map<string, number[]>();
  for (const [connectionId, indexes] of byConnection) {
    const key = keys[indexes[0]!];
    if (!key || indexes.some((i) => keys[i] !== key) || (indexes.length > 1 && receiving.has(connectionId))) continue;
    groups.set(key, [...(groups.get(key) ?? []), ...indexes]);
  }
  return { groups, hashes, receiving };
}

/** Lands a batch in one transaction: the rows, their webhook events, and the files' records, all or nothing. */
async function landBatch(
  wh: Warehouse,
  source: Source,
  key: string,
  files: (BatchFile & { file: string; sha256: string })[],
  receiving: Set<string>,
): Promise<Map<string, number>> {
  await wh.sql.run(source.createTable);
  if (source.events) await ensureMacros(wh.sql);
  return inTransaction(wh.sql, async () => {
    const rows = await source.batch!.land(wh.sql, key, files);
    for (const f of files.filter((f) => receiving.has(f.connection.id)))
      await source.events?.({ ...f, sql: wh.sql, fileName: basename(f.path) });
    await recordLandedBatch(
      wh.sql,
      source.name,
      files.map((f) => ({
        id: f.fileId,
        connectionId: f.connection.id,
        sha256: f.sha256,
        fileName: basename(f.path),
        size: statSync(f.path).size,
        rows: rows.get(f.fileId) ?? 0,
        landedAt: f.landedAt,
      })),
    );
    return rows;
  });
}
