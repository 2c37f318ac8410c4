import { sql, type Kysely } from 'kysely';

/**
 * Pipeline runs, the windows each rebuilt, the files each pipeline has taken in, and connections' initial-load stage.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table control.pipeline_runs (
      id varchar primary key,
      pipeline varchar not null,
      trigger varchar not null,          -- cli, schedule
      clock timestamptz not null,        -- the time the run was planned for
      started_at timestamptz not null,
      finished_at timestamptz,
      status varchar not null,           -- running, success, failed
      backfill_from date,
      backfill_to date,
      landed_files integer not null default 0,
      published boolean not null default false,
      error varchar
    )`.execute(db);
  await sql`
    create table control.run_windows (
      run_id varchar not null,
      pipeline varchar not null,
      connection_id varchar not null,
      table_name varchar not null,
      kind varchar not null,             -- INITIAL, RECURRING_DAILY, RECURRING_MONTHLY, REFRESH, CONTINUOUS, LATE_DATA, RETRY, BACKFILL
      stage varchar,                     -- FIRST_STAGE or SECOND_STAGE of an INITIAL window
      local_date date not null,          -- the connection's marketplace-local date when planned
      date_from date,                    -- null: the whole table (a snapshot)
      date_to date,
      status varchar not null,           -- planned, success, error, skipped
      row_count bigint,
      ms bigint,
      error varchar,
      retried boolean not null default false
    )`.execute(db);
  await sql`
    create table control.pipeline_files (
      pipeline varchar not null,
      file_id varchar not null,
      run_id varchar not null,
      primary key (pipeline, file_id)
    )`.execute(db);
  await sql`alter table control.connections add column initial_load_stage varchar`.execute(db);
}
