import { sql, type Kysely } from 'kysely';

/**
 * Scale-out: which shard holds each connection, and the lease on each shard (its owner, until when, and a fencing
 * token that grows with every new owner, checked by the transaction that publishes the shard's snapshot).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table control.shard_leases (shard varchar primary key, owner varchar not null, token bigint not null, expires_at timestamptz not null)`.execute(
    db,
  );
  await sql`create table control.connection_shards (connection_id varchar primary key, shard varchar not null, assigned_at timestamptz not null)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table control.connection_shards`.execute(db);
  await sql`drop table control.shard_leases`.execute(db);
}
