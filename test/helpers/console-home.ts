import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp, type App } from '../../src/api/app.ts';
import { addConnection } from '../../src/control/connections/connections.ts';
import { createApiKey, createOrganization } from '../../src/control/organizations.ts';
import { openWarehouse, type Warehouse } from '../../src/db/warehouse.ts';
import { resolveHome, type Home } from '../../src/home.ts';
import { loadPipelines } from '../../src/pipelines/pipeline-config.ts';
import { runPipeline } from '../../src/pipelines/run-pipeline.ts';
import { allowedNetworks } from '../../src/webhooks/address.ts';
import { landDemoFixtures } from './demo-fixtures.ts';
import { writeOrders, type OrderLine } from './home.ts';

const orders = 'GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL';
/** The demo's US seller (fixtures/demo/connections.json). */
export const demoUs = '6f1c2f0e-3b7a-4c55-9d0e-1a2b3c4d5e01';

/** Another organization on the same server, whose names must never reach the demo organization's pages. */
export const rival = {
  name: 'Rival Brands Ltd',
  connectionId: '00000000-0000-4000-8000-0000000b0b01',
  connectionName: 'Rival Hidden Store',
};

/** The refused file of the demo home: its third line has an item price that is not a number. */
export const refusedFile = { name: 'broken-orders.tsv', line: 3, reason: /item-price/ };

export interface ConsoleHome {
  home: Home;
  wh: Warehouse;
  app: App;
  /** `http://127.0.0.1:PORT` */
  url: string;
  key: string;
  rivalKey: string;
  operatorKey: string;
  close(): Promise<void>;
}

const line = (order: string, over: OrderLine = {}): OrderLine => ({
  'amazon-order-id': order,
  'purchase-date': '2026-10-15T10:00:00+00:00',
  'last-updated-date': '2026-10-15T12:00:00+00:00',
  'order-status': 'Shipped',
  'fulfillment-channel': 'Amazon',
  'sales-channel': 'Amazon.com',
  sku: 'RIVAL-SKU',
  asin: 'B0RIVAL001',
  'item-status': 'Shipped',
  quantity: '1',
  currency: 'USD',
  'item-price': '12.00',
  'item-tax': '0.00',
  'shipping-price': '0.00',
  'shipping-tax': '0.00',
  ...over,
});

/**
 * The demo home the console is tested and measured on: the bundled demo files built by the pipelines (their runs
 * recorded), a refused file, an order that a failing webhook receiver was sent, an export and a schedule, and a
 * second organization with a connection of its own; served on loopback with an operator key.
 */
export async function startConsoleHome(): Promise<ConsoleHome> {
  const dir = mkdtempSync(join(tmpdir(), 'mktdata-console-'));
  const home = resolveHome(join(dir, 'home'));
  const wh = await openWarehouse(home, 'test', { create: true });
  const { key } = await landDemoFixtures(wh);
  const rivalOrg = await createOrganization(wh, { name: rival.name, tokens: 10 });
  const rivalKey = await createApiKey(wh, rivalOrg);
  await addConnection(wh, {
    organizationId: rivalOrg,
    id: rival.connectionId,
    name: rival.connectionName,
    marketplaceId: 'ATVPDKIKX0DER',
    sellerId: 'RIVALSELLER',
  });
  const drop = (connection: string, name: string, lines: OrderLine[]) => {
    const folder = join(home.landing, connection, orders);
    mkdirSync(folder, { recursive: true });
    writeOrders(folder, name, lines);
  };
  drop(rival.connectionId, 'rival-orders.tsv', [line('999-0000001-0000001')]);
  drop(demoUs, refusedFile.name, [
    line('111-0000001-0000001'),
    line('111-0000001-0000002', { 'item-price': 'twelve' }),
  ]);
  drop(demoUs, 'late-order.tsv', [line('111-0000002-0000001', { sku: 'DEMO-LATE' })]);

  const operatorKey = 'operator-key-of-the-console-test-0123456789';
  const app = await buildApp({
    wh,
    home,
    logger: false,
    operatorKey,
    requestsPerSecond: 1000,
    webhookAllowedNetworks: allowedNetworks('127.0.0.1'),
    webhookIntervalMs: 3_600_000,
  });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  const api = async (path: string, body: unknown) => {
    const res = await fetch(`${url}/api/v1${path}`, {
      method: 'POST',
      headers: { 'service-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (res.status >= 300) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<{ id: string }>;
  };
  // A receiver that is down: the delivery log shows the failed attempt and its answer.
  const receiver = createServer((_req, res) => res.writeHead(503).end());
  await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
  await api('/webhooks', {
    url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
    messageTypes: ['MKT_ORDER_UPDATE'],
  });

  for (const pipeline of loadPipelines()) await runPipeline(wh, pipeline, { now: new Date('2026-10-16T12:00:00Z') });
  await app.exportServices.deliverer.deliverDue();
  await api('/exports', {
    sellerOrVendorIds: [demoUs],
    tableName: 'mkt_profit_by_date',
    from: '2026-09-01',
    to: '2026-09-30',
    outputType: 'CSV',
  });
  await app.exportServices.worker.idle();
  await api('/exports/schedules', {
    name: 'Weekly profit',
    tableName: 'mkt_profit_by_date',
    sellerOrVendorIds: [demoUs],
    cron: '0 6 * * 1',
    timezone: 'America/Los_Angeles',
    relativePeriod: { lastDays: 7 },
  });
  return {
    home,
    wh,
    app,
    url,
    key,
    rivalKey,
    operatorKey,
    close: async () => {
      await app.close();
      await wh.close();
      await new Promise<void>((done) => receiver.close(() => done()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
