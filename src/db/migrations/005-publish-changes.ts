import { sql, type Kysely } from 'kysely';

/**
 * What the catalog tables changed since the last publish, written by each model in the transaction that changes it,
 * so that a publish can start from the last snapshot and replace only that.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create sequence control.unpublished_change_seq`.execute(db);
  await sql`
    create table control.unpublished_changes (
      seq bigint not null default nextval('control.unpublished_change_seq'),
      table_name varchar not null,
      connection_id varchar,             -- null: the whole table changed
      date_from date,
      date_to date
    )`.execute(db);
}
