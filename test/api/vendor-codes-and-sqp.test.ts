// POST/DELETE /api/v1/vendor-codes and GET/POST/DELETE /api/v1/sqp-asins (spec 000 "Unit costs, vendor codes, SQP
// ASINs, usage", its SQP state table and limits; docs/design/API.md; docs/design/service-clients.md "COGS, vendor
// codes, SQP
// ASINs"), in process with a clock the test moves.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/api/app.ts';
import { addConnection } from '../../src/control/connections/connections.ts';
import { createApiKey, createOrganization } from '../../src/control/organizations.ts';
import type { Warehouse } from '../../src/db/warehouse.ts';
import { makeHome, rows, US } from '../helpers/home.ts';

const VENDOR = '00000000-0000-4000-8000-00000000a0f1';
const OTHER_VENDOR = '00000000-0000-4000-8000-00000000b0f1';
const OTHER_SELLER = '00000000-0000-4000-8000-00000000b0c1';
const BROKE_VENDOR = '00000000-0000-4000-8000-00000000c0f1';
const BROKE_SELLER = '00000000-0000-4000-8000-00000000c0c1';
const HOUR = 3_600_000;

describe('vendor codes and SQP ASIN lists over HTTP', () => {
  let wh: Warehouse;
  let app: App;
  let key: string;
  let otherKey: string;
  let brokeKey: string;
  let clock = Date.parse('2026-11-20T18:00:00Z');

  beforeAll(async () => {
    const made = await makeHome();
    wh = made.wh;
    const org = (await wh.db.selectFrom('control.organizations').select('id').executeTakeFirstOrThrow()).id;
    key = await createApiKey(wh, org);
    await addConnection(wh, {
      organizationId: org,
      id: VENDOR,
      name: 'Vendor US',
      marketplaceId: US.marketplaceId,
      type: 'VENDOR_CENTRAL',
    });
    const other = await createOrganization(wh, { name: 'Other org', tokens: 50 });
    otherKey = await createApiKey(wh, other);
    await addConnection(wh, {
      organizationId: other,
      id: OTHER_VENDOR,
      name: 'Other vendor',
      marketplaceId: US.marketplaceId,
      type: 'VENDOR_CENTRAL',
    });
    await addConnection(wh, {
      organizationId: other,
      id: OTHER_SELLER,
      name: 'Other seller',
      marketplaceId: US.marketplaceId,
    });
    const broke = await createOrganization(wh, { name: 'Broke org', tokens: 0 });
    brokeKey = await createApiKey(wh, broke);
    await addConnection(wh, {
      organizationId: broke,
      id: BROKE_VENDOR,
      name: 'Broke vendor',
      marketplaceId: US.marketplaceId,
      type: 'VENDOR_CENTRAL',
    });
    await addConnection(wh, {
      organizationId: broke,
      id: BROKE_SELLER,
      name: 'Broke seller',
      marketplaceId: US.marketplaceId,
    });
    app = await buildApp({ wh, home: made.home, logger: false, now: () => clock, requestsPerSecond: 1000 });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await wh?.close();
  });

  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown, apiKey = key) =>
    app.inject({
      method,
      url,
      headers: { 'service-api-key': apiKey },
      ...(body === undefined ? {} : { payload: body as object }),
    });
  const codes = () =>
    rows(
      wh,
      `select identifier_type, identifier, vendor_code from control.vendor_codes where connection_id = $c order by all`,
      { c: VENDOR },
    );

  describe('vendor codes', () => {
    it('upserts one code per ASIN or SKU of a vendor connection (the last of an item winning) for 1 token', async () => {
      const res = await call('POST', '/api/v1/vendor-codes', {
        sellerOrVendorId: VENDOR,
        vendorCodesToUpsert: [
          { asin: 'B000000001', vendorCode: 'OLD1' },
          { sku: ' SKU-A ', vendorCode: 'ABCD1' },
          { asin: 'B000000001', vendorCode: 'WXYZ1' },
        ],
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ sellerOrVendorId: VENDOR, upsertedCount: 2 });
      await call('POST', '/api/v1/vendor-codes', {
        sellerOrVendorId: VENDOR,
        vendorCodesToUpsert: [
          { sku: 'SKU-B', vendorCode: 'ABCD1' },
          { sku: 'SKU-A', vendorCode: 'EFGH1' },
        ],
      });
      expect(await codes()).toEqual([
        { identifier_type: 'ASIN', identifier: 'B000000001', vendor_code: 'WXYZ1' },
        { identifier_type: 'SKU', identifier: 'SKU-A', vendor_code: 'EFGH1' },
        { identifier_type: 'SKU', identifier: 'SKU-B', vendor_code: 'ABCD1' },
      ]);
      const usage = (await call('GET', '/api/v1/usage-logs?usageTypes=VENDOR_CODE')).json();
      expect(usage.totalCount).toBe(2);
      expect(usage.items[0]).toMatchObject({ specificUsageType: 'VENDOR_CODE_API_STANDARD', tokens: 1 });
    });

    it('keeps codes for a seller connection too (spec 000: vendor-code rows are per seller or vendor)', async () => {
      const res = await call('POST', '/api/v1/vendor-codes', {
        sellerOrVendorId: US.id,
        vendorCodesToUpsert: [{ asin: 'B000000009', vendorCode: 'HYB1' }],
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ sellerOrVendorId: US.id, upsertedCount: 1 });
      const kept = `select identifier_type, identifier, vendor_code from control.vendor_codes where connection_id = $c`;
      expect(await rows(wh, kept, { c: US.id })).toEqual([
        { identifier_type: 'ASIN', identifier: 'B000000009', vendor_code: 'HYB1' },
      ]);
      expect((await call('DELETE', `/api/v1/vendor-codes?sellerOrVendorId=${US.id}`)).statusCode).toBe(204);
      expect(await rows(wh, kept, { c: US.id })).toEqual([]);
    });

    it("refuses both or neither of asin and sku (400), another organization's (404), no tokens (402)", async () => {
      const before = await codes();
      for (const row of [
        { asin: 'B000000001', sku: 'SKU-A', vendorCode: 'X' },
        { vendorCode: 'X' },
        { asin: 'B000000001', vendorCode: '' },
      ]) {
        const res = await call('POST', '/api/v1/vendor-codes', {
          sellerOrVendorId: VENDOR,
          vendorCodesToUpsert: [row],
        });
        expect(res.statusCode, JSON.stringify(row)).toBe(400);
      }
      expect(
        (await call('POST', '/api/v1/vendor-codes', { sellerOrVendorId: VENDOR, vendorCodesToUpsert: [] })).statusCode,
      ).toBe(400);
      const foreign = await call('POST', '/api/v1/vendor-codes', {
        sellerOrVendorId: OTHER_VENDOR,
        vendorCodesToUpsert: [{ asin: 'B000000001', vendorCode: 'X' }],
      });
      expect(foreign.statusCode).toBe(404);
      expect(foreign.body).not.toContain('Other vendor');
      for (const id of [BROKE_VENDOR, BROKE_SELLER]) {
        const broke = await call(
          'POST',
          '/api/v1/vendor-codes',
          { sellerOrVendorId: id, vendorCodesToUpsert: [{ asin: 'B000000001', vendorCode: 'X' }] },
          brokeKey,
        );
        expect(broke.statusCode, id).toBe(402);
        expect(broke.json().code, id).toBe('ERR_NO_TOKENS');
      }
      // As for unit costs, the request's shape is checked before the tokens: a malformed body is a 400 even when broke.
      const brokeAndMalformed = await call(
        'POST',
        '/api/v1/vendor-codes',
        { sellerOrVendorId: BROKE_SELLER, vendorCodesToUpsert: [{ vendorCode: 'X' }] },
        brokeKey,
      );
      expect(brokeAndMalformed.statusCode).toBe(400);
      expect(
        await rows(wh, `select count(*) as n from control.vendor_codes where connection_id in ($v, $s)`, {
          v: BROKE_VENDOR,
          s: BROKE_SELLER,
        }),
      ).toEqual([{ n: '0' }]);
      expect(await codes()).toEqual(before);
    });

    it("deletes the codes of a SKU, of an ASIN, or all of them (204), and 404 for another organization's", async () => {
      expect((await call('DELETE', `/api/v1/vendor-codes?sellerOrVendorId=${VENDOR}&sku=SKU-A`)).statusCode).toBe(204);
      expect((await codes()).map((c) => c.identifier)).toEqual(['B000000001', 'SKU-B']);
      expect((await call('DELETE', `/api/v1/vendor-codes?sellerOrVendorId=${OTHER_VENDOR}`)).statusCode).toBe(404);
      expect((await call('DELETE', '/api/v1/vendor-codes')).statusCode).toBe(400);
      expect((await call('DELETE', `/api/v1/vendor-codes?sellerOrVendorId=${VENDOR}`)).statusCode).toBe(204);
      expect(await codes()).toEqual([]);
    });
  });

  describe('SQP ASINs', () => {
    const list = () => call('GET', `/api/v1/sqp-asins?sellerOrVendorId=${US.id}`);
    const add = (asins: string[]) => call('POST', '/api/v1/sqp-asins', { sellerOrVendorId: US.id, asins });
    const remove = (asins: string[]) => call('DELETE', '/api/v1/sqp-asins', { sellerOrVendorId: US.id, asins });

    it('starts empty and unlocked; a change locks the list for 72 hours; 409 carries editableAt', async () => {
      expect((await list()).json()).toEqual({ sellerOrVendorId: US.id, asins: [], maxAsins: 252, editableAt: null });
      const added = await add([' b000000001 ', 'B000000002', 'B000000002']);
      expect(added.statusCode, added.body).toBe(200);
      // 2026-11-20T18:00Z + 72 h = 2026-11-23T18:00Z
      expect(added.json()).toEqual({
        sellerOrVendorId: US.id,
        asins: ['B000000001', 'B000000002'],
        maxAsins: 252,
        editableAt: '2026-11-23T18:00:00.000Z',
        added: ['B000000001', 'B000000002'],
        alreadyPresent: [],
      });
      clock += 71 * HOUR;
      const refused = await add(['B000000003']);
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toMatchObject({
        statusCode: 409,
        error: 'Conflict',
        code: 'ERR_SQP_LIST_LOCKED',
        editableAt: '2026-11-23T18:00:00.000Z',
      });
      expect((await remove(['B000000001'])).json()).toMatchObject({
        code: 'ERR_SQP_LIST_LOCKED',
        editableAt: '2026-11-23T18:00:00.000Z',
      });
      expect((await list()).json().asins).toEqual(['B000000001', 'B000000002']);
    });

    it('answers a change that alters nothing even while locked, without renewing the lock', async () => {
      const same = await add(['B000000001']);
      expect(same.json()).toMatchObject({
        asins: ['B000000001', 'B000000002'],
        editableAt: '2026-11-23T18:00:00.000Z',
        added: [],
        alreadyPresent: ['B000000001'],
      });
      expect((await remove(['B00000000X'])).json()).toMatchObject({
        removed: [],
        notPresent: ['B00000000X'],
        editableAt: '2026-11-23T18:00:00.000Z',
      });
      clock += HOUR; // 72 h after the change: unlocked
      expect((await list()).json().editableAt).toBeNull();
      const removed = await remove(['B000000002', 'B000000009']);
      expect(removed.json()).toEqual({
        sellerOrVendorId: US.id,
        asins: ['B000000001'],
        maxAsins: 252,
        editableAt: '2026-11-26T18:00:00.000Z',
        removed: ['B000000002'],
        notPresent: ['B000000009'],
      });
    });

    it("refuses malformed ASINs with the clients' message, more than 252 per request or on the list", async () => {
      const bad = await add(['B000000001', 'B0000001', 'B00000000!']);
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({
        code: 'ERR_SQP_ASIN_INVALID',
        message: 'Each ASIN must be 10 characters long and contain only letters and numbers.',
      });
      expect(bad.json().issues.map((i: { path: unknown[] }) => i.path)).toEqual([
        ['body', 'asins', 1],
        ['body', 'asins', 2],
      ]);
      const many = Array.from({ length: 253 }, (_, i) => `B${String(i).padStart(9, '0')}`);
      expect((await add(many)).statusCode).toBe(400);
      expect((await add([])).statusCode).toBe(400);
      clock += 72 * HOUR;
      // B000000000 … B000000250, with B000000001 already there: 251 on the list
      expect((await add(many.slice(0, 251))).statusCode).toBe(200);
      clock += 72 * HOUR;
      const over = await add(['C000000001', 'C000000002']);
      expect(over.json()).toMatchObject({
        statusCode: 400,
        message: 'asins: the list holds 251 ASINs; adding 2 would pass the limit of 252',
      });
      expect((await add(['C000000001'])).json().asins).toHaveLength(252);
    });

    it("keeps lists of seller connections only, and 404 for another organization's", async () => {
      expect((await call('GET', `/api/v1/sqp-asins?sellerOrVendorId=${VENDOR}`)).json()).toMatchObject({
        statusCode: 400,
        code: 'ERR_CONNECTION_TYPE',
      });
      const foreign = await call('GET', `/api/v1/sqp-asins?sellerOrVendorId=${OTHER_SELLER}`);
      expect(foreign.statusCode).toBe(404);
      expect(foreign.body).not.toContain('Other seller');
      expect(
        (await call('POST', '/api/v1/sqp-asins', { sellerOrVendorId: OTHER_SELLER, asins: ['B000000001'] })).statusCode,
      ).toBe(404);
      expect((await call('GET', `/api/v1/sqp-asins?sellerOrVendorId=${US.id}`, undefined, otherKey)).statusCode).toBe(
        404,
      );
      expect((await call('GET', '/api/v1/sqp-asins')).statusCode).toBe(400);
    });
  });
});
