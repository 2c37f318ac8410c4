// Every action type of the spec, as a client of the hosted service drives it (issue: actions, acceptance): the JSON
// Schema of its details is read from GET /actions/types/{type}/schema; the schema's example is a valid dry run and a
// copy made invalid from the schema (a required field taken out, or a field the schema does not allow added) is an
// invalid one naming that field; then the example runs live against the fake marketplace to a final status (a
// type the marketplace finishes later is checked again after the fake clock moved on). The clock runs 100 times
// faster than real time: a vendor transaction (2 minutes) is still processing at the check 30 s after the submit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actionTypes, accountKinds } from '../../src/vocabulary/action-types.ts';
import { setActionsBeta, setActionTypes, setConnectionAccess } from '../../src/actions/settings.ts';
import { buildApp, type App } from '../../src/api/app.ts';
import { setCredentials } from '../../src/connectors/credentials.ts';
import { testConnection } from '../../src/connectors/connection-test.ts';
import { addConnection } from '../../src/control/connections/connections.ts';
import { createApiKey } from '../../src/control/organizations.ts';
import type { Warehouse } from '../../src/db/warehouse.ts';
import type { Home } from '../../src/home.ts';
import { demoConnections } from '../../src/demo/demo-marketplace.ts';
import { demoSellers, demoVendor } from '@mktdata/fake-marketplace';
import { connectAll, demoHome, liveMarketplace, OPENED_ON, START } from '../helpers/live.ts';
import { contractViolations, exchangedOperations, fetchOnlyOperations } from '../helpers/contracts.ts';

const US = demoConnections[0]!.id;
const VENDOR = '00000000-0000-4000-8000-0000000000f1';
type JsonSchema = {
  required?: string[];
  properties?: Record<string, unknown>;
  additionalProperties?: boolean;
  examples?: Record<string, unknown>[];
};

/** The invalid copy of a valid example, made from the schema alone, and the field its issue must name. */
function invalidFrom(
  schema: JsonSchema,
  example: Record<string, unknown>,
): { details: Record<string, unknown>; field: string } {
  const required = schema.required?.[0];
  if (required) {
    const { [required]: _, ...rest } = example;
    return { details: rest, field: required };
  }
  expect(schema.additionalProperties, 'a schema without required fields must refuse unknown ones').toBe(false);
  return { details: { ...example, notAField: 1 }, field: 'notAField' };
}

