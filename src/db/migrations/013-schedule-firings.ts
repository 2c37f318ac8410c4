import { sql, type Kysely } from 'kysely';

/**
 * The slots export schedules fired for: the process that records a schedule's slot first runs it, so API replicas
 * sharing one control plane fire each schedule once per slot.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table control.schedule_firings (schedule_id varchar not null, slot timestamptz not null, fired_at timestamptz not null, primary key (schedule_id, slot))`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table control.schedule_firings`.execute(db);
}
