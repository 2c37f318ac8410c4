import { sql, type Kysely } from 'kysely';

/** Vendor codes per ASIN or SKU of a vendor connection, and the SQP ASIN list of a seller connection with its lock. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table control.vendor_codes (
      connection_id varchar not null,
      identifier_type varchar not null,   -- ASIN or SKU: a row names exactly one
      identifier varchar not null,
      vendor_code varchar not null,
      updated_at timestamptz not null,
      primary key (connection_id, identifier_type, identifier)
    )`.execute(db);
  await sql`
    create table control.sqp_asins (
      connection_id varchar not null,
      asin varchar not null,
      added_at timestamptz not null,
      primary key (connection_id, asin)
    )`.execute(db);
  await sql`
    create table control.sqp_locks (
      connection_id varchar not null primary key,
      editable_at timestamptz not null      -- 72 hours after the last change that altered the list
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['vendor_codes', 'sqp_asins', 'sqp_locks'])
    await sql`drop table ${sql.table(`control.${table}`)}`.execute(db);
}
