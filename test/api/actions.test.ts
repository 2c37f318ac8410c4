// POST/GET /api/v1/actions and the action types (spec 000 "Actions"; docs/design/service-clients.md "Actions";
// docs/design/API.md "Tokens and usage": a live action costs 1 token), in process.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/api/app.ts';
import { setActionsBeta, setActionTypes, setConnectionAccess } from '../../src/actions/settings.ts';
import { LIVE_ACTION_LIMIT } from '../../src/actions/actions.ts';
import { addConnection } from '../../src/control/connections/connections.ts';
import { createApiKey, createOrganization } from '../../src/control/organizations.ts';
import type { Warehouse } from '../../src/db/warehouse.ts';
import { makeHome, US } from '../helpers/home.ts';

const VENDOR = '00000000-0000-4000-8000-00000000a0f1';
const pricing = (over: Record<string, unknown> = {}) => ({
  type: 'MKT_LISTINGS_PRICING_UPDATE',
  sellerOrVendorId: US.id,
  details: { sku: 'SKU-A', price: { amount: 19.99, currency: 'USD' }, ...over },
});

describe('actions over HTTP', () => {
  let wh: Warehouse;
  let app: App;
  let key: string;
  let outsiderKey: string;
  let org: string;

  beforeAll(async () => {
    const made = await makeHome();
    wh = made.wh;
    org = (await wh.db.selectFrom('control.organizations').select('id').executeTakeFirstOrThrow()).id;
    key = await createApiKey(wh, org);
    await addConnection(wh, {
      organizationId: org,
      id: VENDOR,
      name: 'Vendor US',
      marketplaceId: US.marketplaceId,
      type: 'VENDOR_CENTRAL',
    });
    outsiderKey = await createApiKey(wh, await createOrganization(wh, { name: 'No beta', tokens: 5 }));
    await setActionsBeta(wh, org, true);
    // the queue stays as POST leaves it
    app = await buildApp({ wh, home: made.home, logger: false, requestsPerSecond: 1000, runActions: false });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await wh?.close();
  });

  const call = (method: 'GET' | 'POST', url: string, body?: unknown, apiKey = key) =>
    app.inject({
      method,
      url: `/api/v1${url}`,
      headers: { 'service-api-key': apiKey },
      ...(body === undefined ? {} : { payload: body as object }),
    });

  it('answers 501 to an organization without the beta, before looking at the input', async () => {
    expect((await call('POST', '/actions', { nonsense: true }, outsiderKey)).statusCode).toBe(501);
    expect((await call('GET', '/actions/types', undefined, outsiderKey)).statusCode).toBe(501);
  });

  it('lists every type of the spec with its access mode, and serves the JSON Schema of a type', async () => {
    const types = (await call('GET', '/actions/types')).json().items as {
      type: string;
      accessMode: string;
      accounts: string[];
    }[];
    // spec 000: 28 listed, 20 + 6 + 12 advertising, 10 MCF, 14 others
    expect(types).toHaveLength(28 + 20 + 6 + 12 + 10 + 14);
    expect(types.find((t) => t.type === 'MKT_LISTINGS_FIND')).toEqual({
      type: 'MKT_LISTINGS_FIND',
      accessMode: 'READ',
      accounts: ['SELLER', 'VENDOR'],
    });
    expect(types.find((t) => t.type === 'MKT_LISTINGS_PRICING_UPDATE')).toMatchObject({
      accessMode: 'WRITE',
      accounts: ['SELLER'],
    });
    expect(types.find((t) => t.type === 'MKT_ADS_CAMPAIGNS_FIND')).toMatchObject({
      accessMode: 'READ',
      accounts: ['ADS'],
    });
    const schema = (await call('GET', '/actions/types/MKT_LISTINGS_PRICING_UPDATE/schema')).json();
    expect(schema).toMatchObject({
      type: 'MKT_LISTINGS_PRICING_UPDATE',
      accessMode: 'WRITE',
      schema: { type: 'object', required: ['sku', 'price'], additionalProperties: false },
    });
    expect((await call('GET', '/actions/types/MKT_NOPE/schema')).statusCode).toBe(400);
  });

  it('validates a dry run of a disabled type: VALIDATED with the issues, nothing queued, no token', async () => {
    const ok = await call('POST', '/actions', { ...pricing(), dryRun: true });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ actionId: null, status: 'VALIDATED', validation: { valid: true, issues: [] } });
    const bad = await call('POST', '/actions', {
      ...pricing({ price: { amount: -1, currency: 'usd' }, extra: 1 }),
      dryRun: true,
    });
    expect(bad.json()).toMatchObject({ status: 'VALIDATED', validation: { valid: false } });
    const paths = (bad.json().validation.issues as { path: string[] }[]).map((i) => i.path.join('.')).sort();
    expect(paths).toEqual(['details.extra', 'details.price.amount', 'details.price.currency']); // `extra` is not a field of the type's details
    expect((await call('GET', '/actions')).json().totalCount).toBe(0);
    expect(
      Number(
        (
          await wh.db
            .selectFrom('control.organizations')
            .select('token_balance')
            .where('id', '=', org)
            .executeTakeFirstOrThrow()
        ).token_balance,
      ),
    ).toBe(10);
  });

  it('refuses a live action: 400 for bad details, 412 for a disabled type or read-only access, 400 for the wrong account', async () => {
    const invalid = await call('POST', '/actions', pricing({ price: { amount: 0, currency: 'USD' } }));
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().issues).toEqual([expect.objectContaining({ path: ['body', 'details', 'price', 'amount'] })]);
    const disabled = await call('POST', '/actions', pricing());
    expect(disabled.statusCode).toBe(412);
    expect(disabled.json().message).toContain('mktdata actions enable');
    await setActionTypes(wh, org, ['MKT_LISTINGS_PRICING_UPDATE', 'MKT_LISTINGS_FIND'], true);
    const readOnly = await call('POST', '/actions', pricing());
    expect(readOnly.statusCode).toBe(412);
    expect(readOnly.json().message).toContain('READ_AND_WRITE');
    const vendor = await call('POST', '/actions', { ...pricing(), sellerOrVendorId: VENDOR });
    expect(vendor.statusCode).toBe(400);
    expect(vendor.json().message).toBe(
      `MKT_LISTINGS_PRICING_UPDATE runs for SELLER accounts; ${VENDOR} is a VENDOR account`,
    );
    expect(
      (await call('POST', '/actions', { ...pricing(), sellerOrVendorId: '00000000-0000-4000-8000-0000000000ff' }))
        .statusCode,
    ).toBe(404);
    const unknown = await call('POST', '/actions', {
      type: 'MKT_LISTINGS_DELETE',
      sellerOrVendorId: US.id,
      details: {},
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toMatch(
      /^action type MKT_LISTINGS_DELETE is refused: it is not an action type of the spec/,
    );
  });

  it('queues a live action PENDING (its token debited when it runs), up to the live-action limit (429), and 402 without tokens', async () => {
    await setConnectionAccess(wh, US.id, 'READ_AND_WRITE');
    const ids: string[] = [];
    for (let i = 0; i < LIVE_ACTION_LIMIT; i++) {
      const started = await call('POST', '/actions', pricing({ price: { amount: 10 + i, currency: 'USD' } }));
      expect(started.statusCode).toBe(202);
      expect(started.json()).toEqual({ actionId: expect.any(String), status: 'PENDING' });
      ids.push(started.json().actionId);
    }
    const limited = await call('POST', '/actions', pricing());
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toContain('combine operations');
    // 10 tokens at first: a queued action is paid when the worker starts it (none runs here), the refused one never.
    expect(
      Number(
        (
          await wh.db
            .selectFrom('control.organizations')
            .select('token_balance')
            .where('id', '=', org)
            .executeTakeFirstOrThrow()
        ).token_balance,
      ),
    ).toBe(10);

    const status = (await call('GET', `/actions/${ids[0]}`)).json();
    expect(status).toMatchObject({
      actionId: ids[0],
      type: 'MKT_LISTINGS_PRICING_UPDATE',
      sellerOrVendorId: US.id,
      status: 'PENDING',
      creator: 'API',
      result: null,
      error: null,
    });
    const page = (await call('GET', '/actions?pageSize=2&statuses=PENDING&types=MKT_LISTINGS_PRICING_UPDATE')).json();
    expect(page).toMatchObject({ page: 1, pageSize: 2, totalCount: 5 });
    expect((await call('GET', '/actions?statuses=COMPLETED')).json().totalCount).toBe(0);
    expect((await call('GET', '/actions?pageSize=26')).statusCode).toBe(400);
    // spec 000: statuses, types and creators are arrays of their enums; a value outside them is a 400 at its place
    for (const [query, path] of [
      ['statuses=PENDING,NOT_A_STATUS', ['querystring', 'statuses', '1']],
      ['types=MKT_LISTINGS_PRICING_UPDATE,MKT_NOT_A_TYPE', ['querystring', 'types', '1']],
      ['creators=ROBOT', ['querystring', 'creators', '0']],
    ] as const) {
      const refused = await call('GET', `/actions?${query}`);
      expect(refused.statusCode, query).toBe(400);
      expect(refused.json().issues.map((i: { path: string[] }) => i.path)).toEqual([path]);
    }
    expect((await call('GET', '/actions?types=MKT_NOT_A_TYPE')).json().issues[0]).toMatchObject({
      code: 'invalid_value',
      message: 'MKT_NOT_A_TYPE is not an action type; GET /api/v1/actions/types lists them',
    });
    expect((await call('GET', `/actions/${ids[0]}`, undefined, outsiderKey)).statusCode).toBe(501);

    await wh.db.updateTable('control.actions').set({ status: 'COMPLETED' }).execute();
  });

  it('ends a queued action CANCELED when its type is disabled before it runs, BLOCKED_NO_TOKENS when the tokens ran out, ERROR without connectors', async () => {
    const queue = async () => (await call('POST', '/actions', pricing())).json().actionId as string;
    const statusOf = async (id: string) => (await call('GET', `/actions/${id}`)).json();
    const balance = async () =>
      Number(
        (
          await wh.db
            .selectFrom('control.organizations')
            .select('token_balance')
            .where('id', '=', org)
            .executeTakeFirstOrThrow()
        ).token_balance,
      );
    const before = await balance();

    const canceled = await queue();
    await setActionTypes(wh, org, ['MKT_LISTINGS_PRICING_UPDATE'], false);
    await app.exportServices.actions.runPending();
    expect(await statusOf(canceled)).toMatchObject({
      status: 'CANCELED',
      result: null,
      error: { status: 412, code: 'ERR_ACTION_TYPE_DISABLED' },
    });
    expect(await balance()).toBe(before); // nothing ran, nothing paid

    await setActionTypes(wh, org, ['MKT_LISTINGS_PRICING_UPDATE'], true);
    const failed = await queue();
    await app.exportServices.actions.runPending();
    // This app has no live connectors: the action is paid when it starts, then fails naming what is missing.
    expect(await statusOf(failed)).toMatchObject({
      status: 'ERROR',
      error: {
        status: 400,
        code: 'ERR_CONNECTOR_CONFIG',
        message: expect.stringContaining('MKTDATA_SP_API_CLIENT_ID'),
      },
    });
    expect(await balance()).toBe(before - 1);

    const blocked = await queue();
    await wh.db.updateTable('control.organizations').set({ token_balance: 0 }).where('id', '=', org).execute();
    await app.exportServices.actions.runPending();
    expect((await call('POST', '/actions', pricing())).statusCode).toBe(402);
    expect((await call('GET', '/actions')).statusCode).toBe(402);
    await wh.db.updateTable('control.organizations').set({ token_balance: 1 }).where('id', '=', org).execute();
    expect(await statusOf(blocked)).toMatchObject({
      status: 'BLOCKED_NO_TOKENS',
      result: null,
      error: { status: 402, code: 'ERR_NO_TOKENS' },
    });
  });
});
