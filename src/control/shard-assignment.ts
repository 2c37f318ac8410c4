import { createHash } from 'node:crypto';
import type { ControlStore } from '../db/control-store.ts';
import { connectionIds } from './connections/connections.ts';

/**
 * The shard of a connection among `shards` by rendezvous (highest random weight) hashing: every connection goes to
 * the shard with the highest hash of (shard, connection). Adding a shard moves only the connections the new shard
 * wins (about 1/n of them) and removing one moves only its own connections, each to its next-best shard: a
 * rebalance moves nothing else, and every process computes the same answer without coordinating.
 */
export function shardOf(connectionId: string, shards: readonly string[]): string {
  if (shards.length === 0) throw new Error('no shards to assign connections to');
  let best = shards[0]!;
  let bestWeight = -1n;
  for (const shard of shards) {
    const weight = createHash('sha256').update(`${shard}\u0000${connectionId}`).digest().readBigUInt64BE(0);
    if (weight > bestWeight || (weight === bestWeight && shard < best)) [best, bestWeight] = [shard, weight];
  }
  return best;
}

/** A connection that changes shard: from where (null: not assigned yet) to where. */
export interface Move {
  connectionId: string;
  from: string | null;
  to: string;
}

/**
 * Assigns every connection to its shard among `shards` (control.connection_shards) and returns the moves: new
 * connections and those whose shard was added or removed. The rows of a moved connection are rebuilt on its new
 * shard from its landed documents (the source of truth), so a move neither loses nor doubles a row.
 */
export async function rebalance(store: ControlStore, shards: readonly string[], now: Date): Promise<Move[]> {
  const connections = await connectionIds(store.db);
  const current = new Map(
    (await store.db.selectFrom('control.connection_shards').select(['connection_id', 'shard']).execute()).map((r) => [
      r.connection_id,
      r.shard,
    ]),
  );
  const moves = connections
    .map((id) => ({ connectionId: id, from: current.get(id) ?? null, to: shardOf(id, shards) }))
    .filter((m) => m.from !== m.to);
  if (moves.length === 0) return moves;
  await store.db.transaction().execute(async (trx) => {
    for (const move of moves) {
      await trx
        .insertInto('control.connection_shards')
        .values({ connection_id: move.connectionId, shard: move.to, assigned_at: now.toISOString() })
        .onConflict((oc) => oc.column('connection_id').doUpdateSet({ shard: move.to, assigned_at: now.toISOString() }))
        .execute();
    }
  });
  return moves;
}
