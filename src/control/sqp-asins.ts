import type { ControlStore } from '../db/control-store.ts';
import { MktdataError } from '../errors.ts';
import { requireOwnConnection } from './connections/connections.ts';

/** Spec 000 limits: ASINs per request and on the stored list; how long a change locks the list. */
export const SQP_MAX_ASINS = 252;
export const SQP_LOCK_MS = 72 * 3_600_000;

/** A seller connection's SQP ASIN list: what the live connectors request SQP reports for (empty: none). */
export interface SqpList {
  sellerOrVendorId: string;
  asins: string[];
  maxAsins: number;
  /** Until when the list is locked by its last change; null when it can be changed now. */
  editableAt: string | null;
}

async function readList(wh: ControlStore, connectionId: string, at: Date): Promise<SqpList> {
  const asins = (
    await wh.db
      .selectFrom('control.sqp_asins')
      .select('asin')
      .where('connection_id', '=', connectionId)
      .orderBy('asin')
      .execute()
  ).map((r) => r.asin);
  const lock = await wh.db
    .selectFrom('control.sqp_locks')
    .select('editable_at')
    .where('connection_id', '=', connectionId)
    .executeTakeFirst();
  const editableAt =
    lock && Date.parse(String(lock.editable_at)) > at.getTime()
      ? new Date(String(lock.editable_at)).toISOString()
      : null;
  return { sellerOrVendorId: connectionId, asins, maxAsins: SQP_MAX_ASINS, editableAt };
}

/** GET /sqp-asins: the list of one of the organization's seller connections. */
export async function sqpList(
  wh: ControlStore,
  organizationId: string,
  connectionId: string,
  at: Date,
): Promise<SqpList> {
  await requireOwnConnection(wh, organizationId, connectionId, 'SELLER_CENTRAL', 'SQP ASIN lists');
  return readList(wh, connectionId, at);
}

/**
 * Adds or removes ASINs (already trimmed and checked). A change that alters the list locks it for 72 hours; one that
 * alters nothing neither locks nor renews the lock, and is answered even while the list is locked. A change while
 * locked is ERR_SQP_LIST_LOCKED (409) carrying `editableAt`.
 */
export async function changeSqpList(
  wh: ControlStore,
  organizationId: string,
  connectionId: string,
  change: 'add' | 'remove',
  asins: string[],
  at: Date,
) {
  await requireOwnConnection(wh, organizationId, connectionId, 'SELLER_CENTRAL', 'SQP ASIN lists');
  return serially(wh, connectionId, () => applyChange(wh, connectionId, change, asins, at));
}

/** Changes of one list in this process run one after another (the warehouse's DuckDB would refuse the second write
 * of a row two transactions changed at once); across processes the conditional lock in applyChange decides. */
const queues = new WeakMap<ControlStore['db'], Map<string, Promise<unknown>>>();
function serially<T>(wh: ControlStore, key: string, work: () => Promise<T>): Promise<T> {
  const running = queues.get(wh.db) ?? new Map<string, Promise<unknown>>();
  queues.set(wh.db, running);
  const next = (running.get(key) ?? Promise.resolve()).catch(() => undefined).then(work);
  running.set(key, next);
  next.finally(() => running.get(key) === next && running.delete(key)).catch(() => undefined);
  return next;
}

async function applyChange(
  wh: ControlStore,
  connectionId: string,
  change: 'add' | 'remove',
  asins: string[],
  at: Date,
) {
  const before = await readList(wh, connectionId, at);
  const present = new Set(before.asins);
  const wanted = [...new Set(asins)];
  const changed = wanted.filter((a) => present.has(a) === (change === 'remove'));
  const unchanged = wanted.filter((a) => !changed.includes(a));
  if (changed.length === 0) return { ...before, changed, unchanged };
  if (before.editableAt) {
    throw new MktdataError(
      'ERR_SQP_LIST_LOCKED',
      { id: connectionId, editableAt: before.editableAt },
      { body: { editableAt: before.editableAt } },
    );
  }
  if (change === 'add' && present.size + changed.length > SQP_MAX_ASINS) {
    throw new MktdataError('ERR_INPUT_INVALID', {
      where: 'asins',
      reason: `the list holds ${present.size} ASINs; adding ${changed.length} would pass the limit of ${SQP_MAX_ASINS}`,
    });
  }
  const editableAt = new Date(at.getTime() + SQP_LOCK_MS).toISOString();
  await wh.db.transaction().execute(async (trx) => {
    // The lock is taken first, on condition that it is free: of two processes changing the list at once, one wins.
    const locked = await trx
      .insertInto('control.sqp_locks')
      .values({ connection_id: connectionId, editable_at: editableAt })
      .onConflict((oc) =>
        oc
          .column('connection_id')
          .doUpdateSet({ editable_at: editableAt })
          .where('control.sqp_locks.editable_at', '<=', at.toISOString()),
      )
      .returning('editable_at')
      .execute();
    if (locked.length === 0) {
      const lock = await trx
        .selectFrom('control.sqp_locks')
        .select('editable_at')
        .where('connection_id', '=', connectionId)
        .executeTakeFirstOrThrow();
      const until = new Date(String(lock.editable_at)).toISOString();
      throw new MktdataError(
        'ERR_SQP_LIST_LOCKED',
        { id: connectionId, editableAt: until },
        { body: { editableAt: until } },
      );
    }
    if (change === 'add')
      await trx
        .insertInto('control.sqp_asins')
        .values(changed.map((asin) => ({ connection_id: connectionId, asin, added_at: at.toISOString() })))
        .execute();
    else
      await trx
        .deleteFrom('control.sqp_asins')
        .where('connection_id', '=', connectionId)
        .where('asin', 'in', changed)
        .execute();
  });
  return { ...(await readList(wh, connectionId, at)), changed, unchanged };
}
