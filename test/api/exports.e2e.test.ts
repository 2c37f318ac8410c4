import { describe, expect, it } from 'vitest';
import { parse as parseCsv } from 'csv-parse/sync';
import { createApiKey } from '../../src/control/organizations.ts';
import { runModels } from '../../src/models/run-models.ts';
import { publish } from '../../src/publish/publish.ts';
import { land, makeHome, US, writeOrders } from '../helpers/home.ts';
import { startServe } from '../helpers/serve.ts';

describe('exports over HTTP (end to end, as a client uses them)', () => {
  it('lists sellers, finds the source, creates an export, polls, follows the key-less redirect and parses the rows', async () => {
    const { home, wh, dir } = await makeHome();
    const org = (await wh.db.selectFrom('control.organizations').select('id').executeTakeFirstOrThrow()).id;
    const key = await createApiKey(wh, org);
    const line = (id: string, date: string, sku: string, quantity: string) => ({
      'amazon-order-id': id,
      'purchase-date': date,
      'order-status': 'Shipped',
      sku,
      quantity,
      currency: 'USD',
      'item-price': '10.00',
    });
    await land(
      wh,
      'GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL',
      US,
      writeOrders(dir, 'us.tsv', [
        line('111-1', '2026-03-01T20:00:00+00:00', 'MUG', '1'),
        line('111-2', '2026-03-02T20:00:00+00:00', 'CUP', '2'),
        line('111-3', '2026-03-03T20:00:00+00:00', 'PLATE', '5'),
        line('111-4', '2026-04-01T20:00:00+00:00', 'MUG', '7'), // outside the period
      ]),
    );
    await runModels(wh, { select: ['marts.mkt_order_items_with_cogs'] });
    await publish(wh);
    await wh.close();

    const server = await startServe(home.root, ['--requests-per-second', '20']);
    const base = server.base;
    try {
      const headers = { 'service-api-key': key, 'content-type': 'application/json' };
      const json = async (path: string, init: RequestInit = {}) => {
        const res = await fetch(`${base}${path}`, { ...init, headers });
        return { status: res.status, body: await res.json() };
      };

      const sellers = await json('/util/sellers-and-vendors');
      const us = sellers.body.items.find((s: { marketplaceCountryCode: string }) => s.marketplaceCountryCode === 'US');
      const sources = await json(`/exports/sources?sellerOrVendorIds=${us.sellerOrVendorId}`);
      expect(sources.status).toBe(200);
      const source = sources.body.sources.find(
        (s: { tableName: string }) => s.tableName === 'mkt_order_items_with_cogs',
      );
      expect(source.requiresDatePeriod).toBe(true);

      const created = await json('/exports', {
        method: 'POST',
        body: JSON.stringify({
          sellerOrVendorIds: [us.sellerOrVendorId],
          sourceId: source.id,
          // Los Angeles dates 2026-03-01..2026-03-31
          from: '2026-03-01T08:00:00.000Z',
          to: '2026-04-01T06:59:59.000Z',
          columns: ['date', 'mkt_order_id', 'sku', 'quantity'],
          filters: {
            combinator: 'or',
            rules: [
              { field: 'sku', operator: '=', value: 'MUG' },
              { field: 'quantity', operator: '>', value: 4 },
            ],
          },
          orderByColumn: 'date',
        }),
      });
      expect(created.status).toBe(202);

      let raw: Response;
      for (const started = Date.now(); ;) {
        raw = await fetch(`${base}/exports/${created.body.id}/raw`, { headers, redirect: 'manual' });
        if (raw.status !== 202) break;
        if (Date.now() - started > 150_000)
          throw new Error(`the export is still running after 150 s; serve printed:\n${server.output()}`);
        expect(Number(raw.headers.get('retry-after'))).toBeGreaterThan(0);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(raw.status).toBe(302);
      const file = await fetch(raw.headers.get('location')!); // no key
      expect(file.status).toBe(200);
      const rows = parseCsv(await file.text(), { columns: true }) as Record<string, string>[];
      expect(rows.map((r) => [r.seller_or_vendor_id, r.date, r.mkt_order_id, r.sku, r.quantity])).toEqual([
        [US.id, '2026-03-01', '111-1', 'MUG', '1'],
        [US.id, '2026-03-03', '111-3', 'PLATE', '5'],
      ]);
    } finally {
      await server.stop();
    }
  });
});
