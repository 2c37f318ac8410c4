import { sql, type Kysely } from 'kysely';

/**
 * Scale-out: the workers alive (each one's last heartbeat, from which every worker works out its share of the
 * shards), and the pipeline runs of each shard (which worker ran it under which fencing token, and how it ended):
 * what `mktdata run` waits for, and what a worker taking a shard over finds unfinished.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table control.workers (id varchar primary key, seen_at timestamptz not null)`.execute(db);
  await sql`create table control.shard_runs (id varchar primary key, run_id varchar, job_id varchar, shard varchar not null, pipeline varchar not null, worker varchar not null, token bigint not null, started_at timestamptz not null, finished_at timestamptz, status varchar not null, windows integer, error varchar)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table control.shard_runs`.execute(db);
  await sql`drop table control.workers`.execute(db);
}
