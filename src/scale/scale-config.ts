// What the CLI reads on every command to tell a single home from a scaled-out install: kept free of the modules
// a scaled-out install needs (PostgreSQL's client, kysely), so a single home's commands start without them.
import { join } from 'node:path';
import { MktdataError } from '../errors.ts';
import { resolveHome, type Home } from '../home.ts';

/** A scaled-out install's settings, from the environment (docs/scale-out.md). */
export interface ScaleConfig {
  /** MKTDATA_DATABASE_URL: the shared control plane */
  databaseUrl: string;
  /** MKTDATA_SHARED_DIR: documents (landing/, landed/), the shards' snapshots and checkpoints, exports and files */
  sharedDir: string;
  /** MKTDATA_SHARDS: how many shards the connections are spread over. @default 12 */
  shards: string[];
}

/** The scale-out settings, or null in a single home (no MKTDATA_DATABASE_URL). */
export function scaleConfig(env: NodeJS.ProcessEnv = process.env): ScaleConfig | null {
  const databaseUrl = env.MKTDATA_DATABASE_URL?.trim();
  if (!databaseUrl) return null;
  const sharedDir = env.MKTDATA_SHARED_DIR?.trim();
  if (!sharedDir)
    throw new MktdataError('ERR_INPUT_INVALID', {
      where: 'MKTDATA_SHARED_DIR',
      reason: 'a scaled-out install (MKTDATA_DATABASE_URL is set) needs the shared folder its processes all reach',
    });
  const count = Number(env.MKTDATA_SHARDS ?? 12);
  if (!Number.isInteger(count) || count < 1 || count > 999)
    throw new MktdataError('ERR_INPUT_INVALID', {
      where: 'MKTDATA_SHARDS',
      reason: `"${env.MKTDATA_SHARDS}" is not a whole number of shards from 1 to 999`,
    });
  return {
    databaseUrl,
    sharedDir: resolveHome(sharedDir).root,
    shards: Array.from({ length: count }, (_, i) => `shard-${String(i + 1).padStart(3, '0')}`),
  };
}

/**
 * The home of the API replicas: the shared folder itself (exports and data files written by one replica are served
 * by another; a COGS change lands as a document the shard picks up), reading the shards' snapshots.
 */
export function sharedHome(config: Pick<ScaleConfig, 'sharedDir'>): Home {
  return { ...resolveHome(config.sharedDir), shards: join(config.sharedDir, 'shards') };
}
