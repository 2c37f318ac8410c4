import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { addConnection } from '../../src/control/connections/connections.ts';
import { createApiKey, createOrganization } from '../../src/control/organizations.ts';
import { buildApp, type App } from '../../src/api/app.ts';
import type { Warehouse } from '../../src/db/warehouse.ts';
import { land, makeHome, writeOrders, DE, US } from '../helpers/home.ts';

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('HTTP API: server, authentication, limits, errors, catalog and utility endpoints', () => {
  let wh: Warehouse;
  let app: App;
  let key: string;
  let otherKey: string;
  let clock = 1_000_000;
  let made: Awaited<ReturnType<typeof makeHome>>;

  beforeAll(async () => {
    made = await makeHome();
    wh = made.wh;
    const org = (await wh.db.selectFrom('control.organizations').select('id').executeTakeFirstOrThrow()).id;
    key = await createApiKey(wh, org);
    // A third connection in the UK, and another organization with a connection of its own.
    await addConnection(wh, {
      organizationId: org,
      id: '00000000-0000-4000-8000-00000000a003',
      name: 'Test UK shop',
      marketplaceId: 'A1F83G8C2ARO7P',
    });
    const other = await createOrganization(wh, { name: 'Other org', tokens: 5 });
    otherKey = await createApiKey(wh, other);
    await addConnection(wh, {
      organizationId: other,
      id: '00000000-0000-4000-8000-00000000b001',
      name: 'Other US',
      marketplaceId: US.marketplaceId,
    });
    // A fake clock, advanced by hand, so that the rate limit never interferes unless a test wants it to.
    app = await buildApp({ wh, home: made.home, logger: false, now: () => clock });
  });
  afterAll(async () => {
    await app?.close();
    await wh?.close();
  });

  const get = (url: string, headers: Record<string, string> = { 'service-api-key': key }) => {
    clock += 1000; // a fresh second per call: a full bucket
    return app.inject({ method: 'GET', url, headers });
  };

  describe('authentication', () => {
    it('answers 401 without the service-api-key header, whatever other header carries the key', async () => {
      for (const headers of [{}, { 'x-api-key': key }, { authorization: `Bearer ${key}` }] as Record<
        string,
        string
      >[]) {
        const res = await get('/api/v1/util/organization', headers);
        expect(res.statusCode).toBe(401);
        expect(res.json()).toMatchObject({ statusCode: 401, error: 'Unauthorized', code: 'ERR_AUTH_MISSING_KEY' });
      }
    });

    it('answers 401 for an unknown key', async () => {
      const res = await get('/api/v1/util/organization', { 'service-api-key': 'mkt_not-a-key' });
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('ERR_AUTH_INVALID_KEY');
    });

    it('puts a uuid service-api-request-id on every response, success or error, and in error bodies', async () => {
      const ok = await get('/api/v1/util/organization');
      const bad = await get('/api/v1/util/organization', {});
      const spec = await get('/api/v1/spec/data-scheme', {});
      const missing = await get('/api/v1/nope', {});
      for (const res of [ok, bad, spec, missing]) expect(res.headers['service-api-request-id']).toMatch(uuid);
      expect(bad.json().requestId).toBe(bad.headers['service-api-request-id']);
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toMatchObject({ code: 'ERR_ROUTE_NOT_FOUND', message: 'no endpoint GET /api/v1/nope' });
    });
  });

  describe('GET /util/organization', () => {
    it("answers the key's organization with its token balance and limits", async () => {
      const res = await get('/api/v1/util/organization');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        id: expect.stringMatching(uuid),
        name: 'Test org',
        tokenBalance: 10,
        limits: { requestsPerSecond: 2, exportsPageSizeMax: 25, sellersAndVendorsPageSizeMax: 100 },
      });
      expect((await get('/api/v1/util/organization', { 'service-api-key': otherKey })).json()).toMatchObject({
        name: 'Other org',
        tokenBalance: 5,
      });
    });
  });

  describe('actions (a private beta: spec 000 "Actions")', () => {
    it('answers 501 on every actions endpoint to a valid key, whatever the input, and 401 without one', async () => {
      for (const [method, url] of [
        ['POST', '/api/v1/actions'],
        ['GET', '/api/v1/actions?pageSize=999'],
        ['GET', '/api/v1/actions/not-a-uuid'],
      ] as const) {
        clock += 1000;
        const res = await app.inject({
          method,
          url,
          headers: { 'service-api-key': key },
          ...(method === 'POST' ? { payload: { type: 'MKT_LISTINGS_FIND', dryRun: true } } : {}),
        });
        expect(res.statusCode, url).toBe(501);
        expect(res.json()).toMatchObject({
          statusCode: 501,
          error: 'Not Implemented',
          code: 'ERR_ACTIONS_NOT_ENABLED',
        });
        expect((await app.inject({ method, url })).statusCode, url).toBe(401);
      }
    });
  });

  describe('GET /util/sellers-and-vendors', () => {
    it("lists only the organization's connections, paginated, with account type, marketplace, access level and load stage", async () => {
      const res = await get('/api/v1/util/sellers-and-vendors');
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body).toMatchObject({ page: 1, pageSize: 100, totalCount: 3 });
      expect(body.items.map((i: { name: string }) => i.name)).toEqual(['Test DE', 'Test UK shop', 'Test US']);
      expect(body.items[2]).toEqual({
        id: US.id,
        sellerOrVendorId: US.id,
        name: 'Test US',
        // Nothing landed and no credentials: no account is reached yet.
        accountType: 'UNCONNECTED',
        sellerCentralConnection: null,
        vendorCentralConnection: null,
        mktAdsConnection: null,
        mktDspConnection: null,
        rowCount: 0,
        marketplaceId: 'ATVPDKIKX0DER',
        marketplaceCountryCode: 'US',
        marketplaceCountryName: 'United States',
        marketplaceSellerId: 'SELLERUS',
        connections: [{ type: 'SELLER_CENTRAL', createdAt: expect.any(String) }],
        accessLevel: 'READ',
        initialLoadStage: 'FIRST_STAGE', // nothing landed and published yet
      });
      const page2 = (await get('/api/v1/util/sellers-and-vendors?page=2&pageSize=1')).json();
      expect(page2).toMatchObject({
        page: 2,
        pageSize: 1,
        totalCount: 3,
        items: [{ sellerOrVendorId: '00000000-0000-4000-8000-00000000a003' }],
      });
      const other = (await get('/api/v1/util/sellers-and-vendors', { 'service-api-key': otherKey })).json();
      expect(other.items.map((i: { name: string }) => i.name)).toEqual(['Other US']);
    });

    it('gives each item the connection objects the clients filter on: landed files, working and revoked credentials', async () => {
      // US: an orders report of 2 lines landed by hand. DE: Ads API credentials only, then revoked SP-API ones too.
      await land(
        wh,
        'GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL',
        US,
        writeOrders(made.dir, 'links.tsv', [
          {
            'amazon-order-id': 'L-1',
            'purchase-date': '2026-03-01T12:00:00+00:00',
            'order-status': 'Shipped',
            sku: 'A',
            quantity: '1',
            currency: 'USD',
            'item-price': '1.00',
          },
          {
            'amazon-order-id': 'L-2',
            'purchase-date': '2026-03-01T12:00:00+00:00',
            'order-status': 'Shipped',
            sku: 'B',
            quantity: '1',
            currency: 'USD',
            'item-price': '1.00',
          },
        ]),
      );
      const credential = (api: 'sp-api' | 'ads', status: 'active' | 'needs_reauthorization') => ({
        connection_id: DE.id,
        api,
        selling_partner_id: null,
        profile_id: null,
        refresh_token_encrypted: 'x',
        status,
        status_reason: null,
        created_at: '2026-11-01T10:00:00.000Z',
        updated_at: '2026-11-01T10:00:00.000Z',
      });
      await wh.db.insertInto('control.connection_credentials').values(credential('ads', 'active')).execute();
      const item = async (id: string) =>
        (await get('/api/v1/util/sellers-and-vendors')).json().items.find((i: { id: string }) => i.id === id);
      expect(await item(US.id)).toMatchObject({
        accountType: 'SELLER',
        sellerCentralConnection: { status: 'FILES', connectedAt: expect.any(String), accessLevel: 'READ' },
        vendorCentralConnection: null,
        mktAdsConnection: null,
        mktDspConnection: null,
        rowCount: 2,
      });
      expect(await item(DE.id)).toMatchObject({
        accountType: 'ADS_ONLY',
        sellerCentralConnection: null,
        mktAdsConnection: { status: 'CONNECTED', connectedAt: '2026-11-01T10:00:00.000Z', accessLevel: 'READ' },
        rowCount: 0,
      });
      await wh.db
        .insertInto('control.connection_credentials')
        .values(credential('sp-api', 'needs_reauthorization'))
        .execute();
      expect(await item(DE.id)).toMatchObject({
        accountType: 'SELLER',
        sellerCentralConnection: { status: 'NEEDS_REAUTHORIZATION' },
        mktAdsConnection: { status: 'CONNECTED' },
      });
    });

    it('filters by a case-insensitive name query and by country code, where UK and GB both mean the United Kingdom', async () => {
      const names = async (qs: string) =>
        (await get(`/api/v1/util/sellers-and-vendors?${qs}`)).json().items.map((i: { name: string }) => i.name);
      expect(await names('query=tEsT%20d')).toEqual(['Test DE']);
      expect(await names('marketplaceCountryCode=UK')).toEqual(['Test UK shop']);
      expect(await names('marketplaceCountryCode=gb')).toEqual(['Test UK shop']);
      expect(await names('marketplaceCountryCode=FR')).toEqual([]);
      expect(
        (await get(`/api/v1/util/sellers-and-vendors?marketplaceCountryCode=DE`)).json().items[0].sellerOrVendorId,
      ).toBe(DE.id);
    });

    it.each([
      ['page=0', 'page'],
      ['page=-1', 'page'],
      ['page=abc', 'page'],
      ['page=1.5', 'page'],
      ['page=1e3', 'page'],
      ['pageSize=0x10', 'pageSize'],
      ['page=99999999999999999999', 'page'],
      ['pageSize=0', 'pageSize'],
      ['pageSize=101', 'pageSize'],
      ['pageSize[]=5', 'pageSize[]'],
      ['page=1&page=2', 'page'],
      [`query=${'x'.repeat(257)}`, 'query'],
      ['marketplaceCountryCode=USA', 'marketplaceCountryCode'],
      ['unknown=1', 'unknown'],
    ])('answers 400 with issues for %s, never 500', async (qs, field) => {
      const res = await get(`/api/v1/util/sellers-and-vendors?${qs}`);
      expect(res.statusCode).toBe(400);
      const body = res.json();
      expect(body).toMatchObject({ statusCode: 400, error: 'Bad Request', code: 'ERR_REQUEST_INVALID' });
      expect(JSON.stringify(body.issues)).toContain(field);
    });

    it.each(['-1', '0', '101', '99999999999999999999', 'abc'])('says the range of pageSize=%s', async (value) => {
      const res = await get(`/api/v1/util/sellers-and-vendors?pageSize=${value}`);
      expect(res.json().issues).toEqual([
        { path: ['querystring', 'pageSize'], code: 'custom', message: 'expected a whole number between 1 and 100' },
      ]);
    });
  });

  describe('GET /spec/data-scheme', () => {
    it('needs no key and lists every catalog table with its columns and metadata', async () => {
      const res = await get('/api/v1/spec/data-scheme', {});
      expect(res.statusCode).toBe(200);
      const { sources, recommendedSources } = res.json();
      const profit = sources.find((s: { tableName: string }) => s.tableName === 'mkt_profit_by_date');
      expect(profit).toMatchObject({
        name: 'Profit by Date',
        type: 'SELLER_CENTRAL',
        isPremium: true,
        requiresDatePeriod: true,
        containsPii: false,
        initialLoadProgress: null,
      });
      expect(profit.id).toMatch(/^[0-9a-f]{64}$/);
      expect(profit.columns[0]).toEqual({
        name: 'marketplace_id',
        type: 'TEXT',
        nullable: false,
        description: 'Marketplace identifier.',
      });
      expect(recommendedSources.map((s: { tableName: string }) => s.tableName)).toContain('mkt_profit_by_sku_and_date');
    });

    it('filters by keyword (aliases, columns, id prefix), source type and PII flag', async () => {
      const tables = async (qs: string) =>
        (await get(`/api/v1/spec/data-scheme?${qs}`, {})).json().sources.map((s: { tableName: string }) => s.tableName);
      expect(await tables('query=P%26L')).toEqual(['mkt_profit_by_date', 'mkt_profit_by_sku_and_date']);
      expect(await tables('query=ad_target_count')).toEqual(['mkt_profit_by_date']);
      expect(await tables('query=9eb9e70668')).toEqual(['mkt_profit_by_date']);
      expect(await tables('sourceType=MKT_ADS')).toEqual(['mkt_ads_performance_by_asin_and_date']);
      // the only table spec 002 marks as holding personal data
      expect(await tables('containsPii=true')).toEqual(['mkt_fba_shipments']);
      const bad = await get('/api/v1/spec/data-scheme?containsPii=maybe', {});
      expect(bad.statusCode).toBe(400);
      expect(bad.json().issues[0].path).toContain('containsPii');
    });
  });

  describe('Markdown and webhook specification endpoints', () => {
    it('serves the data-scheme index with one section per source type, linking each table page', async () => {
      const res = await get('/api/v1/spec/data-scheme.md', {});
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/markdown/);
      expect(res.body).toMatch(/^# Data scheme/);
      expect(res.body).toContain('## SELLER_CENTRAL');
      expect(res.body).toContain('## MKT_ADS');
      expect(res.body).toContain('- [Profit by Date](data-scheme/mkt_profit_by_date.md) `mkt_profit_by_date`');
      const filtered = (await get('/api/v1/spec/data-scheme.md?query=pnl', {})).body;
      expect(filtered.match(/^- \[/gm)).toHaveLength(2);
    });

    it('serves a table page with its metadata and every column', async () => {
      const res = await get('/api/v1/spec/data-scheme/mkt_profit_by_date.md', {});
      expect(res.statusCode).toBe(200);
      expect(res.body).toMatch(/^# mkt_profit_by_date\n\n## Profit by Date \(SELLER_CENTRAL\)/);
      // Nullability as spec document 001 lists it, though both can be null (their .yml notes say why).
      expect(res.body).toContain('| ad_target_count | NUMBER | false |');
      expect(res.body).toContain('- fetchPeriods: CONTINUOUS');
      expect(res.body).toContain('| roi | NUMBER | false |');
    });

    it.each([
      '%',
      '%E0%A4%A.md',
      'nope.md',
      'mkt_profit_by_date',
      'MKT_PROFIT_BY_DATE.md',
      'mkt_profit_by_date.md.bak',
      '..%2F..%2Fwarehouse.duckdb',
      '%2E%2E%2Fetc%2Fpasswd',
      'a%00.md',
      `${'x'.repeat(300)}.md`,
    ])('answers 404 with the Markdown page titled Table not found for %s', async (file) => {
      const res = await get(`/api/v1/spec/data-scheme/${file}`, {});
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toMatch(/^text\/markdown/);
      expect(res.body).toMatch(/^# Table not found\n/);
      expect(res.body).not.toContain('passwd');
    });

    it('lists every webhook event of spec document 002 with its fields, flags and prerequisites', async () => {
      const res = await get('/api/v1/spec/webhook-scheme', {});
      expect(res.statusCode).toBe(200);
      const { messages } = res.json();
      expect(messages).toHaveLength(19);
      const byType = Object.fromEntries(messages.map((m: { messageType: string }) => [m.messageType, m]));
      expect(
        byType.MKT_ORDER_UPDATE.summary.fields.find((f: { name: string }) => f.name === 'orderItems'),
      ).toMatchObject({
        type: 'OBJECT_LIST',
        optional: true,
        fields: [
          { name: 'sku', type: 'STRING', optional: false },
          { name: 'childAsin' },
          { name: 'quantity', type: 'NUMBER' },
          { name: 'itemPriceValue' },
        ],
      });
      expect(byType.MKT_ORDER_BUYER_INFO_UPDATE.details.fields).toHaveLength(20);
      expect(byType.MKT_ANY_OFFER_CHANGED.highVolume).toBe(true);
      expect(byType.MKT_FEE_PROMOTION.highVolume).toBeUndefined();
      expect(byType.MKT_SHIPMENT_TRACKING_MILESTONE_CHANGED.prerequisites).toContain('MKT_SHIPMENT_TRACKING_SUBSCRIBE');
      expect(byType.MKT_TRANSACTION_UPDATE.summary.fields.map((f: { name: string }) => f.name)).toEqual([
        'marketplaceId',
        'marketplaceCountryCode',
        'marketplaceCountryName',
        'sellerOrVendorId',
        'sellerOrVendorName',
        'marketplaceSellerId',
        'spApiNotificationId',
        'spApiNotificationType',
        'eventTimeUtc',
      ]);
      expect(
        byType.MKT_TRANSACTION_UPDATE.details.fields.map(
          (f: { name: string; optional: boolean }) => `${f.name}:${f.optional}`,
        ),
      ).toEqual(['notificationMetadata:false', 'payload:false']);
    });

    it('serves instructions for agents: the flow, limits and errors', async () => {
      const res = await get('/api/v1/spec/service_api.md', {});
      expect(res.statusCode).toBe(200);
      for (const text of [
        'service-api-key',
        '/api/v1/util/sellers-and-vendors',
        '/api/v1/exports/sources',
        'POST /api/v1/exports',
        '/raw',
        'Retry-After',
        '2 requests per second',
      ]) {
        expect(res.body).toContain(text);
      }
    });
  });

  describe('POST /util/sellers-and-vendors/invite and the public invitation page', () => {
    const post = (url: string, payload: unknown, headers: Record<string, string> = { 'service-api-key': key }) => {
      clock += 1000;
      return app.inject({ method: 'POST', url, payload: payload as Record<string, unknown>, headers });
    };
    const invite = async (body: unknown) => post('/api/v1/util/sellers-and-vendors/invite', body);
    const pathOf = (url: string) => new URL(url).pathname;

    it('creates a public link valid 7 days that opens a registration page, registers the connection once, then answers 410', async () => {
      const created = await invite({ accountType: 'SELLER', name: 'Invited FR shop', marketplaceCountryCode: 'FR' });
      expect(created.statusCode).toBe(201);
      const body = created.json();
      expect(body).toEqual({
        invitationId: expect.stringMatching(uuid),
        url: expect.stringMatching(/^http:\/\/localhost(:\d+)?\/invite\/[A-Za-z0-9_-]{32}$/),
        accountType: 'SELLER',
        expiresAt: new Date(clock + 7 * 86_400_000).toISOString(),
      });

      const page = await app.inject({ method: 'GET', url: pathOf(body.url) });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.body).toContain('Connect your seller account');
      expect(page.body).toContain('value="Invited FR shop"');
      expect(page.body).toContain('<option value="A13V1IB3VIYZZH" selected>');

      const form = (fields: Record<string, string>) =>
        app.inject({
          method: 'POST',
          url: pathOf(body.url),
          payload: new URLSearchParams(fields).toString(),
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        });
      const missing = await form({ name: '', marketplaceId: 'A13V1IB3VIYZZH' });
      expect(missing.statusCode).toBe(400);
      expect(missing.body).toContain('a name is required');
      expect((await form({ name: 'X', marketplaceId: 'NOPE' })).statusCode).toBe(400);

      const done = await form({ name: 'Invited FR shop', marketplaceId: 'A13V1IB3VIYZZH', sellerId: 'AFRSELLER' });
      expect(done.statusCode).toBe(201);
      const connectionId = /<code>([0-9a-f-]{36})<\/code>/.exec(done.body)?.[1];
      expect(connectionId).toMatch(uuid);
      const listed = (await get('/api/v1/util/sellers-and-vendors?marketplaceCountryCode=FR')).json();
      // Registered through the form, without OAuth: a files-fed connection, unconnected until its first report lands.
      expect(listed.items).toMatchObject([
        {
          sellerOrVendorId: connectionId,
          name: 'Invited FR shop',
          marketplaceSellerId: 'AFRSELLER',
          accountType: 'UNCONNECTED',
        },
      ]);
      expect(
        (
          await get('/api/v1/util/sellers-and-vendors?marketplaceCountryCode=FR', { 'service-api-key': otherKey })
        ).json().items,
      ).toEqual([]);

      const again = await form({ name: 'Twice', marketplaceId: 'A13V1IB3VIYZZH' });
      expect(again.statusCode).toBe(410);
      expect(again.body).toContain('Invitation already used');
    });

    it('expires a link after 7 days and answers 404 for an unknown one', async () => {
      const { url } = (await invite({ accountType: 'VENDOR' })).json();
      clock += 7 * 86_400_000 + 1;
      const expired = await app.inject({ method: 'GET', url: pathOf(url) });
      expect(expired.statusCode).toBe(410);
      expect(expired.body).toContain('Invitation expired');
      expect((await app.inject({ method: 'GET', url: '/invite/not-a-token' })).statusCode).toBe(404);
    });

    it.each([
      [{ accountType: 'ADMIN' }, 'accountType'],
      [{ marketplaceCountryCode: 'ZZ' }, 'marketplaceCountryCode'],
      [{ marketplaceCountryCode: 'FRA' }, 'marketplaceCountryCode'],
      [{ name: '' }, 'name'],
      [{ extra: true }, 'extra'],
    ])('answers 400 naming the field for %j', async (payload, field) => {
      const res = await invite(payload);
      expect(res.statusCode).toBe(400);
      expect(JSON.stringify(res.json())).toContain(field);
    });

    it('answers 400, not 500, for a body that is not JSON, and 401 without a key', async () => {
      const res = await app.inject({
        method: 'POST',
        url: '/api/v1/util/sellers-and-vendors/invite',
        payload: '{not json',
        headers: { 'service-api-key': key, 'content-type': 'application/json' },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('ERR_REQUEST_INVALID');
      expect((await post('/api/v1/util/sellers-and-vendors/invite', {}, {})).statusCode).toBe(401);
    });
  });

  describe('rate limit', () => {
    it('allows 2 requests per second per organization, then answers 429 with Retry-After; the spec endpoints are not limited', async () => {
      clock += 5000;
      const at = (headers: Record<string, string> = { 'service-api-key': key }) =>
        app.inject({ method: 'GET', url: '/api/v1/util/organization', headers });
      expect((await at()).statusCode).toBe(200);
      expect((await at()).statusCode).toBe(200);
      const limited = await at();
      expect(limited.statusCode).toBe(429);
      expect(limited.headers['retry-after']).toBe('1');
      expect(limited.json()).toMatchObject({ statusCode: 429, error: 'Too Many Requests', code: 'ERR_RATE_LIMITED' });
      // Another organization has its own bucket; the spec endpoints take none.
      expect((await at({ 'service-api-key': otherKey })).statusCode).toBe(200);
      for (let i = 0; i < 5; i++)
        expect((await app.inject({ method: 'GET', url: '/api/v1/spec/data-scheme' })).statusCode).toBe(200);
      clock += 500; // half a second refills one token
      expect((await at()).statusCode).toBe(200);
      expect((await at()).statusCode).toBe(429);
    });
  });

  describe('GET /openapi.json', () => {
    it("is a valid OpenAPI 3.1 document with the spec's schema names", async () => {
      const res = await get('/api/v1/openapi.json', {});
      expect(res.statusCode).toBe(200);
      const document = res.json();
      expect(document.openapi).toBe('3.1.0');
      const result = await new Validator().validate(document);
      expect(result.errors ?? []).toEqual([]);
      expect(result.valid).toBe(true);
      // Every request and response schema spec 000 names, in the order of its text.
      expect(Object.keys(document.components.schemas)).toEqual(
        expect.arrayContaining([
          'ExportSourcesResponse',
          'UtilityOrganizationResponseDto',
          'SellersAndVendorsResponseDto',
          'ApiNotFoundResponse',
          'ApiRateLimitResponse',
          'ExportRequest',
          'ExportResponse',
          'ExportsResponse',
          'ExportRawNotCompletedResponse',
          'ApiNoTokensResponse',
          'ApiBadRequestResponse',
          'ExportScheduleRequest',
          'ExportScheduleWithIntegrationsResponse',
          'ExportSchedulesResponse',
          'CreatePublicInvitationRequest',
          'CreatePublicInvitationResponse',
          'CreateDataFileRequest',
          'DataFileCreateResponse',
          'DataFileResponse',
          'DataFilesResponse',
          'ActionRequest',
          'ActionStartResponse',
          'ActionHistoryResponse',
          'ActionStatusResponse',
          'ApiLiveActionLimitResponse',
          'CogsUpsertRequest',
          'CogsUpsertResponse',
          'VendorCodeUpsertRequest',
          'VendorCodeUpsertResponse',
          'SqpAsinsResponse',
          'SqpAsinsMutateRequest',
          'SqpAsinsAddResponse',
          'SqpAsinsRemoveResponse',
        ]),
      );
      expect(Object.keys(document.paths)).toEqual(
        expect.arrayContaining([
          '/api/v1/spec/data-scheme',
          '/api/v1/util/organization',
          '/api/v1/util/sellers-and-vendors',
          '/api/v1/exports',
          '/api/v1/exports/{exportId}',
          '/api/v1/exports/{exportId}/raw',
          '/api/v1/exports/sources',
          '/api/v1/exports/schedules',
          '/api/v1/exports/schedules/{scheduleId}',
          '/api/v1/exports/schedules/{scheduleId}/latest',
        ]),
      );
    });
  });
});
