import { sql, type Kysely } from 'kysely';

/**
 * Per windowed model, a digest of what its rows are made of besides its sources' dated rows (src/models/
 * model-inputs.ts) at its last build by a pipeline run: while it holds, a routine window rebuilds only touched dates.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table control.model_inputs (model varchar primary key, fingerprint varchar not null)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table control.model_inputs`.execute(db);
}