describe('every action type, validated and run live', () => {
  let live: Awaited<ReturnType<typeof liveMarketplace>>;
  let wh: Warehouse;
  let app: App;
  let home: Home;
  let key: string;
  const start = async () => {
    app = await buildApp({
      wh,
      home,
      logger: false,
      requestsPerSecond: 10_000,
      connectors: live.connectors,
      now: () => live.clock.now(),
      runActions: false,
    });
    await app.ready();
  };
  const call = (method: 'GET' | 'POST', url: string, body?: unknown) =>
    app.inject({
      method,
      url: `/api/v1${url}`,
      headers: { 'service-api-key': key },
      ...(body === undefined ? {} : { payload: body as object }),
    });

  beforeAll(async () => {
    const vendor = demoVendor();
    live = await liveMarketplace({
      start: START,
      openedOn: OPENED_ON,
      sellers: [...demoSellers(OPENED_ON), vendor],
    });
    const made = await demoHome('mktdata-actions-every-');
    wh = made.wh;
    await connectAll(wh, live.fake, live.sellers.slice(0, 2));
    await addConnection(wh, {
      organizationId: made.organizationId,
      id: VENDOR,
      name: vendor.name,
      marketplaceId: vendor.marketplaceId,
      type: 'VENDOR_CENTRAL',
      sellerId: vendor.sellerId,
    });
    await setCredentials(wh, VENDOR, {
      api: 'sp-api',
      refreshToken: live.fake.grant(vendor.sellerId, 'sp-api'),
      sellingPartnerId: vendor.sellerId,
    });
    key = await createApiKey(wh, made.organizationId);
    await setActionsBeta(wh, made.organizationId, true);
    await setActionTypes(wh, made.organizationId, [...actionTypes], true);
    for (const id of [US, VENDOR]) await setConnectionAccess(wh, id, 'READ_AND_WRITE');
    home = made.home;
    await start();
  });
  afterAll(async () => {
    await app?.close();
    await wh?.close();
    await live?.fake.close();
  });

  it.each(actionTypes.map((type) => [type]))('%s', async (type) => {
    const served = await call('GET', `/actions/types/${type}/schema`);
    expect(served.statusCode, served.body).toBe(200);
    const schema = served.json().schema as JsonSchema;
    const example = schema.examples?.[0];
    expect(example, 'the schema carries an example').toBeDefined();
    const account = accountKinds(type)[0] === 'VENDOR' ? VENDOR : US;

    const valid = await call('POST', '/actions', { type, sellerOrVendorId: account, dryRun: true, details: example });
    expect(valid.json()).toEqual({ actionId: null, status: 'VALIDATED', validation: { valid: true, issues: [] } });
    const invalid = invalidFrom(schema, example!);
    const refused = (
      await call('POST', '/actions', { type, sellerOrVendorId: account, dryRun: true, details: invalid.details })
    ).json();
    expect(refused).toMatchObject({ status: 'VALIDATED', validation: { valid: false } });
    expect(refused.validation.issues.map((i: { path: string[] }) => i.path.join('.'))).toContain(
      `details.${invalid.field}`,
    );

    const started = await call('POST', '/actions', { type, sellerOrVendorId: account, details: example });
    expect(started.statusCode, started.body).toBe(202);
    const id = started.json().actionId as string;
    await app.exportServices.actions.runPending();
    let status = (await call('GET', `/actions/${id}`)).json();
    for (let checks = 0; status.status === 'WAITING_EXTERNAL_PROCESSING' && checks < 5; checks++) {
      live.clock.jump(10 * 60_000);
      await app.exportServices.actions.runPending();
      status = (await call('GET', `/actions/${id}`)).json();
    }
    expect(status.error, JSON.stringify(status)).toBeNull();
    expect(['COMPLETED', 'COMPLETED_WITH_ISSUES']).toContain(status.status);
    expect(status.result).not.toBeNull();
  });

  it('ends a batch the marketplace partly refused PARTIALLY_COMPLETED', async () => {
    // Two campaigns in one action; the second reuses the name of a campaign the fake advertiser already has
    // (test/actions/ads.test.ts), which the Ads API refuses for that item only.
    const started = await call('POST', '/actions', {
      type: 'MKT_ADS_CAMPAIGNS_ADD',
      sellerOrVendorId: US,
      details: {
        adProduct: 'SPONSORED_PRODUCTS',
        campaigns: [
          { name: 'Acme Stoves - Auto', dailyBudget: { amount: 8, currency: 'USD' }, autoCreateTargets: true },
          { name: 'Acme Daypacks - Manual', dailyBudget: { amount: 8, currency: 'USD' } },
        ],
      },
    });
    expect(started.statusCode, started.body).toBe(202);
    await app.exportServices.actions.runPending();
    const status = (await call('GET', `/actions/${started.json().actionId}`)).json();
    expect(status.status, JSON.stringify(status)).toBe('PARTIALLY_COMPLETED');
  });

  it('keeps the queue across a restart: pending actions run at the next start, a waiting one is checked again', async () => {
    const example = async (type: string) =>
      ((await call('GET', `/actions/types/${type}/schema`)).json().schema as JsonSchema).examples![0];
    const start1 = await call('POST', '/actions', {
      type: 'MKT_VENDOR_PURCHASE_ORDERS_ACKNOWLEDGE',
      sellerOrVendorId: VENDOR,
      details: await example('MKT_VENDOR_PURCHASE_ORDERS_ACKNOWLEDGE'),
    });
    await app.exportServices.actions.runPending();
    const waitingId = start1.json().actionId as string;
    expect((await call('GET', `/actions/${waitingId}`)).json().status).toBe('WAITING_EXTERNAL_PROCESSING');
    const pending: string[] = [];
    for (const type of ['MKT_LISTINGS_FIND', 'MKT_MCF_FEATURES_MARKETPLACE_FIND']) {
      pending.push(
        (await call('POST', '/actions', { type, sellerOrVendorId: US, details: await example(type) })).json()
          .actionId as string,
      );
    }
    await app.close(); // the server stops with two actions queued and one waiting for the marketplace
    await start();
    const statuses = async () =>
      Promise.all([waitingId, ...pending].map(async (id) => (await call('GET', `/actions/${id}`)).json().status));
    expect(await statuses()).toEqual(['WAITING_EXTERNAL_PROCESSING', 'PENDING', 'PENDING']);
    await app.exportServices.actions.runPending();
    expect((await statuses()).slice(1)).toEqual(['COMPLETED', 'COMPLETED']);
    live.clock.jump(10 * 60_000); // the fake finishes the vendor transaction; the next check sees it
    await app.exportServices.actions.runPending();
    expect(await statuses()).toEqual(['COMPLETED', 'COMPLETED', 'COMPLETED']);
  });

  it('runs the list forms of the find actions (the examples name one item)', async () => {
    for (const [type, details] of [
      ['MKT_APLUS_CONTENT_FIND', {}],
      ['MKT_MCF_ORDERS_FIND', { queryStartDate: '2026-11-01T00:00:00Z' }],
    ] as const) {
      const started = await call('POST', '/actions', { type, sellerOrVendorId: US, details });
      expect(started.statusCode, started.body).toBe(202);
      await app.exportServices.actions.runPending();
      expect((await call('GET', `/actions/${started.json().actionId}`)).json()).toMatchObject({ status: 'COMPLETED' });
    }
  });

  it("tests the seller's connection (`mktdata connections test`) through its marketplace participations", async () => {
    expect(await testConnection(wh, live.connectors, US, 'sp-api')).toEqual([expect.stringMatching(/sp-api/i)]);
  });

  // Last: what every test above sent and got.
  it("sent the marketplace only requests its published models allow, got only answers they declare, and used every operation of the fake's but the fetch pipelines' own", () => {
    expect(contractViolations(live.fake)).toEqual([]);
    const used = exchangedOperations(live.fake);
    expect(
      live.fake.operations.map((o) => o.operation).filter((o) => !used.has(o) && !fetchOnlyOperations.has(o)),
    ).toEqual([]);
  });
});
