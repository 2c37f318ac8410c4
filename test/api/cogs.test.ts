// POST and DELETE /api/v1/cogs, GET /api/v1/usage-logs (spec 000 "Unit costs, vendor codes, SQP ASINs, usage";
// docs/design/API.md "Tokens and usage", "Unit costs"), in process; and the rebuild a change schedules, through the
// profit pipeline.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/api/app.ts';
import { addConnection } from '../../src/control/connections/connections.ts';
import { createApiKey, createOrganization } from '../../src/control/organizations.ts';
import type { Warehouse } from '../../src/db/warehouse.ts';
import { loadPipelines } from '../../src/pipelines/pipeline-config.ts';
import { planRun, runPipeline } from '../../src/pipelines/run-pipeline.ts';
import { makeHome, rows, US } from '../helpers/home.ts';
import { landCogs, landOrders, orderLine, skuProfit } from '../helpers/profit.ts';

const VENDOR = '00000000-0000-4000-8000-00000000a0f1';
const OTHER = '00000000-0000-4000-8000-00000000b0c1';
const row = (over: Record<string, unknown> = {}) => ({
  asin: 'B000000001',
  sku: 'SKU-A',
  costCurrency: 'usd',
  fromDate: '2026-03-05',
  costItemValue: 6,
  costItemShippingValue: '0.50',
  ...over,
});

