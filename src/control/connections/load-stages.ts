import type { Kysely } from 'kysely';
import type { ControlPlane } from '../../db/control-plane.ts';
import type { ConnectionRow } from './connections.ts';

// A connection's first load, as control.connections.initial_load_stage records it: the stage each connection is in,
// and the connections still loading, which the scheduler and the fetch planner ask about.

type Db = Kysely<ControlPlane>;
/** Where a connection's first load stands (the spec's vocabulary). */
export type LoadStage = NonNullable<ConnectionRow['initial_load_stage']>;

/** Connections whose first load has not completed, as a subquery (`connection_id in …`). */
export function connectionsStillLoading(db: Db) {
  return db
    .selectFrom('control.connections')
    .select('id')
    .where((eb) => eb.or([eb('initial_load_stage', 'is', null), eb('initial_load_stage', '<>', 'COMPLETE')]));
}

/** Whether a connection with credentials has not completed its first load. */
export async function anyUnfinishedFirstLoad(db: Db): Promise<boolean> {
  const found = await db
    .selectFrom('control.connections as c')
    .select('c.id')
    .where((eb) =>
      eb.exists(
        eb.selectFrom('control.connection_credentials as k').select('k.api').whereRef('k.connection_id', '=', 'c.id'),
      ),
    )
    .where((eb) => eb.or([eb('c.initial_load_stage', 'is', null), eb('c.initial_load_stage', '<>', 'COMPLETE')]))
    .executeTakeFirst();
  return found !== undefined;
}

/** The load stages recorded (connections without one are left out). */
export async function recordedLoadStages(db: Db) {
  const rows = await db
    .selectFrom('control.connections')
    .select(['id', 'initial_load_stage'])
    .where('initial_load_stage', 'is not', null)
    .execute();
  return rows.map((c) => ({ id: c.id, stage: c.initial_load_stage! }));
}

/** The load stages of these connections, null where none is recorded. */
export function loadStagesOf(db: Db, ids: string[]) {
  return db
    .selectFrom('control.connections')
    .select(['id', 'initial_load_stage'])
    .where('id', 'in', ids.length ? ids : [''])
    .execute();
}

/** Records a connection's load stage. */
export async function setLoadStage(db: Db, id: string, stage: LoadStage | null): Promise<void> {
  await db.updateTable('control.connections').set({ initial_load_stage: stage }).where('id', '=', id).execute();
}

/** Records where these connections' first loads stand after a run: a connection that had no stage yet starts one. */
export async function advanceLoadStages(db: Db, ids: string[], stage: LoadStage): Promise<void> {
  await db
    .updateTable('control.connections')
    .set({ initial_load_stage: stage })
    .where('id', 'in', ids)
    // A connection not done keeps its stage; one that had none is in its first.
    .where((eb) => (stage === 'FIRST_STAGE' ? eb('initial_load_stage', 'is', null) : eb.lit(true)))
    .execute();
}
