import { mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Warehouse } from '../db/warehouse.ts';
import { loadModels } from '../models/load-models.ts';

/** What a publish wrote. */
export interface PublishResult {
  path: string;
  tables: { name: string; rows: number }[];
  publishedAt: string;
  /** the connections known when it was published: `mktdata export` reads them from the manifest, not the writer's file */
  connections: PublishedConnection[];
}

/** A connection as the manifest records it. */
export interface PublishedConnection {
  id: string;
  organizationId: string;
  type: string;
  marketplaceId: string;
}

/**
 * Copies every built catalog table into a new DuckDB file, then renames it over
 * `published/warehouse.duckdb`: readers see the old snapshot or the new one, never a mix.
 */
export async function publish(wh: Warehouse): Promise<PublishResult> {
  const { home, sql } = wh;
  mkdirSync(home.publishedDir, { recursive: true });
  // A publish killed mid-copy leaves its unfinished file behind; no reader ever opened it.
  for (const stale of readdirSync(home.publishedDir).filter((f) => f.startsWith('.next-'))) {
    rmSync(join(home.publishedDir, stale), { force: true });
  }
  const next = join(home.publishedDir, `.next-${randomUUID()}.duckdb`);
  const built = await builtTables(wh);
  const tables: PublishResult['tables'] = [];
  // ATTACH takes no parameters; the path is ours (home folder + uuid), quoted as a literal.
  await sql.run(`attach '${next.replace(/'/g, "''")}' as next_snapshot`);
  try {
    for (const name of built) {
      await sql.run(`create table next_snapshot.main.${name} as select * from marts.${name}`);
      const count = await sql.runAndReadAll(`select count(*)::bigint from next_snapshot.main.${name}`);
      tables.push({ name, rows: Number(count.getRowsJson()[0]?.[0] ?? 0) });
    }
    await sql.run('detach next_snapshot');
  } catch (error) {
    await sql.run('detach database if exists next_snapshot');
    rmSync(next, { force: true });
    throw error;
  }
  const publishedAt = new Date().toISOString();
  const connections = (await wh.db.selectFrom('control.connections').select(['id', 'organization_id', 'type', 'marketplace_id']).orderBy('id').execute())
    .map((c) => ({ id: c.id, organizationId: c.organization_id, type: c.type, marketplaceId: c.marketplace_id }));
  renameSync(next, home.published);
  const manifest = join(home.publishedDir, `.manifest-${randomUUID()}.json`);
  writeFileSync(manifest, JSON.stringify({ publishedAt, tables, connections }, null, 2));
  renameSync(manifest, join(home.publishedDir, 'manifest.json'));
  return { path: home.published, tables, publishedAt, connections };
}

/** Catalog tables (marts with a catalog entry) that exist in the warehouse. */
async function builtTables(wh: Warehouse): Promise<string[]> {
  const reader = await wh.sql.runAndReadAll(`select table_name from information_schema.tables where table_schema = 'marts'`);
  const existing = new Set(reader.getRowsJson().map(([name]) => String(name)));
  return loadModels()
    .filter((m) => m.schema === 'marts' && m.config.catalog && existing.has(m.name))
    .map((m) => m.name);
}
