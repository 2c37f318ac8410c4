import type { Kysely } from 'kysely';

/** Public invitations: a link through which a seller or vendor registers a connection. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .withSchema('control')
    .createTable('invitations')
    .addColumn('id', 'varchar', (c) => c.primaryKey())
    .addColumn('organization_id', 'varchar', (c) => c.notNull())
    .addColumn('token_hash', 'varchar', (c) => c.notNull().unique())
    .addColumn('account_type', 'varchar', (c) => c.notNull())
    .addColumn('suggested_name', 'varchar')
    .addColumn('marketplace_id', 'varchar')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .addColumn('connection_id', 'varchar')
    .execute();
}
