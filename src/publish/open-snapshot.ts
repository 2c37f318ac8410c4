import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { duckDbOptions, resourceOptions } from '../db/warehouse.ts';
import { MktdataError } from '../errors.ts';
import type { Home } from '../home.ts';
import type { PublishResult } from './publish.ts';

/** Runs `work` on a read-only connection to the published snapshot; never touches the writer's file. */
export async function withSnapshot<T>(home: Home, work: (sql: DuckDBConnection) => Promise<T>): Promise<T> {
  if (!existsSync(home.published)) throw new MktdataError('ERR_NOT_PUBLISHED', { home: home.root });
  const { memory_limit } = resourceOptions();
  const instance = await DuckDBInstance.create(home.published, { ...duckDbOptions, ...(memory_limit ? { memory_limit } : {}), access_mode: 'READ_ONLY' });
  const sql = await instance.connect();
  try {
    return await work(sql);
  } finally {
    sql.closeSync();
    instance.closeSync();
  }
}

/** The manifest of the published snapshot, or null before the first publish. */
export function readManifest(home: Home): PublishResult | null {
  try {
    return JSON.parse(readFileSync(join(home.publishedDir, 'manifest.json'), 'utf8')) as PublishResult;
  } catch {
    return null;
  }
}
