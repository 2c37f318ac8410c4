import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { MktdataError } from '../errors.ts';
import { resolveHome, type Home } from '../home.ts';
import type { ScaleConfig } from './scale-config.ts';
import type { Transaction } from 'kysely';
import { openPostgresControl, type ControlStore } from '../db/control-store.ts';
import { settleSetting } from '../db/settings.ts';
import type { ControlPlane } from '../db/control-plane.ts';
import type { Warehouse } from '../db/warehouse.ts';
import { holdsFenceLocked, type ShardLease } from '../control/shard-leases.ts';
import { sidecarOf } from '../home.ts';
import { landedFileIds } from '../control/landed-files.ts';

/**
 * The shared control plane of a scaled-out install. The number of shards is recorded by the first process and fixed
 * for the install's life (a connection's shard follows from it); a process configured with another is refused.
 */
export async function openSharedControl(config: ScaleConfig): Promise<ControlStore & { close(): Promise<void> }> {
  const store = await openPostgresControl(config.databaseUrl);
  try {
    const shards = String(config.shards.length);
    const value = await settleSetting(store.db, 'scale_shards', shards);
    if (value !== shards) {
      throw new MktdataError('ERR_INPUT_INVALID', {
        where: 'MKTDATA_SHARDS',
        reason: `this install spreads its connections over ${value} shards, fixed for its life (a connection's shard follows from the count): set MKTDATA_SHARDS=${value}`,
      });
    }
    return store;
  } catch (error) {
    await store.close();
    throw error;
  }
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
  const known = await landedFileIds(wh.db);
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
      if (!(await holdsFenceLocked(trx, lease))) return false;
      await alsoWrite?.(trx);
      for (const { next, to } of staged) renameSync(next, to);
      return true;
    });
  } finally {
    for (const { next } of staged) rmSync(next, { force: true });
  }
}