describe('unit costs and usage over HTTP', () => {
  let wh: Warehouse;
  let app: App;
  let key: string;
  let otherKey: string;
  let brokeKey: string;
  let org: string;
  const clock = Date.parse('2026-11-20T18:00:00Z');

  beforeAll(async () => {
    const made = await makeHome();
    ({ wh } = made);
    org = (await wh.db.selectFrom('control.organizations').select('id').executeTakeFirstOrThrow()).id;
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
    await addConnection(wh, { organizationId: other, id: OTHER, name: 'Other US', marketplaceId: US.marketplaceId });
    const broke = await createOrganization(wh, { name: 'Broke org', tokens: 0 });
    brokeKey = await createApiKey(wh, broke);
    await addConnection(wh, {
      organizationId: broke,
      id: '00000000-0000-4000-8000-00000000c0c1',
      name: 'Broke US',
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
  const costs = () =>
    rows(
      wh,
      `select asin, sku, cost_currency, from_date::varchar as from_date, cost_item_value, cost_item_shipping_value, item_supplier_name
    from control.cogs where connection_id = $c order by all`,
      { c: US.id },
    );
  const balance = async (id = org) =>
    Number(
      (
        await wh.db
          .selectFrom('control.organizations')
          .select('token_balance')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).token_balance,
    );

  describe('POST /cogs', () => {
    it('upserts on (asin, sku, costCurrency, fromDate), the last of a key winning, for 1 token and one usage record', async () => {
      const before = await balance();
      const res = await call('POST', '/api/v1/cogs', {
        sellerOrVendorId: US.id,
        cogsToUpsert: [
          row({ costItemValue: 99 }), // replaced by the fourth row: same key
          row({
            fromDate: '2026-03-01',
            sku: ' SKU-B ',
            asin: 'B000000002',
            costItemValue: '2',
            costItemShippingValue: 0.25,
            itemSupplierName: 'Acme',
          }),
          row({ costCurrency: 'EUR', costItemValue: '5.1234', costItemShippingValue: '0' }),
          row(),
        ],
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ sellerOrVendorId: US.id, upsertedCount: 3, rebuild: { from: '2026-03-01' } });
      // Every table the cogs source feeds: the profit ones from the earliest fromDate, the listing snapshots whole.
      expect(res.json().rebuild.windows).toEqual(
        expect.arrayContaining([
          { pipeline: 'profit', table: 'mkt_profit_by_sku_and_date', from: '2026-03-01' },
          { pipeline: 'profit', table: 'mkt_order_items_with_cogs', from: '2026-03-01' },
          { pipeline: 'listings', table: 'mkt_cogs', from: null },
        ]),
      );
      expect(await costs()).toEqual([
        {
          asin: 'B000000001',
          sku: 'SKU-A',
          cost_currency: 'EUR',
          from_date: '2026-03-05',
          cost_item_value: '5.1234',
          cost_item_shipping_value: '0.0000',
          item_supplier_name: null,
        },
        {
          asin: 'B000000001',
          sku: 'SKU-A',
          cost_currency: 'USD',
          from_date: '2026-03-05',
          cost_item_value: '6.0000',
          cost_item_shipping_value: '0.5000',
          item_supplier_name: null,
        },
        {
          asin: 'B000000002',
          sku: 'SKU-B',
          cost_currency: 'USD',
          from_date: '2026-03-01',
          cost_item_value: '2.0000',
          cost_item_shipping_value: '0.2500',
          item_supplier_name: 'Acme',
        },
      ]);
      expect(await balance()).toBe(before - 1);
      const again = await call('POST', '/api/v1/cogs', {
        sellerOrVendorId: US.id,
        cogsToUpsert: [row({ costItemValue: '6.25' })],
      });
      expect(again.json()).toMatchObject({ upsertedCount: 1, rebuild: { from: '2026-03-05' } });
      expect((await costs()).find((c) => c.cost_currency === 'USD' && c.sku === 'SKU-A')).toMatchObject({
        cost_item_value: '6.2500',
      });
      expect(await balance()).toBe(before - 2);
      const usage = await call('GET', `/api/v1/usage-logs?usageTypes=COGS`);
      // (Both at the test's fixed clock: newest-first cannot order them.)
      expect(usage.json().items).toHaveLength(2);
      expect(usage.json().items).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            usageType: 'COGS',
            usagePool: 'PLAN',
            specificUsageType: 'COGS_API_STANDARD',
            tokens: 1,
            resourceId: again.json().changeId,
            usedAt: '2026-11-20T18:00:00.000Z',
          }),
          expect.objectContaining({ usageType: 'COGS', tokens: 1, resourceId: res.json().changeId }),
        ]),
      );
    });

    it('refuses malformed rows with 400 naming the field, and writes nothing', async () => {
      const before = await costs();
      const bad: [unknown, string][] = [
        [{ sellerOrVendorId: US.id, cogsToUpsert: [row({ costCurrency: 'US' })] }, 'cogsToUpsert.0.costCurrency'],
        [{ sellerOrVendorId: US.id, cogsToUpsert: [row({ costItemValue: -1 })] }, 'cogsToUpsert.0.costItemValue'],
        [
          { sellerOrVendorId: US.id, cogsToUpsert: [row(), row({ costItemShippingValue: '1.23456' })] },
          'cogsToUpsert.1.costItemShippingValue',
        ],
        [{ sellerOrVendorId: US.id, cogsToUpsert: [row({ fromDate: '2026-02-30' })] }, 'cogsToUpsert.0.fromDate'],
        [{ sellerOrVendorId: US.id, cogsToUpsert: [row({ asin: '  ' })] }, 'cogsToUpsert.0.asin'],
        [
          { sellerOrVendorId: US.id, cogsToUpsert: [row({ itemSupplierName: 'x'.repeat(129) })] },
          'cogsToUpsert.0.itemSupplierName',
        ],
        [{ sellerOrVendorId: US.id, cogsToUpsert: [row({ costPerUnit: 1 })] }, 'cogsToUpsert.0'],
        [{ sellerOrVendorId: US.id, cogsToUpsert: [] }, 'cogsToUpsert'],
        [{ sellerOrVendorId: US.id, cogsToUpsert: Array.from({ length: 1001 }, () => row()) }, 'cogsToUpsert'],
        [{ cogsToUpsert: [row()] }, 'sellerOrVendorId'],
      ];
      for (const [body, field] of bad) {
        const res = await call('POST', '/api/v1/cogs', body);
        expect(res.statusCode, field).toBe(400);
        expect(JSON.stringify(res.json().issues ?? res.json().message), field).toContain(field.split('.').at(-1));
      }
      const vendor = await call('POST', '/api/v1/cogs', { sellerOrVendorId: VENDOR, cogsToUpsert: [row()] });
      expect(vendor.statusCode).toBe(400);
      expect(vendor.json()).toMatchObject({
        code: 'ERR_CONNECTION_TYPE',
        message: `seller or vendor ${VENDOR} is a VENDOR_CENTRAL connection; unit costs are kept for SELLER_CENTRAL connections only`,
      });
      expect(await costs()).toEqual(before);
    });

    it("answers 404 for another organization's connection, 402 without tokens, 401 without a key", async () => {
      const foreign = await call('POST', '/api/v1/cogs', { sellerOrVendorId: OTHER, cogsToUpsert: [row()] });
      expect(foreign.statusCode).toBe(404);
      expect(foreign.body).not.toContain('Other');
      const broke = await call(
        'POST',
        '/api/v1/cogs',
        { sellerOrVendorId: '00000000-0000-4000-8000-00000000c0c1', cogsToUpsert: [row()] },
        brokeKey,
      );
      expect(broke.statusCode).toBe(402);
      expect(broke.json().code).toBe('ERR_NO_TOKENS');
      expect(
        await rows(
          wh,
          `select count(*) as n from control.cogs where connection_id = '00000000-0000-4000-8000-00000000c0c1'`,
        ),
      ).toEqual([{ n: '0' }]);
      expect((await call('GET', '/api/v1/usage-logs', undefined, brokeKey)).json().totalCount).toBe(0);
      expect(
        (
          await app.inject({
            method: 'POST',
            url: '/api/v1/cogs',
            payload: { sellerOrVendorId: US.id, cogsToUpsert: [row()] },
          })
        ).statusCode,
      ).toBe(401);
    });
  });

  describe('DELETE /cogs', () => {
    it('removes only the rows matching every filter (204), and answers 404 and 400 as the others', async () => {
      await call('POST', '/api/v1/cogs', {
        sellerOrVendorId: US.id,
        cogsToUpsert: [row({ fromDate: '2026-01-01' }), row({ fromDate: '2026-06-01' })],
      });
      const removed = await call(
        'DELETE',
        `/api/v1/cogs?sellerOrVendorId=${US.id}&sku=SKU-A&from=2026-03-02&to=2026-05-31`,
      );
      expect(removed.statusCode).toBe(204);
      // The 2026-03-05 SKU-A rows (USD and EUR) are gone; 2026-01-01 and 2026-06-01 (outside from..to) and SKU-B stay.
      expect((await costs()).map((c) => `${c.sku} ${c.cost_currency} ${c.from_date}`)).toEqual([
        'SKU-A USD 2026-01-01',
        'SKU-A USD 2026-06-01',
        'SKU-B USD 2026-03-01',
      ]);
      expect((await call('DELETE', `/api/v1/cogs?sellerOrVendorId=${OTHER}`)).statusCode).toBe(404);
      expect(
        (await call('DELETE', `/api/v1/cogs?sellerOrVendorId=${US.id}&from=2026-05-01&to=2026-04-01`)).statusCode,
      ).toBe(400);
      expect((await call('DELETE', '/api/v1/cogs')).statusCode).toBe(400);
      expect((await call('DELETE', `/api/v1/cogs?sellerOrVendorId=${US.id}&from=yesterday`)).statusCode).toBe(400);
      expect(await rows(wh, `select count(*) as n from control.cogs where connection_id = $c`, { c: OTHER })).toEqual([
        { n: '0' },
      ]);
    });
  });

  describe('GET /usage-logs', () => {
    it("filters by type, pool, specific type and time, pages, and shows only the caller's records", async () => {
      const all = (await call('GET', '/api/v1/usage-logs')).json();
      expect(all).toMatchObject({ page: 1, pageSize: 100, totalCount: 3 });
      const second = (await call('GET', '/api/v1/usage-logs?pageSize=1&page=2')).json();
      expect(second).toMatchObject({ page: 2, pageSize: 1, totalCount: 3, items: [all.items[1]] });
      expect(
        (await call('GET', '/api/v1/usage-logs?usageTypes=EXPORTS&usageTypes=VENDOR_CODE')).json().totalCount,
      ).toBe(0);
      expect(
        (await call('GET', '/api/v1/usage-logs?usagePools=PLAN&specificUsageTypes=COGS_API_STANDARD')).json()
          .totalCount,
      ).toBe(3);
      expect(
        (await call('GET', '/api/v1/usage-logs?usedAtFrom=2026-11-20T18:00:00Z&usedAtTo=2026-11-20T18:00:00Z')).json()
          .totalCount,
      ).toBe(3);
      expect((await call('GET', '/api/v1/usage-logs?usedAtFrom=2026-11-20T18:00:01Z')).json().totalCount).toBe(0);
      for (const bad of [
        'pageSize=101',
        'page=0',
        'usageTypes=MAGIC',
        'usedAtFrom=2026-11-20',
        'usagePools=free',
        'limit=5',
      ]) {
        expect((await call('GET', `/api/v1/usage-logs?${bad}`)).statusCode, bad).toBe(400);
      }
      expect((await call('GET', '/api/v1/usage-logs', undefined, otherKey)).json()).toMatchObject({
        items: [],
        totalCount: 0,
      });
    });
  });

  describe('the rebuild a change schedules', () => {
    it('changes the profit of the dates from the upserted fromDate on, at the next run, and leaves earlier dates alone', async () => {
      // A second home: US orders of SKU-C on 2026-03-04 (2 units) and 2026-03-06 (3 units), costed 4.00 + 1.00 from
      // 2026-01-01 by an imported file; built by a first run of the profit pipeline.
      const made = await makeHome();
      const home2 = made.wh;
      try {
        const apiOrg = (await home2.db.selectFrom('control.organizations').select('id').executeTakeFirstOrThrow()).id;
        const key2 = await createApiKey(home2, apiOrg);
        const at = (time: string) => ({ 'purchase-date': time, 'last-updated-date': time });
        await landOrders(home2, made.dir, US, [
          orderLine({
            'amazon-order-id': 'R-1',
            ...at('2026-03-04T20:00:00+00:00'),
            sku: 'SKU-C',
            asin: 'B000000003',
            quantity: '2',
            'item-price': '20.00',
          }),
          orderLine({
            'amazon-order-id': 'R-2',
            ...at('2026-03-06T20:00:00+00:00'),
            sku: 'SKU-C',
            asin: 'B000000003',
            quantity: '3',
            'item-price': '30.00',
          }),
        ]);
        await landCogs(home2, made.dir, US, ['B000000003,SKU-C,USD,2026-01-01,4.00,1.00,']);
        const profit = loadPipelines().find((p) => p.name === 'profit')!;
        const now = new Date('2026-11-20T18:00:00Z');
        expect((await runPipeline(home2, profit, { now })).status).toBe('success');
        const cogsOf = async () =>
          (await skuProfit(home2, US.id, ['cogs_item', 'cogs_shipping', 'cogs_total'])).map((r) => [
            r.date,
            r.cogs_item,
            r.cogs_shipping,
            r.cogs_total,
          ]);
        // 03-04: 2 × 4.00 = 8.00, 2 × 1.00 = 2.00; 03-06: 3 × 4.00 = 12.00, 3 × 1.00 = 3.00.
        expect(await cogsOf()).toEqual([
          ['2026-03-04', '8.0000', '2.0000', '10.0000'],
          ['2026-03-06', '12.0000', '3.0000', '15.0000'],
        ]);

        const app2 = await buildApp({ wh: home2, home: made.home, logger: false, now: () => now.getTime() });
        try {
          const res = await app2.inject({
            method: 'POST',
            url: '/api/v1/cogs',
            headers: { 'service-api-key': key2 },
            payload: {
              sellerOrVendorId: US.id,
              cogsToUpsert: [
                {
                  asin: 'B000000003',
                  sku: 'SKU-C',
                  costCurrency: 'USD',
                  fromDate: '2026-03-05',
                  costItemValue: '6.00',
                  costItemShippingValue: '0.50',
                },
              ],
            },
          });
          expect(res.statusCode, res.body).toBe(200);
        } finally {
          await app2.close();
        }
        // Nothing changes before the run; `mktdata plan` shows the windows from 2026-03-05 on.
        expect(await cogsOf()).toEqual([
          ['2026-03-04', '8.0000', '2.0000', '10.0000'],
          ['2026-03-06', '12.0000', '3.0000', '15.0000'],
        ]);
        const planned = (await planRun(home2, profit, { now })).windows.filter(
          (w) => w.kind === 'LATE_DATA' && w.table === 'mkt_profit_by_sku_and_date',
        );
        expect(planned.map((w) => [w.connectionId, w.from])).toEqual([[US.id, '2026-03-05']]);
        const second = await runPipeline(home2, profit, { now });
        expect(second.status).toBe('success');
        // Only dates from 2026-03-05 on were rebuilt: every LATE_DATA window of the run starts there.
        expect(new Set(second.windows.filter((w) => w.kind === 'LATE_DATA').map((w) => w.from))).toEqual(
          new Set(['2026-03-05']),
        );
        // 03-04 keeps 4.00 + 1.00; 03-06 takes the 2026-03-05 row: 3 × 6.00 = 18.00, 3 × 0.50 = 1.50, total 19.50.
        expect(await cogsOf()).toEqual([
          ['2026-03-04', '8.0000', '2.0000', '10.0000'],
          ['2026-03-06', '18.0000', '1.5000', '19.5000'],
        ]);
      } finally {
        await home2.close();
      }
    });
  });
});
