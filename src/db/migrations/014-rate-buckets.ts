import { sql, type Kysely } from 'kysely';

/** The API's rate-limit buckets when several API processes share the control plane (one row per organization). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table control.rate_buckets (key varchar primary key, tokens double precision not null, at_ms bigint not null, granted boolean not null)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table control.rate_buckets`.execute(db);
}
