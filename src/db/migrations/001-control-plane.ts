import { sql, type Kysely } from 'kysely';

/** Schemas of the warehouse and the first control-plane tables: organizations, keys, connections, files, COGS. */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const schema of ['raw', 'seeds', 'staging', 'intermediate', 'marts', 'control']) {
    await sql`create schema if not exists ${sql.id(schema)}`.execute(db);
  }
  const control = db.schema.withSchema('control');
  await control
    .createTable('organizations')
    .addColumn('id', 'varchar', (c) => c.primaryKey())
    .addColumn('name', 'varchar', (c) => c.notNull())
    .addColumn('token_balance', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await control
    .createTable('api_keys')
    .addColumn('id', 'varchar', (c) => c.primaryKey())
    .addColumn('organization_id', 'varchar', (c) => c.notNull())
    .addColumn('key_hash', 'varchar', (c) => c.notNull().unique())
    .addColumn('key_prefix', 'varchar', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('revoked_at', 'timestamptz')
    .execute();
  await control
    .createTable('connections')
    .addColumn('id', 'varchar', (c) => c.primaryKey())
    .addColumn('organization_id', 'varchar', (c) => c.notNull())
    .addColumn('name', 'varchar', (c) => c.notNull())
    .addColumn('type', 'varchar', (c) => c.notNull())
    .addColumn('marketplace_id', 'varchar', (c) => c.notNull())
    .addColumn('seller_id', 'varchar')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await control
    .createTable('landed_files')
    .addColumn('id', 'varchar', (c) => c.primaryKey())
    .addColumn('connection_id', 'varchar', (c) => c.notNull())
    .addColumn('source', 'varchar', (c) => c.notNull())
    .addColumn('sha256', 'varchar', (c) => c.notNull())
    .addColumn('file_name', 'varchar', (c) => c.notNull())
    .addColumn('size_bytes', 'bigint', (c) => c.notNull())
    .addColumn('row_count', 'bigint', (c) => c.notNull())
    .addColumn('landed_at', 'timestamptz', (c) => c.notNull())
    .addUniqueConstraint('landed_files_content', ['connection_id', 'source', 'sha256'])
    .execute();
  await control
    .createTable('quarantined_files')
    .addColumn('id', 'varchar', (c) => c.primaryKey())
    .addColumn('connection_id', 'varchar', (c) => c.notNull())
    .addColumn('source', 'varchar', (c) => c.notNull())
    .addColumn('sha256', 'varchar', (c) => c.notNull())
    .addColumn('file_name', 'varchar', (c) => c.notNull())
    .addColumn('kept_at', 'varchar', (c) => c.notNull())
    .addColumn('line', 'bigint')
    .addColumn('reason', 'varchar', (c) => c.notNull())
    .addColumn('refused_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await control
    .createTable('cogs')
    .addColumn('connection_id', 'varchar', (c) => c.notNull())
    .addColumn('asin', 'varchar', (c) => c.notNull())
    .addColumn('sku', 'varchar', (c) => c.notNull())
    .addColumn('cost_currency', 'varchar', (c) => c.notNull())
    .addColumn('from_date', 'date', (c) => c.notNull())
    .addColumn('cost_item_value', sql`decimal(18,4)`, (c) => c.notNull())
    .addColumn('cost_item_shipping_value', sql`decimal(18,4)`, (c) => c.notNull())
    .addColumn('item_supplier_name', 'varchar')
    .addColumn('file_id', 'varchar')
    .addColumn('line_number', 'bigint')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('cogs_key', ['connection_id', 'asin', 'sku', 'cost_currency', 'from_date'])
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('the first migration is not reversible');
}
