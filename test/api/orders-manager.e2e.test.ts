// The hosted service's "orders manager" skill, replayed step by step as docs/design/service-clients.md describes it,
// against a real `mktdata serve`: only the base URL and the key header name differ from what it sends the service.
import { describe, expect, it } from 'vitest';
import { addConnection } from '../../src/control/connections/connections.ts';
import { createApiKey } from '../../src/control/organizations.ts';
import { runModels } from '../../src/models/run-models.ts';
import { publish } from '../../src/publish/publish.ts';
import { land, makeHome, US, writeOrders } from '../helpers/home.ts';
import { startServe } from '../helpers/serve.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the orders-manager skill, unchanged', () => {
  it('keeps the sellers with a Seller Central connection, finds "Order Line Items" by keyword, exports with ISO date-times, polls and downloads without the key', async () => {
    const { home, wh, dir } = await makeHome();
    const org = (await wh.db.selectFrom('control.organizations').select('id').executeTakeFirstOrThrow()).id;
    const key = await createApiKey(wh, org);
    // Besides US (orders landed) and DE (nothing landed: UNCONNECTED), an ads-only connection the skill must skip.
    await addConnection(wh, {
      organizationId: org,
      id: '00000000-0000-4000-8000-00000000a0ad',
      name: 'Ads only',
      marketplaceId: US.marketplaceId,
      type: 'MKT_ADS',
    });
    const line = (id: string, date: string, sku: string, quantity: string, price: string) => ({
      'amazon-order-id': id,
      'purchase-date': date,
      'order-status': 'Shipped',
      sku,
      quantity,
      currency: 'USD',
      'item-price': price,
    });
    await land(
      wh,
      'GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL',
      US,
      writeOrders(dir, 'us.tsv', [
        line('111-0000001-0000001', '2026-03-10T20:00:00+00:00', 'MUG', '1', '10.00'),
        line('111-0000001-0000002', '2026-03-12T20:00:00+00:00', 'CUP', '2', '25.50'),
        line('111-0000001-0000003', '2026-04-10T20:00:00+00:00', 'MUG', '3', '30.00'), // after the period
      ]),
    );
    await land(
      wh,
      'GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL',
      { id: '00000000-0000-4000-8000-00000000a0ad', marketplaceId: US.marketplaceId },
      writeOrders(dir, 'ads.tsv', []),
    );
    await runModels(wh, { select: ['marts.mkt_order_items_with_cogs'] });
    await publish(wh);
    await wh.close();

    const server = await startServe(home.root, []);
    const base = server.base;
    // The skill paces itself to one request per 600 ms and sends its key in the service's header.
    let last = 0;
    const request = async (path: string, init: { method?: string; body?: unknown } = {}) => {
      await sleep(Math.max(0, last + 600 - Date.now()));
      last = Date.now();
      const res = await fetch(`${base}${path}`, {
        method: init.method ?? 'GET',
        headers: { 'service-api-key': key, ...(init.body ? { 'content-type': 'application/json' } : {}) },
        body: init.body ? JSON.stringify(init.body) : undefined,
        redirect: 'manual',
      });
      return res;
    };
    try {
      // 1. Sellers: the accounts whose sellerCentralConnection is not null, read through `id`.
      const sellers = await (await request('/util/sellers-and-vendors')).json();
      const accounts = sellers.items.filter(
        (s: { sellerCentralConnection: unknown }) => s.sellerCentralConnection !== null,
      );
      expect(accounts.map((s: { id: string; accountType: string }) => [s.id, s.accountType])).toEqual([
        [US.id, 'SELLER'],
      ]);
      expect(sellers.items.find((s: { name: string }) => s.name === 'Ads only')).toMatchObject({
        accountType: 'ADS_ONLY',
        sellerCentralConnection: null,
      });

      // 2. Sources: one keyword, the source picked by its name; `id`, `columns`, `requiresDatePeriod`, `enabled` read.
      const found = await (await request(`/exports/sources?sellerOrVendorIds=${accounts[0].id}&query=orders`)).json();
      const source = found.sources.find((s: { name: string }) => s.name === 'Order Line Items');
      expect(source).toMatchObject({ tableName: 'mkt_order_items_with_cogs', requiresDatePeriod: true, enabled: true });
      expect(source.columns.map((c: { name: string }) => c.name)).toContain('mkt_order_id');

      // 3. The export, as the REST skill sends it: ISO date-times, sendToAllOrganizationMembers false, JSON.
      const created = await request('/exports', {
        method: 'POST',
        body: {
          sellerOrVendorIds: [accounts[0].id],
          sourceId: source.id,
          from: '2026-03-01T00:00:00.000Z',
          to: '2026-03-31T23:59:59.999Z',
          columns: ['mkt_order_id', 'sku', 'quantity'],
          outputType: 'JSON',
          sendToAllOrganizationMembers: false,
        },
      });
      expect(created.status).toBe(202);
      const exported = await created.json();
      expect(exported).toMatchObject({
        status: 'PENDING',
        sourceId: source.id,
        sourceName: 'Order Line Items',
        historicalDataStillLoadingNotice: null,
      });

      // 4. Polling GET /exports/{id} (the skill waits 5 s between polls for at most 2 minutes; paced at 600 ms here).
      let state = exported;
      for (const started = Date.now(); state.status === 'PENDING' || state.status === 'IN_PROGRESS';) {
        if (Date.now() - started > 120_000)
          throw new Error(`still ${state.status} after 2 minutes; serve printed:\n${server.output()}`);
        state = await (await request(`/exports/${exported.id}`)).json();
      }
      // 2 order lines in March: 111-…1 (1 MUG), 111-…2 (2 CUPs); the April one is outside.
      expect(state).toMatchObject({ id: exported.id, status: 'COMPLETED', rowCount: 2 });

      // 5. /raw with the key redirects; the skill follows the link without the key and reads a flat JSON array.
      const raw = await request(`/exports/${exported.id}/raw`);
      expect(raw.status).toBe(302);
      const file = await fetch(raw.headers.get('location')!);
      expect(file.status).toBe(200);
      const rows = (await file.json()) as Record<string, unknown>[];
      expect(rows.map((r) => [r.seller_or_vendor_id, r.mkt_order_id, r.sku, r.quantity])).toEqual([
        [US.id, '111-0000001-0000001', 'MUG', 1],
        [US.id, '111-0000001-0000002', 'CUP', 2],
      ]);
    } finally {
      await server.stop();
    }
  });
});
