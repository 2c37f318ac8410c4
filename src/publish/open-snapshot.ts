import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { readerOptions } from '../db/warehouse.ts';
import { MktdataError } from '../errors.ts';
import type { Home } from '../home.ts';
import type { PublishedConnection, PublishResult } from './manifest.ts';
import { withPublishedInstance } from './snapshot-instances.ts';
import { quote } from '../db/sql.ts';

/**
 * Runs `work` on a read-only connection to the published snapshot; never touches the writer's file. In a
 * scaled-out install (`home.shards`), the connection sees every shard's snapshot: each catalog table is a view of
 * the union of the shards' tables, which hold disjoint connections.
 */
export async function withSnapshot<T>(home: Home, work: (sql: DuckDBConnection) => Promise<T>): Promise<T> {
  const shards = home.shards ? shardSnapshots(home.shards) : [];
  if (home.shards ? shards.length === 0 : !existsSync(home.published))
    throw new MktdataError('ERR_NOT_PUBLISHED', { home: home.root });
  const options = readerOptions();
  const connected = async (instance: DuckDBInstance) => {
    const sql = await instance.connect();
    try {
      if (home.shards) await unionShards(sql, shards);
      return await work(sql);
    } finally {
      sql.closeSync();
    }
  };
  if (!home.shards) return withPublishedInstance(home.published, options, connected);
  const instance = await DuckDBInstance.create(':memory:', options);
  try {
    return await connected(instance);
  } finally {
    instance.closeSync();
  }
}

/**
 * The published snapshot files a reader attaches, with the tables their manifests list: the home's, or in a
 * scaled-out install every shard's (they hold disjoint connections). Throws ERR_NOT_PUBLISHED before the first publish.
 */
export function publishedFiles(home: Home): { file: string; tables: string[] }[] {
  const files = home.shards
    ? shardSnapshots(home.shards)
    : existsSync(home.published)
      ? [{ file: home.published, manifest: readManifest(home) }]
      : [];
  if (files.length === 0) throw new MktdataError('ERR_NOT_PUBLISHED', { home: home.root });
  return files.map(({ file, manifest }) => ({ file, tables: manifest?.tables.map((t) => t.name) ?? [] }));
}

/** The shards' published snapshots (`<shards>/<shard>/published/`) with their manifests. */
function shardSnapshots(dir: string): { file: string; manifest: PublishResult }[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .flatMap((shard) => {
      const published = join(dir, shard, 'published');
      const manifest = readManifestIn(published);
      return manifest && existsSync(join(published, 'warehouse.duckdb'))
        ? [{ file: join(published, 'warehouse.duckdb'), manifest }]
        : [];
    });
}

/** Attaches each shard's snapshot read-only and makes every catalog table a view over all of them. */
async function unionShards(sql: DuckDBConnection, shards: { file: string; manifest: PublishResult }[]): Promise<void> {
  const holders = new Map<string, string[]>();
  for (const [index, { file, manifest }] of shards.entries()) {
    // ATTACH takes no parameters; the path is the shared folder's, quoted as a literal.
    await sql.run(`attach ${quote(file)} as shard_${index} (read_only)`);
    for (const { name } of manifest.tables)
      holders.set(name, [...(holders.get(name) ?? []), `shard_${index}.main.${name}`]);
  }
  for (const [table, sources] of holders)
    await sql.run(`create view ${table} as ${sources.map((s) => `select * from ${s}`).join(' union all by name ')}`);
}

function readManifestIn(dir: string): PublishResult | null {
  try {
    return JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as PublishResult;
  } catch {
    return null;
  }
}

/** The manifest of the published snapshot, or null before the first publish. */
export const readManifest = (home: Home): PublishResult | null => readManifestIn(home.publishedDir);

/** The manifests of the published snapshot (in a scaled-out install, of every shard's); none before a publish. */
export function publishedManifests(home: Home): PublishResult[] {
  if (!home.shards) return [readManifest(home)].filter((m) => m !== null);
  return shardSnapshots(home.shards).map((s) => s.manifest);
}

/** The connections the published snapshot holds (in a scaled-out install, every shard's), or null before a publish. */
export function publishedConnections(home: Home): PublishedConnection[] | null {
  if (!home.shards) return readManifest(home)?.connections ?? null;
  const shards = shardSnapshots(home.shards);
  return shards.length === 0 ? null : shards.flatMap((s) => s.manifest.connections ?? []);
}
