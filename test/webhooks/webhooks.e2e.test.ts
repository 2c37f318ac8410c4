// Webhook events end to end (issue: webhook events): subscriptions over the real HTTP API, MKT_ORDER_UPDATE derived
// from landed orders files, delivered to receivers on loopback through the outbox, signatures checked here with an
// independent implementation of Standard Webhooks (HMAC-SHA256 over `id.timestamp.body`, key = base64 after whsec_).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildApp, type App } from '../../src/api/app.ts';
import { addConnection } from '../../src/control/connections/connections.ts';
import { createApiKey, createOrganization } from '../../src/control/organizations.ts';
import { openWarehouse, type Warehouse } from '../../src/db/warehouse.ts';
import type { Home } from '../../src/home.ts';
import { allowedNetworks } from '../../src/webhooks/address.ts';
import { replay } from '../../src/webhooks/subscriptions.ts';
import { fulfilledShipmentsHeader, tsv } from '../helpers/fba-reports.ts';
import { land, makeHome, US, writeOrders, type OrderLine } from '../helpers/home.ts';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A receiver on loopback that records what it gets and answers `status`. While `down`, it resets every connection
 * as it opens: the port stays its own (a closed port could be taken by another process before it comes back).
 */
async function receiver() {
  const received: Received[] = [];
  const state = { status: 200, down: false };
  const server: Server = createServer((req, res) => {
    let body = '';
    req
      .setEncoding('utf8')
      .on('data', (c: string) => (body += c))
      .on('end', () => {
        received.push({ headers: req.headers, body });
        res.statusCode = state.status;
        res.end();
      });
  });
  server.on('connection', (socket) => {
    if (state.down) socket.destroy();
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return {
    received,
    state,
    url,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

/**
 * Standard Webhooks, written out: `v1,` + base64(HMAC-SHA256(base64decode(secret without whsec_), id.timestamp.body)).
 */
function validSignature(secret: string, r: Received): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key)
    .update(`${String(r.headers['webhook-id'])}.${String(r.headers['webhook-timestamp'])}.${r.body}`)
    .digest('base64');
  return String(r.headers['webhook-signature']).split(' ').includes(`v1,${expected}`);
}

const line = (order: string, over: OrderLine = {}): OrderLine => ({
  'amazon-order-id': order,
  'purchase-date': '2026-11-20T10:00:00+00:00',
  'last-updated-date': '2026-11-20T12:00:00+00:00',
  'order-status': 'Pending',
  'fulfillment-channel': 'Amazon',
  sku: `SKU-${order}`,
  asin: 'B000000001',
  quantity: '1',
  currency: 'USD',
  'item-price': '20.00',
  ...over,
});

describe('webhook events', () => {
  let dir: string;
  let home: Home;
  let wh: Warehouse;
  let app: App;
  let base: string;
  let key: string;
  let otherKey: string;
  let clock = Date.now();

  const start = async () => {
    app = await buildApp({
      wh,
      home,
      logger: false,
      now: () => clock,
      requestsPerSecond: 1000,
      webhookAllowedNetworks: allowedNetworks('127.0.0.1'),
      webhookIntervalMs: 3_600_000,
    });
    base = `${await app.listen({ port: 0, host: '127.0.0.1' })}/api/v1`;
  };
  const call = async (method: string, path: string, body?: unknown, apiKey = key) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { 'service-api-key': apiKey, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, json: res.status === 204 ? null : await res.json() };
  };
  // The clock the deliverer runs on: moved on by hand, and never behind the real time landings stamp events with.
  const deliver = () => {
    clock = Math.max(clock, Date.now());
    return app.exportServices.deliverer.deliverDue();
  };

  beforeAll(async () => {
    ({ home, wh, dir } = await makeHome());
    const org = (await wh.db.selectFrom('control.organizations').select('id').executeTakeFirstOrThrow()).id;
    key = await createApiKey(wh, org);
    const other = await createOrganization(wh, { name: 'Other org', tokens: 0 });
    otherKey = await createApiKey(wh, other);
    await addConnection(wh, {
      organizationId: other,
      id: '00000000-0000-4000-8000-00000000b0c1',
      name: 'Other US',
      marketplaceId: US.marketplaceId,
    });
    await start();
  });
  afterAll(async () => {
    await app?.close();
    await wh?.close();
  });

  it('delivers exactly the orders a file creates or changes, signed; the same file again gives nothing; another organization gets nothing', async () => {
    const hook = await receiver();
    const otherHook = await receiver();
    try {
      const refused = await call('POST', '/webhooks', { url: 'http://hooks.example.com/x' });
      expect(refused.status).toBe(400);
      expect(refused.json.message).toMatch(/^url: .*use https/);
      expect((await call('POST', '/webhooks', { url: hook.url, messageTypes: ['MKT_NOPE'] })).status).toBe(400);
      expect((await call('POST', '/webhooks', { url: hook.url, messageTypes: [] })).status).toBe(400); // none is not "the default"
      expect(
        (
          await call('POST', '/webhooks', {
            url: hook.url,
            sellerOrVendorIds: ['00000000-0000-4000-8000-00000000b0c1'],
          })
        ).json.message,
      ).toMatch(/^sellerOrVendorIds: not a connection of this organization/);

      const created = await call('POST', '/webhooks', { url: hook.url, messageTypes: ['MKT_ORDER_UPDATE'] });
      expect(created.status).toBe(201);
      expect(created.json).toMatchObject({
        url: hook.url,
        messageTypes: ['MKT_ORDER_UPDATE'],
        sellerOrVendorIds: null,
        status: 'ACTIVE',
        secret: expect.stringMatching(/^whsec_/),
      });
      const { secret, id } = created.json as { secret: string; id: string };
      // Another organization subscribes to everything of its own: it must never see this organization's orders.
      expect(
        (await call('POST', '/webhooks', { url: otherHook.url, messageTypes: ['MKT_ORDER_UPDATE'] }, otherKey)).status,
      ).toBe(201);
      const listed = await call('GET', '/webhooks');
      expect(listed.json.items).toEqual([expect.objectContaining({ id, url: hook.url })]);
      expect(JSON.stringify(listed.json)).not.toContain(secret);

      // Three new orders: three events (an order the file creates is an update too).
      await land(
        wh,
        'GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL',
        US,
        writeOrders(dir, 'day1.tsv', [line('111-1'), line('111-2'), line('111-3')]),
      );
      await deliver();
      expect(hook.received.map((r) => JSON.parse(r.body).summary.mktOrderId).sort()).toEqual([
        '111-1',
        '111-2',
        '111-3',
      ]);

      // The next report: 111-1 shipped, 111-2 now two units, 111-3 unchanged (only its last-updated-date is newer).
      const later = { 'last-updated-date': '2026-11-21T06:00:00+00:00' };
      const day2 = writeOrders(dir, 'day2.tsv', [
        line('111-1', { ...later, 'order-status': 'Shipped' }),
        line('111-2', { ...later, quantity: '2', 'item-price': '40.00' }),
        line('111-3', later),
      ]);
      await land(wh, 'GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL', US, day2);
      await deliver();
      const second = hook.received.slice(3);
      expect(second).toHaveLength(2);
      for (const r of hook.received) expect(validSignature(secret, r), 'signature').toBe(true);
      const bodies = second
        .map((r) => JSON.parse(r.body))
        .sort((a, b) => (a.summary.mktOrderId < b.summary.mktOrderId ? -1 : 1));
      // Worked out from day2.tsv: the summary of spec document 002 (the US test connection, seller SELLERUS).
      expect(bodies[0]).toEqual({
        messageType: 'MKT_ORDER_UPDATE',
        summary: {
          marketplaceId: 'ATVPDKIKX0DER',
          marketplaceCountryCode: 'US',
          marketplaceCountryName: 'United States',
          sellerOrVendorId: US.id,
          sellerOrVendorName: 'Test US',
          marketplaceSellerId: 'SELLERUS',
          mktOrderId: '111-1',
          orderPurchasedAtUtc: '2026-11-20T10:00:00Z',
          mktOrderStatus: 'Shipped',
          fulfillmentChannel: 'AFN',
          orderItems: [{ sku: 'SKU-111-1', childAsin: 'B000000001', quantity: 1, itemPriceValue: 20 }],
        },
        details: {
          raw: [expect.objectContaining({ amazon_order_id: '111-1', order_status: 'Shipped', sku: 'SKU-111-1' })],
        },
        occurredAt: '2026-11-21T06:00:00Z',
      });
      expect(bodies[1].summary).toMatchObject({
        mktOrderId: '111-2',
        mktOrderStatus: 'Pending',
        orderItems: [{ sku: 'SKU-111-2', quantity: 2, itemPriceValue: 40 }],
      });
      expect(new Set(hook.received.map((r) => r.headers['webhook-id'])).size).toBe(5);

      // The same file again is skipped whole: no event.
      expect((await land(wh, 'GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL', US, day2)).status).toBe('skipped');
      // An older version of 111-1 landing late changes nothing: the latest version stays the same.
      await land(
        wh,
        'GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL',
        US,
        writeOrders(dir, 'late.tsv', [
          line('111-1', { 'order-status': 'Unshipped', 'last-updated-date': '2026-11-20T18:00:00+00:00' }),
        ]),
      );
      await deliver();
      expect(hook.received).toHaveLength(5);
      expect(otherHook.received).toEqual([]);

      const deliveries = await call('GET', `/webhooks/${id}/deliveries?pageSize=2`);
      expect(deliveries.json).toMatchObject({
        page: 1,
        pageSize: 2,
        totalCount: 5,
        items: [
          { status: 'DELIVERED', attempts: 1, lastStatus: 200, messageType: 'MKT_ORDER_UPDATE' },
          { status: 'DELIVERED' },
        ],
      });
      expect((await call('GET', `/webhooks/${id}/deliveries`, undefined, otherKey)).status).toBe(404);
      expect((await call('DELETE', `/webhooks/${id}`)).status).toBe(204);
      expect((await call('GET', '/webhooks')).json.items).toEqual([]);
    } finally {
      await hook.close();
      await otherHook.close();
    }
  });

  it('retries while the receiver is down, across a server restart, delivers each event once, and disables a subscription failing for 24 hours', async () => {
    const back = await receiver();
    const { secret, id } = (await call('POST', '/webhooks', { url: back.url, messageTypes: ['MKT_ORDER_UPDATE'] }))
      .json as { secret: string; id: string };
    back.state.down = true;
    await land(
      wh,
      'GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL',
      US,
      writeOrders(dir, 'day3.tsv', [line('222-1'), line('222-2')]),
    );
    await deliver();
    const pending = await call('GET', `/webhooks/${id}/deliveries`);
    expect(pending.json.items).toEqual([
      expect.objectContaining({ status: 'PENDING', attempts: 1, lastStatus: null }),
      expect.objectContaining({ status: 'PENDING', attempts: 1 }),
    ]);

    // A restart: the outbox is in the warehouse.
    await app.close();
    await wh.close();
    wh = await openWarehouse(home, 'test');
    clock += 10 * 60_000; // past the first backoff (5 s ± 50 %)
    await start();
    back.state.down = false; // the receiver is back on its address
    try {
      await deliver();
      expect(back.received.map((r) => JSON.parse(r.body).summary.mktOrderId).sort()).toEqual(['222-1', '222-2']);
      for (const r of back.received) expect(validSignature(secret, r)).toBe(true);
      clock += 3_600_000;
      await deliver();
      expect(back.received).toHaveLength(2); // answered 2xx: never again

      // The receiver fails from now on: after 24 hours the subscription is disabled with the reason.
      back.state.status = 500;
      const outage = new Date();
      await land(
        wh,
        'GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL',
        US,
        writeOrders(dir, 'day4.tsv', [line('333-1')]),
      );
      for (let hour = 0; hour <= 25; hour++) {
        await deliver();
        clock += 3_600_000;
      }
      const [subscription] = (await call('GET', '/webhooks')).json.items;
      expect(subscription).toMatchObject({
        id,
        status: 'DISABLED',
        disabledReason: expect.stringMatching(/failed for 24 hours; the last attempt: answered 500/),
      });
      const failed = (await call('GET', `/webhooks/${id}/deliveries?pageSize=1`)).json.items[0];
      expect(failed).toMatchObject({ status: 'FAILED', lastStatus: 500 });
      expect(failed.attempts).toBeGreaterThan(5);
      const retried = new Set(back.received.slice(2).map((r) => r.headers['webhook-id']));
      expect(retried.size).toBe(1); // one event, retried

      // `mktdata webhooks replay`: enabled again, and what it missed since the outage comes again with the same id.
      back.state.status = 204;
      const before = back.received.length;
      expect(await replay(wh, id, outage)).toBe(1);
      await deliver();
      expect(back.received.slice(before).map((r) => r.headers['webhook-id'])).toEqual([...retried]);
      expect((await call('GET', '/webhooks')).json.items[0]).toMatchObject({ status: 'ACTIVE', disabledReason: null });
    } finally {
      await back.close();
    }
  });

  it('sends MKT_ORDER_BUYER_INFO_UPDATE when a fulfilled-shipments report brings or changes buyer data, with the fields the report has', async () => {
    const hook = await receiver();
    try {
      const { id } = (await call('POST', '/webhooks', { url: hook.url, messageTypes: ['MKT_ORDER_BUYER_INFO_UPDATE'] }))
        .json as { id: string };
      const shipment = (over: Record<string, string>) => ({
        'amazon-order-id': '444-1',
        'shipment-id': 'S1',
        'shipment-item-id': 'SI1',
        'amazon-order-item-id': 'OI1',
        'purchase-date': '2026-11-19T09:30:00+00:00',
        'shipment-date': '2026-11-20T08:00:00+00:00',
        'reporting-date': '2026-11-20T09:00:00+00:00',
        sku: 'SKU-1',
        'product-name': 'Thing',
        'quantity-shipped': '1',
        'buyer-email': 'x1@marketplace.example',
        'buyer-name': 'Ann Buyer',
        'recipient-name': 'Ann Buyer',
        'ship-address-1': '1 Main St',
        'ship-city': 'Seattle',
        'ship-state': 'WA',
        'ship-postal-code': '98101',
        'ship-country': 'US',
        'fulfillment-channel': 'Amazon',
        ...over,
      });
      const source = 'GET_AMAZON_FULFILLED_SHIPMENTS_DATA_GENERAL';
      await land(wh, source, US, tsv(dir, 'ship1.tsv', fulfilledShipmentsHeader, [shipment({})]));
      // The next report: the same order, the recipient's street corrected; and a line without any buyer data.
      await land(
        wh,
        source,
        US,
        tsv(dir, 'ship2.tsv', fulfilledShipmentsHeader, [
          shipment({ 'reporting-date': '2026-11-21T09:00:00+00:00', 'ship-address-1': '1 Main Street' }),
          shipment({
            'amazon-order-id': '444-2',
            'shipment-id': 'S2',
            'shipment-item-id': 'SI2',
            'amazon-order-item-id': 'OI2',
            'buyer-email': '',
            'buyer-name': '',
            'recipient-name': '',
            'ship-address-1': '',
            'ship-city': '',
            'ship-state': '',
            'ship-postal-code': '',
            'ship-country': '',
          }),
        ]),
      );
      // The same data in a later report: no change.
      await land(
        wh,
        source,
        US,
        tsv(dir, 'ship3.tsv', fulfilledShipmentsHeader, [
          shipment({ 'reporting-date': '2026-11-22T09:00:00+00:00', 'ship-address-1': '1 Main Street' }),
        ]),
      );
      await deliver();
      const bodies = hook.received.map((r) => JSON.parse(r.body));
      expect(bodies.map((b) => [b.summary.mktOrderId, b.details.recipientAddressLine1])).toEqual([
        ['444-1', '1 Main St'],
        ['444-1', '1 Main Street'],
      ]);
      expect(bodies[1]).toEqual({
        messageType: 'MKT_ORDER_BUYER_INFO_UPDATE',
        summary: {
          marketplaceId: 'ATVPDKIKX0DER',
          marketplaceCountryCode: 'US',
          marketplaceCountryName: 'United States',
          sellerOrVendorId: US.id,
          sellerOrVendorName: 'Test US',
          marketplaceSellerId: 'SELLERUS',
          mktOrderId: '444-1',
          orderPurchasedAtUtc: '2026-11-19T09:30:00Z',
          fulfillmentChannel: 'AFN',
        },
        details: {
          buyerEmail: 'x1@marketplace.example',
          buyerName: 'Ann Buyer',
          recipientName: 'Ann Buyer',
          recipientAddressLine1: '1 Main Street',
          recipientCity: 'Seattle',
          recipientStateOrRegion: 'WA',
          recipientPostalCode: '98101',
          recipientCountryCode: 'US',
        },
        occurredAt: '2026-11-21T09:00:00Z',
      });
      await call('DELETE', `/webhooks/${id}`);
    } finally {
      await hook.close();
    }
  });
});
