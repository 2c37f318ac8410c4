import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseCsv } from 'csv-parse/sync';
import { buildApp, type App } from '../../src/api/app.ts';
import { allowedNetworks } from '../../src/webhooks/address.ts';
import { exportToFile } from '../../src/cli/commands/export.ts';
import { addConnection } from '../../src/control/connections/connections.ts';
import { createApiKey, createOrganization } from '../../src/control/organizations.ts';
import type { Warehouse } from '../../src/db/warehouse.ts';
import type { Home } from '../../src/home.ts';
import { runModels } from '../../src/models/run-models.ts';
import { publish } from '../../src/publish/publish.ts';
import { DE, land, makeHome, US, writeOrders } from '../helpers/home.ts';

const orders = 'mkt_order_items_with_cogs';
const hour = 3_600_000;

describe('exports and export schedules (HTTP, in process)', () => {
  let wh: Warehouse;
  let home: Home;
  let dir: string;
  let app: App;
  let key: string;
  let org: string;
  let otherKey: string;
  let brokeKey: string;
  let clock = Date.parse('2026-11-22T10:00:00Z');

  beforeAll(async () => {
    ({ wh, home, dir } = await makeHome());
    org = (await wh.db.selectFrom('control.organizations').select('id').executeTakeFirstOrThrow()).id;
    await wh.db.updateTable('control.organizations').set({ token_balance: 100 }).execute();
    key = await createApiKey(wh, org);
    const line = (id: string, date: string, sku: string, qty: string, price: string) => ({
      'amazon-order-id': id,
      'purchase-date': date,
      'order-status': 'Shipped',
      sku,
      asin: `B0${sku.padEnd(8, '0')}`,
      quantity: qty,
      currency: 'USD',
      'item-price': price,
    });
    await land(
      wh,
      'GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL',
      US,
      writeOrders(dir, 'us.tsv', [
        line('111-1', '2026-03-01T12:00:00+00:00', 'MUG', '1', '10.00'),
        line('111-2', '2026-03-02T12:00:00+00:00', 'CUP', '2', '25.50'),
        // 05:00 UTC on 3 March is still 2 March in Los Angeles: a US date of 2026-03-02
        line('111-3', '2026-03-03T05:00:00+00:00', 'MUG, "XL"', '3', '33.33'),
      ]),
    );
    await land(
      wh,
      'GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL',
      DE,
      writeOrders(dir, 'de.tsv', [line('302-1', '2026-03-02T10:00:00+00:00', 'TASSE', '1', '9.99')]),
    );
    await runModels(wh, { select: [`marts.${orders}`] });
    await publish(wh);

    const other = await createOrganization(wh, { name: 'Other org', tokens: 50 });
    otherKey = await createApiKey(wh, other);
    await addConnection(wh, {
      organizationId: other,
      id: '00000000-0000-4000-8000-00000000b001',
      name: 'Other US',
      marketplaceId: US.marketplaceId,
    });
    const broke = await createOrganization(wh, { name: 'Broke org', tokens: 0 });
    brokeKey = await createApiKey(wh, broke);
    await addConnection(wh, {
      organizationId: broke,
      id: '00000000-0000-4000-8000-00000000c001',
      name: 'Broke US',
      marketplaceId: US.marketplaceId,
    });
    // The webhook receivers below listen on 127.0.0.1: the operator's allow-list lets that one address in.
    app = await buildApp({
      wh,
      home,
      logger: false,
      now: () => clock,
      webhookAllowedNetworks: allowedNetworks('127.0.0.1'),
    });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await wh?.close();
  });

  const call = (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    body?: unknown,
    apiKey: string | null = key,
  ) => {
    clock += 1000; // a fresh second per call: a full rate-limit bucket
    return app.inject({
      method,
      url,
      headers: apiKey ? { 'service-api-key': apiKey } : {},
      ...(body === undefined ? {} : { payload: body as object }),
    });
  };
  const worker = () => app.exportServices.worker;
  const request = (extra: Record<string, unknown> = {}) => ({
    sellerOrVendorIds: [US.id],
    tableName: orders,
    from: '2026-03-01',
    to: '2026-03-31',
    ...extra,
  });
  const completed = async (body: Record<string, unknown>, apiKey = key) => {
    const created = await call('POST', '/api/v1/exports', body, apiKey);
    expect(created.statusCode, created.body).toBe(202);
    await worker().idle();
    return created.json().id as string;
  };
  const download = async (id: string) => {
    const raw = await call('GET', `/api/v1/exports/${id}/raw`);
    expect(raw.statusCode, raw.body).toBe(302);
    const location = new URL(raw.headers.location as string);
    return call('GET', `${location.pathname}${location.search}`, undefined, null);
  };

  describe('POST /exports and its job', () => {
    it('accepts a request with 202 PENDING, charges 2 tokens with one usage record, and completes it', async () => {
      const before = Number((await call('GET', '/api/v1/util/organization')).json().tokenBalance);
      const created = await call('POST', '/api/v1/exports', request());
      expect(created.statusCode).toBe(202);
      expect(created.json()).toMatchObject({
        exportId: created.json().id,
        organizationId: org,
        tableName: orders,
        sourceName: 'Order Line Items',
        sellerOrVendorIds: [US.id],
        status: 'PENDING',
        outputType: 'CSV',
        rowCount: null,
        completedAt: null,
        error: null,
        historicalDataStillLoadingNotice: null,
      });
      expect(created.json().sourceId).toMatch(/^[0-9a-f]{64}$/);
      await worker().idle();
      const done = await call('GET', `/api/v1/exports/${created.json().id}`);
      // three US lines in March
      expect(done.json()).toMatchObject({ status: 'COMPLETED', rowCount: 3 });
      expect(done.json().fileSizeBytes).toBeGreaterThan(0);
      expect(Date.parse(done.json().expiresAt) - Date.parse(done.json().completedAt)).toBe(24 * hour);
      const after = Number((await call('GET', '/api/v1/util/organization')).json().tokenBalance);
      expect(before - after).toBe(2);
      const usage = await wh.db
        .selectFrom('control.usage_records')
        .selectAll()
        .where('resource_id', '=', created.json().id)
        .execute();
      expect(usage).toMatchObject([
        { usage_type: 'EXPORTS', specific_usage_type: 'EXPORTS_API_STANDARD', organization_id: org },
      ]);
      expect(Number(usage[0]!.tokens)).toBe(2);
    });

    it('charges 5 tokens for a premium table', async () => {
      const before = Number((await call('GET', '/api/v1/util/organization')).json().tokenBalance);
      await completed({
        sellerOrVendorIds: [US.id],
        tableName: 'mkt_profit_by_date',
        from: '2026-03-01',
        to: '2026-03-31',
      });
      expect(before - Number((await call('GET', '/api/v1/util/organization')).json().tokenBalance)).toBe(5);
    });

    it('takes the source as a 64-hex id, its 10-hex prefix or the table name', async () => {
      const sourceId = (await call('POST', '/api/v1/exports', request())).json().sourceId as string;
      for (const named of [{ sourceId }, { sourceId: sourceId.slice(0, 10) }]) {
        const res = await call('POST', '/api/v1/exports', { ...request(), tableName: undefined, ...named });
        expect(res.statusCode, res.body).toBe(202);
        expect(res.json().tableName).toBe(orders);
      }
      await worker().idle();
    });

    it('uses the marketplace-local date of ISO date-times and applies an or filter', async () => {
      // 2026-03-02T08:00Z..2026-03-03T07:59Z in Los Angeles (UTC-8) is 2026-03-02 only: lines 111-2 and 111-3.
      const id = await completed(
        request({
          from: '2026-03-02T08:00:00Z',
          to: '2026-03-03T07:59:00Z',
          outputType: 'JSON',
          columns: ['mkt_order_id', 'quantity'],
          filters: {
            combinator: 'or',
            rules: [
              { field: 'sku', operator: '=', value: 'CUP' },
              { field: 'quantity', operator: '>=', value: 3 },
            ],
          },
          orderByColumn: 'mkt_order_id',
        }),
      );
      const rows = (await download(id)).json() as Record<string, unknown>[];
      expect(rows.map((r) => [r.mkt_order_id, r.quantity])).toEqual([
        ['111-2', 2],
        ['111-3', 3],
      ]);
      expect(Object.keys(rows[0]!)).toEqual([
        'marketplace_id',
        'marketplace_country_code',
        'marketplace_country_name',
        'seller_or_vendor_id',
        'seller_or_vendor_name',
        'marketplace_seller_id',
        'mkt_order_id',
        'quantity',
      ]);
    });

    it('refuses, with 400 and issues, a period missing on a dated table, unknown columns and malformed bodies', async () => {
      const noPeriod = await call('POST', '/api/v1/exports', { sellerOrVendorIds: [US.id], tableName: orders });
      expect(noPeriod.statusCode).toBe(400);
      expect(noPeriod.json()).toMatchObject({ code: 'ERR_INPUT_INVALID', issues: [{ path: ['body', 'from'] }] });
      const column = await call('POST', '/api/v1/exports', request({ columns: ['sku', 'nope'] }));
      expect(column.statusCode).toBe(400);
      expect(column.json().issues[0].path).toEqual(['body', 'columns', 1]);
      for (const bad of [
        request({ outputType: 'XML' }),
        request({ tableName: undefined }),
        request({ limit: -1 }),
        request({ extra: 1 }),
        request({ from: '2026-02-30' }),
      ]) {
        const res = await call('POST', '/api/v1/exports', bad);
        expect(res.statusCode, JSON.stringify(bad)).toBe(400);
        expect(res.json().code).toBe('ERR_REQUEST_INVALID');
      }
    });

    it('answers 404 for an unknown source and for a connection of another organization', async () => {
      const source = await call('POST', '/api/v1/exports', request({ tableName: 'mkt_nope' }));
      expect(source.statusCode).toBe(404);
      expect(source.json().code).toBe('ERR_SOURCE_NOT_FOUND');
      const foreign = await call(
        'POST',
        '/api/v1/exports',
        request({ sellerOrVendorIds: [US.id, '00000000-0000-4000-8000-00000000b001'] }),
      );
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json().code).toBe('ERR_CONNECTION_NOT_FOUND');
    });

    it('refuses a source disabled for the organization with a message that says how to enable it', async () => {
      const sourceId = (await call('POST', '/api/v1/exports', request())).json().sourceId as string;
      await wh.db
        .insertInto('control.organization_sources')
        .values({ organization_id: org, source_id: sourceId, enabled: false, updated_at: new Date().toISOString() })
        .execute();
      try {
        const res = await call('POST', '/api/v1/exports', request());
        expect(res.statusCode).toBe(400);
        expect(res.json().message).toContain(`mktdata sources enable --org ${org} --table ${orders}`);
      } finally {
        await wh.db.deleteFrom('control.organization_sources').execute();
      }
      await worker().idle();
    });

    it('ends an export without enough tokens BLOCKED_NO_TOKENS, answers 402 on reading it and 422 on its raw file', async () => {
      const res = await call(
        'POST',
        '/api/v1/exports',
        { ...request(), sellerOrVendorIds: ['00000000-0000-4000-8000-00000000c001'] },
        brokeKey,
      );
      expect(res.statusCode).toBe(202);
      expect(res.json()).toMatchObject({ status: 'BLOCKED_NO_TOKENS' });
      const id = res.json().id;
      expect((await call('GET', `/api/v1/exports/${id}`, undefined, brokeKey)).json()).toMatchObject({
        statusCode: 402,
        code: 'ERR_NO_TOKENS',
      });
      const raw = await call('GET', `/api/v1/exports/${id}/raw`, undefined, brokeKey);
      expect(raw.statusCode).toBe(422);
      expect(raw.json()).toMatchObject({ exportId: id, status: 'BLOCKED_NO_TOKENS' });
      expect(
        await wh.db.selectFrom('control.usage_records').select('id').where('resource_id', '=', id).execute(),
      ).toEqual([]);
    });
  });

  describe('GET /exports', () => {
    it('lists the most recent first, pages them, filters by exportIds (repeated or comma-separated) and refuses pageSize 26', async () => {
      const all = (await call('GET', '/api/v1/exports?pageSize=25')).json();
      expect(all.totalCount).toBeGreaterThanOrEqual(3);
      const created = all.items.map((i: { createdAt: string }) => i.createdAt);
      expect([...created].sort().reverse()).toEqual(created);
      const second = (await call('GET', '/api/v1/exports?page=2&pageSize=1')).json();
      expect(second).toMatchObject({ page: 2, pageSize: 1, totalCount: all.totalCount });
      expect(second.items[0].id).toBe(all.items[1].id);
      const [a, b] = [all.items[0].id, all.items[2].id];
      for (const query of [`exportIds=${a}&exportIds=${b}`, `exportIds=${a},${b}`]) {
        const picked = (await call('GET', `/api/v1/exports?${query}`)).json();
        expect(picked.items.map((i: { id: string }) => i.id).sort()).toEqual([a, b].sort());
      }
      expect((await call('GET', '/api/v1/exports?pageSize=26')).statusCode).toBe(400);
      expect((await call('GET', '/api/v1/exports', undefined, otherKey)).json().totalCount).toBe(0);
    });
  });

  describe('GET /exports/{id}/raw and the signed link', () => {
    it('answers 202 with a polling interval while pending, then 302 to a key-less link serving the file', async () => {
      await worker().stop();
      const id = (await call('POST', '/api/v1/exports', request())).json().id;
      const pending = await call('GET', `/api/v1/exports/${id}/raw`);
      expect(pending.statusCode).toBe(202);
      expect(pending.headers['retry-after']).toBe('5');
      expect(pending.json()).toMatchObject({ exportId: id, status: 'PENDING', retryAfterSeconds: 5 });
      expect(pending.json().message).toMatch(/poll again in 5 seconds/);
      await worker().start();
      await worker().idle();
      const file = await download(id);
      expect(file.statusCode).toBe(200);
      expect(file.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(file.headers['content-disposition']).toBe(`attachment; filename="${orders}-${id}.csv"`);
      const rows = parseCsv(file.body, { columns: true }) as Record<string, string>[];
      // No orderByColumn: the rows come in the table's order, which a rebuild may change.
      expect(rows.map((r) => r.sku).sort()).toEqual(['CUP', 'MUG', 'MUG, "XL"']);
    });

    it('answers 403 for a tampered or expired signature', async () => {
      const id = await completed(request());
      const raw = await call('GET', `/api/v1/exports/${id}/raw`);
      const location = new URL(raw.headers.location as string);
      const signature = location.searchParams.get('signature')!;
      const tampered = `${location.pathname}?expires=${location.searchParams.get('expires')}&signature=${signature.replace(/^./, (c) => (c === '0' ? '1' : '0'))}`;
      expect((await call('GET', tampered, undefined, null)).statusCode).toBe(403);
      const longer = `${location.pathname}?expires=${Number(location.searchParams.get('expires')) + 3600}&signature=${signature}`;
      expect((await call('GET', longer, undefined, null)).json()).toMatchObject({
        statusCode: 403,
        code: 'ERR_EXPORT_SIGNATURE_INVALID',
      });
      clock += 16 * 60_000; // past the 15-minute link
      expect((await call('GET', `${location.pathname}${location.search}`, undefined, null)).statusCode).toBe(403);
    });

    it('answers 410 after the retention period, and the sweep deletes the file', async () => {
      const id = await completed(request());
      clock += 24 * hour + 1;
      const raw = await call('GET', `/api/v1/exports/${id}/raw`);
      expect(raw.statusCode).toBe(410);
      expect(raw.json()).toMatchObject({ code: 'ERR_EXPORT_FILE_GONE', exportId: id, status: 'COMPLETED' });
      expect(existsSync(join(home.exports, `${id}.csv`))).toBe(true);
      await worker().sweep();
      expect(existsSync(join(home.exports, `${id}.csv`))).toBe(false);
    });

    it('answers 422 with the reason for an export that failed', async () => {
      await worker().stop();
      await addConnection(wh, {
        organizationId: org,
        id: '00000000-0000-4000-8000-00000000a009',
        name: 'Gone soon',
        marketplaceId: US.marketplaceId,
      });
      const id = (
        await call('POST', '/api/v1/exports', request({ sellerOrVendorIds: ['00000000-0000-4000-8000-00000000a009'] }))
      ).json().id;
      await wh.db.deleteFrom('control.connections').where('id', '=', '00000000-0000-4000-8000-00000000a009').execute();
      await worker().start();
      await worker().idle();
      const raw = await call('GET', `/api/v1/exports/${id}/raw`);
      expect(raw.statusCode).toBe(422);
      expect(raw.json()).toMatchObject({ exportId: id, status: 'ERROR', code: 'ERR_EXPORT_FAILED' });
      expect(raw.json().message).toContain('connection 00000000-0000-4000-8000-00000000a009 not found');
    });

    it("answers 404 for another organization's export on get, raw and delete", async () => {
      const id = await completed(request());
      for (const [method, url] of [
        ['GET', `/api/v1/exports/${id}`],
        ['GET', `/api/v1/exports/${id}/raw`],
        ['DELETE', `/api/v1/exports/${id}`],
      ] as const) {
        const res = await call(method, url, undefined, otherKey);
        expect(res.statusCode, `${method} ${url}`).toBe(404);
        expect(res.json().code).toBe('ERR_EXPORT_NOT_FOUND');
      }
      expect((await call('GET', '/api/v1/exports/nope/raw')).statusCode).toBe(404);
    });

    it('deletes an export and its file with 204', async () => {
      const id = await completed(request());
      expect(existsSync(join(home.exports, `${id}.csv`))).toBe(true);
      expect((await call('DELETE', `/api/v1/exports/${id}`)).statusCode).toBe(204);
      expect(existsSync(join(home.exports, `${id}.csv`))).toBe(false);
      expect((await call('GET', `/api/v1/exports/${id}`)).statusCode).toBe(404);
    });
  });

  describe('GET /exports/sources', () => {
    it('lists the built sources available to every selected connection with their enabled flag', async () => {
      const res = await call('GET', `/api/v1/exports/sources?sellerOrVendorIds=${US.id}&sellerOrVendorIds=${DE.id}`);
      expect(res.statusCode, res.body).toBe(200);
      const tables = res.json().sources.map((s: { tableName: string }) => s.tableName);
      expect(tables).toContain(orders);
      // a SELLER_CENTRAL table, listed even before its data lands
      expect(tables).toContain('mkt_awd_inbound_shipments');
      expect(res.json().sources.every((s: { enabled: boolean }) => s.enabled)).toBe(true);
      expect(res.json()).not.toHaveProperty('historicalDataStillLoadingNotice');
      const disabled = await call('GET', `/api/v1/exports/sources?sellerOrVendorIds=${US.id}&enabled=false`);
      expect(disabled.json().sources).toEqual([]);
      // a search alias
      const filtered = await call('GET', `/api/v1/exports/sources?sellerOrVendorIds=${US.id}&query=units%20sold`);
      expect(filtered.json().sources.map((s: { tableName: string }) => s.tableName)).toEqual([orders]);
    });

    it('answers 400 while a connection is in the first stage of its initial load, 404 for a foreign one, 400 without ids', async () => {
      await addConnection(wh, {
        organizationId: org,
        id: '00000000-0000-4000-8000-00000000a004',
        name: 'New shop',
        marketplaceId: US.marketplaceId,
      });
      const loading = await call(
        'GET',
        `/api/v1/exports/sources?sellerOrVendorIds=${US.id},00000000-0000-4000-8000-00000000a004`,
      );
      expect(loading.statusCode).toBe(400);
      expect(loading.json().code).toBe('ERR_INITIAL_LOAD_IN_PROGRESS');
      expect(
        (await call('GET', '/api/v1/exports/sources?sellerOrVendorIds=00000000-0000-4000-8000-00000000b001'))
          .statusCode,
      ).toBe(404);
      expect((await call('GET', '/api/v1/exports/sources')).statusCode).toBe(400);
    });
  });

  describe('export schedules', () => {
    const schedule = (extra: Record<string, unknown> = {}) => ({
      name: 'Daily orders',
      cron: '0 6 * * *',
      timezone: 'America/Los_Angeles',
      sellerOrVendorIds: [US.id],
      tableName: orders,
      relativePeriod: { lastDays: 7 },
      ...extra,
    });

    it('creates (201), reads, lists with the active filter, replaces and deletes (204) a schedule', async () => {
      const created = await call('POST', '/api/v1/exports/schedules', schedule());
      expect(created.statusCode, created.body).toBe(201);
      const id = created.json().id;
      expect(created.json()).toMatchObject({
        scheduleId: id,
        name: 'Daily orders',
        active: true,
        tableName: orders,
        relativePeriod: { lastDays: 7 },
        integrations: [],
        lastExportId: null,
      });
      // 06:00 in Los Angeles (UTC-8 in November) is 14:00 UTC
      expect(created.json().nextRunAt).toMatch(/T14:00:00\.000Z$/);
      expect((await call('GET', `/api/v1/exports/schedules/${id}`)).json().id).toBe(id);
      const replaced = await call(
        'PUT',
        `/api/v1/exports/schedules/${id}`,
        schedule({ name: 'Paused', active: false }),
      );
      expect(replaced.json()).toMatchObject({ id, name: 'Paused', active: false, nextRunAt: null });
      expect(
        (await call('GET', '/api/v1/exports/schedules?active=false')).json().items.map((s: { id: string }) => s.id),
      ).toContain(id);
      expect(
        (await call('GET', '/api/v1/exports/schedules?active=true')).json().items.map((s: { id: string }) => s.id),
      ).not.toContain(id);
      expect((await call('GET', `/api/v1/exports/schedules/${id}`, undefined, otherKey)).statusCode).toBe(404);
      expect((await call('DELETE', `/api/v1/exports/schedules/${id}`)).statusCode).toBe(204);
      expect((await call('GET', `/api/v1/exports/schedules/${id}`)).statusCode).toBe(404);
    });

    it('refuses a bad cron, an unknown timezone, and a missing relative period on a dated table with 400', async () => {
      for (const bad of [
        schedule({ cron: 'every day' }),
        schedule({ timezone: 'Mars/Olympus' }),
        schedule({ relativePeriod: undefined }),
      ]) {
        const res = await call('POST', '/api/v1/exports/schedules', bad);
        expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      }
    });

    it('runs an export for the relative period, notifies its webhooks, and redirects latest to the newest file', async () => {
      const received: unknown[] = [];
      const hook = createServer((req, res) => {
        let body = '';
        req.on('data', (c) => (body += c));
        req.on('end', () => {
          received.push(JSON.parse(body));
          res.end();
        });
      });
      await new Promise<void>((done) => hook.listen(0, '127.0.0.1', done));
      try {
        const url = `http://127.0.0.1:${(hook.address() as { port: number }).port}/hook`;
        const created = (
          await call(
            'POST',
            '/api/v1/exports/schedules',
            schedule({ relativePeriod: { type: 'PREVIOUS_MONTH' }, integrations: [url] }),
          )
        ).json();
        expect((await call('GET', `/api/v1/exports/schedules/${created.id}/latest`)).statusCode).toBe(404);
        const run = await app.exportServices.schedules.fire(created.id);
        await worker().idle();
        await app.exportServices.deliverer.deliverDue(); // the outcome goes out through the webhook outbox
        // The clock is in late November 2026 in Los Angeles: the previous month is October.
        expect(JSON.parse(run!.request)).toMatchObject({ from: '2026-10-01', to: '2026-10-31' });
        expect(received).toEqual([
          expect.objectContaining({ scheduleId: created.id, exportId: run!.id, status: 'COMPLETED', rowCount: 0 }),
        ]);
        const latest = await call('GET', `/api/v1/exports/schedules/${created.id}/latest`);
        expect(latest.statusCode).toBe(302);
        expect(latest.headers.location).toContain(`/api/v1/exports/${run!.id}/download?`);
        const usage = await wh.db
          .selectFrom('control.usage_records')
          .select('specific_usage_type')
          .where('resource_id', '=', run!.id)
          .execute();
        expect(usage).toEqual([{ specific_usage_type: 'EXPORTS_RECURRING_STANDARD' }]);
      } finally {
        hook.close();
      }
    });

    it('refuses webhook URLs aimed at private addresses with 400 naming the integration, and does not deliver to one stored', async () => {
      const refused = [
        'http://10.0.0.7/hook',
        'http://169.254.169.254/latest/meta-data/',
        'http://[::1]:8080/',
        'http://127.0.0.2/hook',
      ];
      for (const url of refused) {
        const res = await call(
          'POST',
          '/api/v1/exports/schedules',
          schedule({ integrations: ['https://hooks.example.invalid/ok', url] }),
        );
        expect(res.statusCode, url).toBe(400);
        expect(res.json().message, url).toMatch(/^integrations\[1\]: .*is not a public address/);
      }
      const created = (await call('POST', '/api/v1/exports/schedules', schedule())).json();
      const replaced = await call(
        'PUT',
        `/api/v1/exports/schedules/${created.id}`,
        schedule({ integrations: [{ url: 'http://192.168.0.1/' }] }),
      );
      expect(replaced.statusCode).toBe(400);
      expect(replaced.json().message).toMatch(
        /^integrations\[0\]: http:\/\/192\.168\.0\.1\/: 192\.168\.0\.1 is not a public address \(private\)/,
      );

      // A URL stored before its address was refused (or whose name now resolves elsewhere) is checked again at
      // delivery:
      // a receiver on 127.0.0.2, outside the allowed 127.0.0.1, gets nothing.
      const received: string[] = [];
      const hook = createServer((req, res) => req.resume().on('end', () => res.end(received.push(req.url!) && '')));
      await new Promise<void>((done) => hook.listen(0, '127.0.0.2', done));
      try {
        const url = `http://127.0.0.2:${(hook.address() as { port: number }).port}/hook`;
        await wh.db
          .updateTable('control.export_schedules')
          .set({ integrations: JSON.stringify([{ id: 'stored', url }]) })
          .where('id', '=', created.id)
          .execute();
        await app.exportServices.schedules.fire(created.id);
        await worker().idle();
        await app.exportServices.deliverer.deliverDue();
        expect(received).toEqual([]);
        // The refused attempt is recorded and retried later (the name may resolve elsewhere by then), never sent.
        const [delivery] = await wh.db
          .selectFrom('control.webhook_deliveries')
          .select(['status', 'attempts', 'last_error'])
          .where('url', '=', url)
          .execute();
        expect(delivery).toMatchObject({
          status: 'PENDING',
          attempts: 1,
          last_error: expect.stringMatching(/127\.0\.0\.2 is not a public address/),
        });
      } finally {
        hook.close();
      }
      await call('DELETE', `/api/v1/exports/schedules/${created.id}`);
    });
  });

  it('writes byte-identical files through mktdata export and the HTTP export for the same request', async () => {
    for (const outputType of ['CSV', 'JSON', 'PARQUET']) {
      const body = request({
        sellerOrVendorIds: [US.id, DE.id],
        outputType,
        columns: ['date', 'sku', 'quantity', 'item_price_value'],
        orderByColumn: 'sku',
      });
      const http = (await download(await completed(body))).rawPayload;
      const requestFile = join(dir, `request-${outputType}.json`);
      writeFileSync(requestFile, JSON.stringify(body));
      const out = join(dir, `cli.${outputType.toLowerCase()}`);
      expect(await exportToFile(home, { request: requestFile, out })).toBe(4);
      expect(readFileSync(out).equals(http), outputType).toBe(true);
    }
  });

  it('resumes exports left PENDING or IN_PROGRESS by a stopped server, each once', async () => {
    await worker().stop();
    const ids = [
      (await call('POST', '/api/v1/exports', request())).json().id,
      (await call('POST', '/api/v1/exports', request())).json().id,
    ];
    // The first was being written when the process died: IN_PROGRESS with a partial file left behind.
    await wh.db.updateTable('control.exports').set({ status: 'IN_PROGRESS' }).where('id', '=', ids[0]).execute();
    writeFileSync(join(home.exports, `.${ids[0]}.csv.partial`), 'half a fi');
    await app.close();
    // The webhook receivers below listen on 127.0.0.1: the operator's allow-list lets that one address in.
    app = await buildApp({
      wh,
      home,
      logger: false,
      now: () => clock,
      webhookAllowedNetworks: allowedNetworks('127.0.0.1'),
    });
    await app.ready();
    await worker().idle();
    const rows = await wh.db
      .selectFrom('control.exports')
      .select(['id', 'status', 'row_count'])
      .where('id', 'in', ids)
      .execute();
    expect(rows.map((r) => [r.status, Number(r.row_count)])).toEqual([
      ['COMPLETED', 3],
      ['COMPLETED', 3],
    ]);
    expect(readdirSync(home.exports).filter((f) => f.endsWith('.partial'))).toEqual([]);
    const usage = await wh.db
      .selectFrom('control.usage_records')
      .select('resource_id')
      .where('resource_id', 'in', ids)
      .execute();
    expect(usage).toHaveLength(2);
  });
});
