import type { Kysely } from 'kysely';

/**
 * Data files (spec document 000, "Data file"): one row per file an organization created through the API, kept after
 * the file expired or was deleted (lists filter on those statuses). The bytes live in the home's `files/` by id.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .withSchema('control')
    .createTable('data_files')
    .addColumn('id', 'varchar', (c) => c.primaryKey())
    .addColumn('organization_id', 'varchar', (c) => c.notNull())
    .addColumn('connection_id', 'varchar', (c) => c.notNull()) // the sellerOrVendorId
    .addColumn('name', 'varchar', (c) => c.notNull()) // the client's name, never used on disk
    .addColumn('file_group', 'varchar', (c) => c.notNull()) // LISTING_IMAGES, APLUS_IMAGES (`group` is a keyword)
    .addColumn('type', 'varchar', (c) => c.notNull()) // PNG, TIFF, JPG
    .addColumn('source', 'varchar', (c) => c.notNull()) // API, MCP, DATA, UI
    .addColumn('status', 'varchar', (c) => c.notNull()) // as last written; a passed expires_at reads as EXPIRED
    .addColumn('size_bytes', 'bigint')
    .addColumn('sha256', 'varchar')
    .addColumn('ttl_hours', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('uploaded_at', 'timestamptz')
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('deleted_at', 'timestamptz')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.withSchema('control').dropTable('data_files').execute();
}
