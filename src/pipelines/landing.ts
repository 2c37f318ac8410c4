import { existsSync, mkdirSync, readdirSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Warehouse } from '../db/warehouse.ts';
import { landFile, type LandResult } from '../ingest/land-file.ts';
import { findSource } from '../ingest/sources/index.ts';

/** The request record the connectors write beside a fetched document (`<file>.sidecar.json`). */
export const sidecarOf = (file: string): string => `${file}.sidecar.json`;

/**
 * Files waiting in a landing folder: regular files, not hidden, not still being written (`.tmp`, `.partial`), and
 * not the connectors' sidecars.
 */
export function waitingFiles(folder: string): string[] {
  return readdirSync(folder)
    .filter((name) => !name.startsWith('.') && !/\.(tmp|partial)$|\.sidecar\.json$/.test(name) && statSync(join(folder, name)).isFile())
    .sort();
}

/**
 * Lands one file of `landing/<connection>/<SOURCE>/` and moves it (with its sidecar) to `landed/` under its file id;
 * a refused file stays in its folder renamed `.refused-<name>` (and is kept in quarantine by the ingest).
 */
export async function landAndArchive(wh: Warehouse, connection: { id: string; marketplaceId: string }, source: string, file: string): Promise<LandResult> {
  const name = file.slice(file.lastIndexOf('/') + 1);
  const folder = file.slice(0, file.lastIndexOf('/'));
  const result = await landFile(wh, findSource(source), connection, file);
  if (result.status === 'refused') {
    renameSync(file, join(folder, `.refused-${name}`));
    if (existsSync(sidecarOf(file))) renameSync(sidecarOf(file), join(folder, `.refused-${name}.sidecar.json`));
    return result;
  }
  const archive = join(wh.home.landed, connection.id, source);
  mkdirSync(archive, { recursive: true });
  const archived = join(archive, `${result.fileId}-${name}`);
  renameSync(file, archived);
  if (existsSync(sidecarOf(file))) renameSync(sidecarOf(file), sidecarOf(archived));
  return result;
}

/** Lands what waits in `landing/<sellerOrVendorId>/<SOURCE>/` for the given sources, then moves it to `landed/`. */
export async function landWaitingFiles(wh: Warehouse, sources: string[], onLanded?: (result: LandResult & { source: string }) => void): Promise<LandResult[]> {
  const results: LandResult[] = [];
  if (!existsSync(wh.home.landing)) return results;
  const connections = new Map((await wh.db.selectFrom('control.connections').select(['id', 'marketplace_id']).execute()).map((c) => [c.id, c]));
  for (const connectionId of readdirSync(wh.home.landing).sort()) {
    const connection = connections.get(connectionId);
    if (!connection) continue; // reported by `mktdata plan`
    for (const source of sources) {
      const folder = join(wh.home.landing, connectionId, source);
      if (!existsSync(folder)) continue;
      for (const name of waitingFiles(folder)) {
        const result = await landAndArchive(wh, { id: connection.id, marketplaceId: connection.marketplace_id }, source, join(folder, name));
        results.push(result);
        onLanded?.({ ...result, source });
      }
    }
  }
  return results;
}
