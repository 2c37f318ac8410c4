import { sql, type Kysely } from 'kysely';

/**
 * Actions (spec document 000, "Actions"): which organizations have the private beta and which types each enabled,
 * which connections granted write access, and the actions themselves, queued and worked through by `serve`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table control.actions_beta (organization_id varchar primary key, since timestamptz not null)`.execute(
    db,
  );
  await sql`
    create table control.action_types_enabled (
      organization_id varchar not null,
      type varchar not null,
      enabled_at timestamptz not null,
      primary key (organization_id, type)
    )`.execute(db);
  // READ unless granted READ_AND_WRITE (`mktdata connections access`): what the seller authorized.
  await sql`create table control.connection_access (connection_id varchar primary key, access_level varchar not null, updated_at timestamptz not null)`.execute(
    db,
  );
  await sql`
    create table control.actions (
      id varchar primary key,
      organization_id varchar not null,
      connection_id varchar not null,
      type varchar not null,
      creator varchar not null,                  -- API, MCP, SYSTEM
      status varchar not null,                   -- the spec's action statuses
      details varchar not null,                  -- JSON, validated against the type's schema
      result varchar,                            -- JSON
      error_status integer,
      error_code varchar,
      error_message varchar,
      external_id varchar,                       -- what the marketplace finishes later (a feed, a submission)
      next_check_at timestamptz,                 -- WAITING_EXTERNAL_PROCESSING: when to poll again
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['actions', 'connection_access', 'action_types_enabled', 'actions_beta'])
    await sql`drop table ${sql.raw(`control.${table}`)}`.execute(db);
}
