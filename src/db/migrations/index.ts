import { Migrator, type Kysely, type Migration } from 'kysely';
import type { ControlPlane } from '../control-plane.ts';
import * as controlPlane001 from './001-control-plane.ts';
import * as invitations002 from './002-invitations.ts';
import * as exports003 from './003-exports.ts';
import * as pipelines004 from './004-pipelines.ts';
import * as publishChanges005 from './005-publish-changes.ts';
import * as connectors006 from './006-connectors.ts';
import * as cogsChanges007 from './007-cogs-changes.ts';
import * as vendorCodesAndSqp008 from './008-vendor-codes-and-sqp.ts';
import * as dataFiles009 from './009-data-files.ts';
import * as webhooks010 from './010-webhooks.ts';
import * as actions011 from './011-actions.ts';
import * as exportLeases012 from './012-export-leases.ts';
import * as scheduleFirings013 from './013-schedule-firings.ts';
import * as rateBuckets014 from './014-rate-buckets.ts';
import * as shardLeases015 from './015-shard-leases.ts';
import * as workers016 from './016-workers.ts';
import * as modelInputs017 from './017-model-inputs.ts';
import * as runErrorsAndUnmetered018 from './018-run-errors-and-unmetered.ts';
import * as modelSql019 from './019-model-sql.ts';

/** The control plane's migrations, in order: the same for the warehouse's DuckDB and for PostgreSQL. */
export const migrations: Record<string, Migration> = {
  '001-control-plane': controlPlane001,
  '002-invitations': invitations002,
  '003-exports': exports003,
  '004-pipelines': pipelines004,
  '005-publish-changes': publishChanges005,
  '006-connectors': connectors006,
  '007-cogs-changes': cogsChanges007,
  '008-vendor-codes-and-sqp': vendorCodesAndSqp008,
  '009-data-files': dataFiles009,
  '010-webhooks': webhooks010,
  '011-actions': actions011,
  '012-export-leases': exportLeases012,
  '013-schedule-firings': scheduleFirings013,
  '014-rate-buckets': rateBuckets014,
  '015-shard-leases': shardLeases015,
  '016-workers': workers016,
  '017-model-inputs': modelInputs017,
  '018-run-errors-and-unmetered': runErrorsAndUnmetered018,
  '019-model-sql': modelSql019,
};

/** Runs the pending control-plane migrations. */
export async function migrateControlPlane(db: Kysely<ControlPlane>): Promise<void> {
  const migrator = new Migrator({
    db: db as unknown as Kysely<unknown>,
    provider: { getMigrations: async () => migrations },
  });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error;
}
