import type { Kysely } from 'kysely';
import type { ControlPlane } from '../db/control-plane.ts';
import type { ControlStore } from '../db/control-store.ts';

// control.shard_leases, which worker holds each shard and its fencing token: every query on it is in this file
// (test/db/control-table-modules.test.ts).

/** A worker's hold on a shard: the fencing token its publishes must carry, and until when it holds. */
export interface ShardLease {
  shard: string;
  owner: string;
  token: number;
  expiresAt: Date;
}

/**
 * Takes the lease on a shard for `owner`: a shard nobody holds, one whose lease ran out (its worker died or froze), or
 * one `owner` already holds. A new owner gets the next fencing token; null while another owner's lease runs.
 */
export async function acquireShard(
  store: ControlStore,
  shard: string,
  owner: string,
  ttlMs: number,
  now: Date,
): Promise<ShardLease | null> {
  const expiresAt = new Date(now.getTime() + ttlMs);
  // A shard seen for the first time: held by nobody, its lease long run out.
  await store.db
    .insertInto('control.shard_leases')
    .values({ shard, owner: '', token: 0, expires_at: new Date(0).toISOString() })
    .onConflict((oc) => oc.column('shard').doNothing())
    .execute();
  const taken = await store.db
    .updateTable('control.shard_leases')
    .set((eb) => ({
      token: eb
        .case()
        .when('owner', '=', owner)
        .then(eb.ref('token'))
        .else(eb('token', '+', 1))
        .end(),
      owner,
      expires_at: expiresAt.toISOString(),
    }))
    .where('shard', '=', shard)
    .where((eb) => eb.or([eb('owner', '=', owner), eb('expires_at', '<', now.toISOString())]))
    .returning(['token'])
    .execute();
  return taken[0] ? { shard, owner, token: Number(taken[0].token), expiresAt } : null;
}

/** Extends a lease still held with the same token; false when it was lost (taken over after it ran out). */
export async function renewShard(store: ControlStore, lease: ShardLease, ttlMs: number, now: Date): Promise<boolean> {
  const renewed = await store.db
    .updateTable('control.shard_leases')
    .set({ expires_at: new Date(now.getTime() + ttlMs).toISOString() })
    .where('shard', '=', lease.shard)
    .where('owner', '=', lease.owner)
    .where('token', '=', lease.token)
    .where('expires_at', '>=', now.toISOString())
    .executeTakeFirst();
  return renewed.numUpdatedRows > 0n;
}

/**
 * The fencing check of a publish, inside its transaction: true while the lease still carries `token`. A worker that
 * froze past its lease and woke up after another took the shard over finds a newer token and must not publish.
 */
export async function holdsFence(
  trx: Kysely<ControlPlane>,
  lease: Pick<ShardLease, 'shard' | 'token'>,
): Promise<boolean> {
  const row = await trx
    .selectFrom('control.shard_leases')
    .select('token')
    .where('shard', '=', lease.shard)
    .executeTakeFirst();
  return row !== undefined && Number(row.token) === lease.token;
}

/**
 * The fencing check of a shard home's copy, inside its transaction, the lease's row locked until that ends: true while
 * the lease still carries `token`, and no other worker can take the shard over before the copy is in place.
 */
export async function holdsFenceLocked(
  trx: Kysely<ControlPlane>,
  lease: Pick<ShardLease, 'shard' | 'token'>,
): Promise<boolean> {
  const row = await trx
    .selectFrom('control.shard_leases')
    .select('token')
    .where('shard', '=', lease.shard)
    .forUpdate()
    .executeTakeFirst();
  return row !== undefined && Number(row.token) === lease.token;
}

/** Gives a lease up at once (its expiry moved to the epoch), if it is still this one. */
export async function releaseShard(store: ControlStore, lease: ShardLease): Promise<void> {
  await store.db
    .updateTable('control.shard_leases')
    .set({ expires_at: new Date(0).toISOString() })
    .where('shard', '=', lease.shard)
    .where('owner', '=', lease.owner)
    .where('token', '=', lease.token)
    .execute();
}
