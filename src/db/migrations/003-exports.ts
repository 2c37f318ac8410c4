import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';

/** Exports, export schedules, usage records, per-organization source switches, and the URL signing key. */
export async function up(db: Kysely<unknown>): Promise<void> {
  const control = db.schema.withSchema('control');
  await control
    .createTable('exports')
    .addColumn('id', 'varchar', (c) => c.primaryKey())
    .addColumn('organization_id', 'varchar', (c) => c.notNull())
    .addColumn('source_id', 'varchar', (c) => c.notNull())
    .addColumn('source_name', 'varchar', (c) => c.notNull())
    .addColumn('table_name', 'varchar', (c) => c.notNull())
    .addColumn('seller_or_vendor_ids', 'varchar', (c) => c.notNull()) // JSON array
    .addColumn('request', 'varchar', (c) => c.notNull()) // the ExportRequest as accepted, JSON
    .addColumn('output_type', 'varchar', (c) => c.notNull())
    .addColumn('status', 'varchar', (c) => c.notNull())
    .addColumn('creator', 'varchar', (c) => c.notNull())
    .addColumn('schedule_id', 'varchar')
    .addColumn('tokens', 'bigint', (c) => c.notNull())
    .addColumn('row_count', 'bigint')
    .addColumn('file_size_bytes', 'bigint')
    .addColumn('file_name', 'varchar')
    .addColumn('error', 'varchar')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('started_at', 'timestamptz')
    .addColumn('completed_at', 'timestamptz')
    .addColumn('expires_at', 'timestamptz')
    .execute();
  await control
    .createTable('export_schedules')
    .addColumn('id', 'varchar', (c) => c.primaryKey())
    .addColumn('organization_id', 'varchar', (c) => c.notNull())
    .addColumn('name', 'varchar', (c) => c.notNull())
    .addColumn('request', 'varchar', (c) => c.notNull()) // the ExportRequest without period, JSON
    .addColumn('cron', 'varchar', (c) => c.notNull())
    .addColumn('timezone', 'varchar', (c) => c.notNull())
    .addColumn('active', 'boolean', (c) => c.notNull())
    .addColumn('relative_period', 'varchar') // JSON
    .addColumn('integrations', 'varchar', (c) => c.notNull()) // JSON array of { id, url }
    .addColumn('creator', 'varchar', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await control
    .createTable('usage_records')
    .addColumn('id', 'varchar', (c) => c.primaryKey())
    .addColumn('organization_id', 'varchar', (c) => c.notNull())
    .addColumn('usage_type', 'varchar', (c) => c.notNull())
    .addColumn('usage_pool', 'varchar', (c) => c.notNull())
    .addColumn('specific_usage_type', 'varchar', (c) => c.notNull())
    .addColumn('tokens', 'bigint', (c) => c.notNull())
    .addColumn('resource_id', 'varchar')
    .addColumn('used_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await control
    .createTable('organization_sources')
    .addColumn('organization_id', 'varchar', (c) => c.notNull())
    .addColumn('source_id', 'varchar', (c) => c.notNull())
    .addColumn('enabled', 'boolean', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('organization_sources_key', ['organization_id', 'source_id'])
    .execute();
  await control
    .createTable('settings')
    .addColumn('name', 'varchar', (c) => c.primaryKey())
    .addColumn('value', 'varchar', (c) => c.notNull())
    .execute();
  // Generated per home, never in the repository: signs the key-less download URLs of exports.
  await sql`insert into control.settings values ('url_signing_key', ${randomBytes(32).toString('hex')})`.execute(db);
}
