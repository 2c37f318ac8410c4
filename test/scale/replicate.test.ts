// A shard's copy of the shared control rows (issue: scale-out; docs/scale-out.md "Which state lives where"): before
// a run, a shard (a warehouse of its own) takes the rows of its connections from PostgreSQL, keeps what it owns,
// and follows later changes; another shard's connections never reach it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setConnectionAccess } from '../../src/actions/settings.ts';
import { setCredentials } from '../../src/connectors/credentials.ts';
import { addConnection } from '../../src/control/connections/connections.ts';
import { createOrganization } from '../../src/control/organizations.ts';
import { upsertVendorCodes } from '../../src/control/vendor-codes.ts';
import { openPostgresControl } from '../../src/db/control-store.ts';
import { openWarehouse, type Warehouse } from '../../src/db/warehouse.ts';
import { resolveHome } from '../../src/home.ts';
import { replicateToShard } from '../../src/scale/replicate.ts';
import { postgresMissing, startPostgres } from '../helpers/postgres.ts';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

if (postgresMissing) console.warn(postgresMissing);

describe.skipIf(postgresMissing !== null)('a shard replicates the shared control rows of its connections', () => {
  let server: Awaited<ReturnType<typeof startPostgres>>;
  let shared: Awaited<ReturnType<typeof openPostgresControl>>;
  let shard: Warehouse;
  const mine = '00000000-0000-4000-8000-0000000d0001';
  const theirs = '00000000-0000-4000-8000-0000000d0002';

  beforeAll(async () => {
    server = await startPostgres();
    shared = await openPostgresControl(server.url);
    shard = await openWarehouse(resolveHome(join(mkdtempSync(join(tmpdir(), 'mktdata-shard-')), 'home')), 'test', {
      create: true,
    });
  });
  afterAll(async () => {
    await shard?.close();
    await shared?.close();
    server?.stop();
  });

  it('copies its connections with their organization, credentials, access and vendor codes, and follows changes', async () => {
    const org = await createOrganization(shared, { name: 'Agency', tokens: 7 });
    await addConnection(shared, {
      organizationId: org,
      id: mine,
      name: 'Acme US',
      marketplaceId: 'ATVPDKIKX0DER',
      type: 'VENDOR_CENTRAL',
      sellerId: 'A3ACMEUS0VENDOR',
    });
    await addConnection(shared, { organizationId: org, id: theirs, name: 'Acme DE', marketplaceId: 'A1PA6795UKMFR9' });
    // Credentials are encrypted with the key every process of an install shares (MKTDATA_SECRET_KEY; here the shard's
    // key file stands for it), so the copy decrypts on the shard.
    await setCredentials({ db: shared.db, home: shard.home } as Warehouse, mine, {
      api: 'sp-api',
      refreshToken: 'Atzr|shared-token',
      sellingPartnerId: 'A3ACMEUS0VENDOR',
    });
    await setConnectionAccess(shared, mine, 'READ_AND_WRITE');
    await upsertVendorCodes(
      shared,
      org,
      mine,
      [{ sku: 'ACM-PACK-DAY-BLK', vendorCode: 'ACMEU' }],
      new Date('2026-11-26T12:00:00Z'),
    );

    // 1 organization, 1 connection, 1 credential, 1 access level, 1 vendor code.
    expect(await replicateToShard(shared, shard, [mine])).toBe(5);
    const connections = await shard.db
      .selectFrom('control.connections')
      .select(['id', 'name', 'organization_id'])
      .execute();
    expect(connections).toEqual([{ id: mine, name: 'Acme US', organization_id: org }]);
    expect(await shard.db.selectFrom('control.organizations').select(['id', 'token_balance']).execute()).toEqual([
      { id: org, token_balance: expect.anything() },
    ]);
    expect(
      (
        await shard.db
          .selectFrom('control.connection_credentials')
          .select('refresh_token_encrypted')
          .executeTakeFirstOrThrow()
      ).refresh_token_encrypted,
    ).not.toContain('shared-token');

    // The shard's own record of the first load stays; a rename and a removed vendor code come through.
    await shard.db
      .updateTable('control.connections')
      .set({ initial_load_stage: 'SECOND_STAGE' })
      .where('id', '=', mine)
      .execute();
    await shared.db.updateTable('control.connections').set({ name: 'Acme US (main)' }).where('id', '=', mine).execute();
    await shared.db.deleteFrom('control.vendor_codes').where('connection_id', '=', mine).execute();
    expect(await replicateToShard(shared, shard, [mine])).toBe(4);
    expect(await shard.db.selectFrom('control.connections').select(['name', 'initial_load_stage']).execute()).toEqual([
      { name: 'Acme US (main)', initial_load_stage: 'SECOND_STAGE' },
    ]);
    expect(await shard.db.selectFrom('control.vendor_codes').selectAll().execute()).toEqual([]);
  });
});
