import { sql, type Kysely } from 'kysely';

/**
 * An export being written holds a lease, renewed while it runs: a process that starts (or an API replica beside
 * it) takes back only exports whose lease ran out, never one another process is still writing.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table control.exports add column lease_until timestamptz`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table control.exports drop column lease_until`.execute(db);
}
