import type { Insertable, Kysely } from 'kysely';
import type { ControlPlane } from '../db/control-plane.ts';
import type { ActionStatus } from '../vocabulary/action-types.ts';

// control.actions, the actions asked for and the action worker's queue: every query on it is in this file
// (test/db/control-table-modules.test.ts).

type Db = Kysely<ControlPlane>;
type ActionTable = ControlPlane['control.actions'];

/** How many of the organization's actions are in these statuses (inside the caller's transaction when `db` is one). */
export async function actionsInStatus(db: Db, organizationId: string, statuses: ActionStatus[]): Promise<number> {
  const live = await db
    .selectFrom('control.actions')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('organization_id', '=', organizationId)
    .where('status', 'in', statuses)
    .executeTakeFirstOrThrow();
  return Number(live.n);
}

/** How many actions are in each status, of every organization (the metrics); statuses without any are left out. */
export async function actionCountsByStatus(db: Db): Promise<{ status: ActionStatus; count: number }[]> {
  const rows = await db
    .selectFrom('control.actions')
    .select((eb) => ['status', eb.fn.countAll<string>().as('n')])
    .groupBy('status')
    .execute();
  return rows.map((r) => ({ status: r.status as ActionStatus, count: Number(r.n) }));
}

/** Queues an action (inside the caller's transaction when `db` is one). */
export async function insertAction(db: Db, row: Insertable<ActionTable>): Promise<void> {
  await db.insertInto('control.actions').values(row).execute();
}

/** The organization's action of that id, or undefined. */
export function actionOf(db: Db, organizationId: string, id: string) {
  return db
    .selectFrom('control.actions')
    .selectAll()
    .where('id', '=', id)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
}

/** An action's row. */
export type ActionRow = NonNullable<Awaited<ReturnType<typeof actionOf>>>;

export interface ActionFilters {
  page: number;
  pageSize: number;
  statuses?: string[];
  types?: string[];
  creators?: string[];
  createdAtFrom?: string;
  createdAtTo?: string;
  updatedAtFrom?: string;
  updatedAtTo?: string;
}

/** A page of the organization's actions, newest first, with the spec's filters (bounds inclusive), and the count. */
export async function listActionRows(
  db: Db,
  organizationId: string,
  f: ActionFilters,
): Promise<{ rows: ActionRow[]; total: number }> {
  let base = db.selectFrom('control.actions').where('organization_id', '=', organizationId);
  if (f.statuses) base = base.where('status', 'in', f.statuses as ActionStatus[]);
  if (f.types) base = base.where('type', 'in', f.types);
  if (f.creators) base = base.where('creator', 'in', f.creators as ActionRow['creator'][]);
  const iso = (v: string) => new Date(v).toISOString();
  if (f.createdAtFrom) base = base.where('created_at', '>=', iso(f.createdAtFrom));
  if (f.createdAtTo) base = base.where('created_at', '<=', iso(f.createdAtTo));
  if (f.updatedAtFrom) base = base.where('updated_at', '>=', iso(f.updatedAtFrom));
  if (f.updatedAtTo) base = base.where('updated_at', '<=', iso(f.updatedAtTo));
  const total = await base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  const rows = await base
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(f.pageSize)
    .offset((f.page - 1) * f.pageSize)
    .execute();
  return { rows, total: Number(total.n) };
}

// The action worker's queue.

/** Turns the actions a stopped server left IN_PROGRESS back to PENDING. */
export async function requeueInProgressActions(db: Db): Promise<void> {
  await db.updateTable('control.actions').set({ status: 'PENDING' }).where('status', '=', 'IN_PROGRESS').execute();
}

/** The oldest PENDING action, or undefined. */
export function nextPendingAction(db: Db) {
  return db
    .selectFrom('control.actions')
    .selectAll()
    .where('status', '=', 'PENDING')
    .orderBy('created_at')
    .orderBy('id')
    .executeTakeFirst();
}

/** The actions waiting on upstream processing whose next check is due at `now`, the most overdue first. */
export function actionsToCheck(db: Db, now: Date) {
  return db
    .selectFrom('control.actions')
    .selectAll()
    .where('status', '=', 'WAITING_EXTERNAL_PROCESSING')
    .where('next_check_at', '<=', now.toISOString())
    .orderBy('next_check_at')
    .execute();
}

/** Records an action's new state (inside the caller's transaction when `db` is one). */
export async function updateAction(
  db: Db,
  id: string,
  change: Partial<Pick<ActionTable, 'status' | 'result' | 'error_status' | 'error_code' | 'error_message'>> &
    Partial<Pick<ActionTable, 'external_id' | 'next_check_at' | 'updated_at'>>,
): Promise<void> {
  await db.updateTable('control.actions').set(change).where('id', '=', id).execute();
}
