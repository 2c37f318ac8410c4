import { sql, type Kysely } from 'kysely';

/**
 * A pipeline run's error count (windows not done, fetch requests failed, files refused), beside its status, which
 * may now also be `partial`: some windows built, others not. And an organization's token balance may be null: an
 * unmetered organization (self-hosted, made without tokens) records its usage but never runs out.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table control.pipeline_runs add column errors integer default 0`.execute(db);
  await sql`alter table control.organizations alter column token_balance drop not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table control.organizations alter column token_balance set not null`.execute(db);
  await sql`alter table control.pipeline_runs drop column errors`.execute(db);
}
