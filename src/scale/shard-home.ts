import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { MktdataError } from '../errors.ts';
import { resolveHome, type Home } from '../home.ts';
import type { Transaction } from 'kysely';
import type { ControlStore } from '../db/control-store.ts';
import type { ControlPlane } from '../db/control-plane.ts';
import type { Warehouse } from '../db/warehouse.ts';
import { sidecarOf } from '../pipelines/landing.ts';
import type { ShardLease } from '../control/shard-leases.ts';

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
  if (!sharedDir) throw new MktdataError('ERR_INPUT_INVALID', { where: 'MKTDATA_SHARED_DIR', reason: 'a scaled-out install (MKTDATA_DATABASE_URL is set) needs the shared folder its processes all reach' });
  const count = Number(env.MKTDATA_SHARDS ?? 12);
  if (!Number.isInteger(count) || count < 1 || count > 999) throw new MktdataError('ERR_INPUT_INVALID', { where: 'MKTDATA_SHARDS', reason: `"${env.MKTDATA_SHARDS}" is not a whole number of shards from 1 to 999` });
  return { databaseUrl, sharedDir: resolveHome(sharedDir).root, shards: Array.from({ length: count }, (_, i) => `shard-${String(i + 1).padStart(3, '0')}`) };
}

/**
 * The home of the API replicas: the shared folder itself (exports and data files written by one replica are served
 * by another; a COGS change lands as a document the shard picks up), reading the shards' snapshots.
 */
export function sharedHome(config: Pick<ScaleConfig, 'sharedDir'>): Home {
  return { ...resolveHome(config.sharedDir), shards: join(config.sharedDir, 'shards') };
}

/** Where a shard's published snapshot and its checkpoint (the shard's warehouse after its last run) are shared. */
export function sharedShard(sharedDir: string, shard: string) {
  const dir = join(sharedDir, 'shards', shard);
  return { dir, published: join(dir, 'published'), checkpoint: join(dir, 'checkpoint.duckdb') };
}

/**
 * A shard's home on a worker's disk: its own warehouse and published snapshot, and the shared folder's documents
 * (`landing/` and `landed/`), so that a shard moved to another worker is rebuilt from the same documents.
 */
export function shardHome(workDir: string, sharedDir: string, shard: string): Home {
  const shared = resolveHome(sharedDir);
  return { ...resolveHome(join(workDir, shard)), landing: shared.landing, landed: shared.landed };
}

/** The fencing token the local copy of a shard was built under (`lease.json`), or null. */
function localToken(home: Home): number | null {
  try {
    return (JSON.parse(readFileSync(join(home.root, 'lease.json'), 'utf8')) as { token: number }).token;
  } catch {
    return null;
  }
}

/**
 * Makes the local copy of a shard the one to build on under `lease`: kept when it was built under the same token
 * (this worker held the shard all along), else replaced by the shard's shared checkpoint (or started empty). The
 * documents landed after that checkpoint are then put back in landing/ by `relandMissing`.
 */
export function restoreShard(home: Home, sharedDir: string, lease: ShardLease): 'kept' | 'restored' | 'new' {
  if (localToken(home) === lease.token && existsSync(home.warehouse)) return 'kept';
  rmSync(home.root, { recursive: true, force: true });
  mkdirSync(home.root, { recursive: true });
  const { checkpoint } = sharedShard(sharedDir, lease.shard);
  const restored = existsSync(checkpoint);
  if (restored) copyFileSync(checkpoint, home.warehouse);
  writeFileSync(join(home.root, 'lease.json'), JSON.stringify({ shard: lease.shard, token: lease.token }));
  return restored ? 'restored' : 'new';
}

/**
 * Moves back to landing/ every archived document of the shard's connections that its warehouse has not landed (it
 * was landed by a worker that died before its checkpoint, or the connection moved here from another shard), so
 * the next run lands it. Returns how many.
 */
export async function relandMissing(wh: Warehouse, connectionIds: string[]): Promise<number> {
  const known = new Set((await wh.db.selectFrom('control.landed_files').select('id').execute()).map((r) => r.id));
  let moved = 0;
  for (const connection of connectionIds) {
    const archive = join(wh.home.landed, connection);
    if (!existsSync(archive)) continue;
    for (const source of readdirSync(archive)) {
      for (const name of readdirSync(join(archive, source)).filter((n) => !n.endsWith('.sidecar.json'))) {
        const fileId = name.slice(0, 36);
        if (known.has(fileId)) continue;
        const folder = join(wh.home.landing, connection, source);
        mkdirSync(folder, { recursive: true });
        const from = join(archive, source, name);
        const to = join(folder, name.slice(37));
        renameSync(from, to);
        if (existsSync(sidecarOf(from))) renameSync(sidecarOf(from), sidecarOf(to));
        moved++;
      }
    }
  }
  return moved;
}

/**
 * Copies files into the shared folder under the shard's fence: each is copied beside its target, then renamed into
 * place inside a transaction that holds the shard's lease row and finds the lease still carrying `lease.token`. A
 * worker that lost the shard (it froze past its lease and another took over) renames nothing and gets false.
 * The renames come after `alsoWrite`, last before the commit.
 */
export async function copyFenced(
  store: ControlStore,
  lease: Pick<ShardLease, 'shard' | 'token'>,
  files: { from: string; to: string }[],
  /** shared control-plane writes that stand only with the files (they commit with the renames) */
  alsoWrite?: (trx: Transaction<ControlPlane>) => Promise<unknown>,
): Promise<boolean> {
  const staged = files.map(({ from, to }) => {
    mkdirSync(join(to, '..'), { recursive: true });
    const next = `${to}.next-${randomUUID()}`;
    copyFileSync(from, next);
    return { next, to };
  });
  try {
    return await store.db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('control.shard_leases').select('token').where('shard', '=', lease.shard).forUpdate().executeTakeFirst();
      if (!row || Number(row.token) !== lease.token) return false;
      await alsoWrite?.(trx);
      for (const { next, to } of staged) renameSync(next, to);
      return true;
    });
  } finally {
    for (const { next } of staged) rmSync(next, { force: true });
  }
}
