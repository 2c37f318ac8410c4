import { sql, type Kysely } from 'kysely';

/**
 * Unit-cost changes made through the API, each recorded as a landed document of the `cogs` source (so that the
 * pipelines rebuild what it affects): the earliest fromDate it touched, kept after a DELETE has removed the rows.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table control.cogs_changes (
      file_id varchar not null primary key,   -- its control.landed_files row
      connection_id varchar not null,
      from_date date not null
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table control.cogs_changes`.execute(db);
}
