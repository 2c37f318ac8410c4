import { sql, type Kysely } from 'kysely';

/**
 * Per model, a digest of the SQL it and every model upstream of it had, and of the macros, at its last build
 * (src/models/model-inputs.ts): a model whose digest changed since (mktdata upgraded, or its SQL edited) is rebuilt
 * whole on its next run. A home made before this migration has none: its models are rebuilt whole once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table control.model_sql (model varchar primary key, digest varchar not null)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table control.model_sql`.execute(db);
}
