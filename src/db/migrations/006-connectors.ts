import { sql, type Kysely } from 'kysely';

/**
 * The live connectors' state: each connection's credentials (refresh tokens encrypted at rest), the requests made
 * upstream for it (persisted before the first poll, so that a killed run resumes them), and one-time OAuth states.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table control.connection_credentials (
      connection_id varchar not null,
      api varchar not null,                      -- sp-api, ads
      selling_partner_id varchar,                -- sp-api: the seller's merchant token
      profile_id varchar,                        -- ads: the advertising profile of the connection's marketplace
      refresh_token_encrypted varchar not null,  -- AES-256-GCM, see src/lib/secrets.ts
      status varchar not null,                   -- active, needs_reauthorization
      status_reason varchar,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      primary key (connection_id, api)
    )`.execute(db);
  await sql`
    create table control.fetch_requests (
      id varchar primary key,
      run_id varchar,                            -- the run that planned it
      connection_id varchar not null,
      source varchar not null,
      stage varchar,                             -- FIRST_STAGE, SECOND_STAGE of an initial load
      date_from date,                            -- marketplace-local window; null for a snapshot
      date_to date,
      request varchar not null,                  -- JSON: what is sent upstream
      upstream_id varchar,                       -- the report id (SP or Ads) once known
      status varchar not null,                   -- planned, creating, requested, downloaded, landed, empty, failed, abandoned, unavailable
      attempts integer not null default 0,
      retry_at timestamptz,                      -- failed: not retried before
      error varchar,
      documents integer not null default 0,     -- documents landed (a paged operation lands one per page)
      file_name varchar,                         -- the last document's name in landing/
      rows bigint,
      created_at timestamptz not null,
      requested_at timestamptz,
      finished_at timestamptz
    )`.execute(db);
  await sql`
    create table control.oauth_states (
      state_hash varchar primary key,
      invitation_id varchar not null,
      api varchar not null,                      -- sp-api, ads
      connection_id varchar,                     -- ads: the connection the advertising account joins
      marketplace_id varchar,                    -- sp-api: the marketplace chosen on the invitation page
      connection_name varchar,                   -- sp-api: the account name given there
      created_at timestamptz not null,
      expires_at timestamptz not null,
      used_at timestamptz
    )`.execute(db);
}
