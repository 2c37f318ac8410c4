import type { Kysely } from 'kysely';
import type { ControlPlane } from '../db/control-plane.ts';

// control.schedule_firings, the slots a schedule (an export schedule, or `pipeline:<name>` for a scaled-out install's
// pipeline timer) has fired for, so that the processes sharing a control plane fire each once: every query on it is in
// this file (test/db/control-table-modules.test.ts).

type Db = Kysely<ControlPlane>;

/** Records a schedule's slot as fired; false when another process recorded it first. */
export async function claimSlot(db: Db, scheduleId: string, slot: string, firedAt: string): Promise<boolean> {
  const claimed = await db
    .insertInto('control.schedule_firings')
    .values({ schedule_id: scheduleId, slot, fired_at: firedAt })
    .onConflict((oc) => oc.columns(['schedule_id', 'slot']).doNothing())
    .returning('slot')
    .execute();
  return claimed.length > 0;
}

/** Forgets the schedule's slots before `before`. */
export async function forgetSlotsBefore(db: Db, scheduleId: string, before: string): Promise<void> {
  await db
    .deleteFrom('control.schedule_firings')
    .where('schedule_id', '=', scheduleId)
    .where('slot', '<', before)
    .execute();
}
