import { existsSync, mkdirSync, readdirSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Warehouse } from '../db/warehouse.ts';
import { landFile, type LandResult } from './land-file.ts';
import { landFiles, type WaitingFile } from './land-files.ts';
import { findSource } from './sources/index.ts';
import { sidecarOf } from '../home.ts';
import { connectionAccounts } from '../control/connections/connections.ts';

/**
 * Files waiting in a landing folder: regular files, not hidden, not still being written (`.tmp`, `.partial`), and
 * not the connectors' sidecars.
 */
export function waitingFiles(folder: string): string[] {
  return readdirSync(folder)
    .filter(
      (name) =>
        !name.startsWith('.') &&
        !/\.(tmp|partial)$|\.sidecar\.json$/.test(name) &&
        statSync(join(folder, name)).isFile(),
    )
    .sort();
}

/**
 * Moves a landed file (with its sidecar) to `landed/` under its file id; a refused file stays in its folder renamed
 * `.refused-<name>` (and is kept in quarantine by the ingest).
 */
function archive(wh: Warehouse, connectionId: string, source: string, result: LandResult): void {
  const file = result.file;
  const name = file.slice(file.lastIndexOf('/') + 1);
  const folder = file.slice(0, file.lastIndexOf('/'));
  if (result.status === 'refused') {
    renameSync(file, join(folder, `.refused-${name}`));
    if (existsSync(sidecarOf(file))) renameSync(sidecarOf(file), join(folder, `.refused-${name}.sidecar.json`));
    return;
  }
  const archive = join(wh.home.landed, connectionId, source);
  mkdirSync(archive, { recursive: true });
  const archived = join(archive, `${result.fileId}-${name}`);
  renameSync(file, archived);
  if (existsSync(sidecarOf(file))) renameSync(sidecarOf(file), sidecarOf(archived));
}

/** Lands one file of `landing/<connection>/<SOURCE>/` and archives it (see `archive`). */
export async function landAndArchive(
  wh: Warehouse,
  connection: { id: string; marketplaceId: string },
  source: string,
  file: string,
): Promise<LandResult> {
  const result = await landFile(wh, findSource(source), connection, file);
  archive(wh, connection.id, source, result);
  return result;
}

/** A document waiting in `landing/<connection>/<SOURCE>/`. */
export interface WaitingDocument extends WaitingFile {
  source: string;
}

/**
 * Lands documents and archives them, in their order per source and connection: a source's documents together
 * (ingest/land-files.ts), sources in the order they first come. The results are in the documents' order.
 */
export async function landDocuments(
  wh: Warehouse,
  documents: WaitingDocument[],
  onLanded?: (result: LandResult & { source: string }) => void,
): Promise<LandResult[]> {
  const results: LandResult[] = [];
  for (const source of new Set(documents.map((d) => d.source))) {
    const indexes = [...documents.keys()].filter((i) => documents[i]!.source === source);
    const landed = await landFiles(
      wh,
      findSource(source),
      indexes.map((i) => documents[i]!),
    );
    for (const [k, result] of landed.entries()) {
      archive(wh, documents[indexes[k]!]!.connection.id, source, result);
      results[indexes[k]!] = result;
      onLanded?.({ ...result, source });
    }
  }
  return results;
}

/** Lands what waits in `landing/<sellerOrVendorId>/<SOURCE>/` for the given sources (see `landDocuments`). */
export async function landWaitingFiles(
  wh: Warehouse,
  sources: string[],
  onLanded?: (result: LandResult & { source: string }) => void,
): Promise<LandResult[]> {
  if (!existsSync(wh.home.landing)) return [];
  const connections = new Map((await connectionAccounts(wh.db)).map((c) => [c.id, c]));
  const folders = readdirSync(wh.home.landing)
    .sort()
    .filter((id) => connections.has(id)); // others are reported by `mktdata plan`
  const waiting = sources.flatMap((source) =>
    folders.flatMap((id) => {
      const folder = join(wh.home.landing, id, source);
      const connection = { id, marketplaceId: connections.get(id)!.marketplace_id };
      return existsSync(folder)
        ? waitingFiles(folder).map((name) => ({ connection, source, file: join(folder, name) }))
        : [];
    }),
  );
  return landDocuments(wh, waiting, onLanded);
}
