// Files of many connections landed together (ingest/land-files.ts) land exactly as one by one: the same rows, line
// numbers and connections; a bad file among them is refused alone, with its line, and the others land.
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Warehouse } from '../../src/db/warehouse.ts';
import type { Home } from '../../src/home.ts';
import { findSource } from '../../src/ingest/sources/index.ts';
import { landWaitingFiles } from '../../src/ingest/landing.ts';
import { createSubscription } from '../../src/webhooks/subscriptions.ts';
import { DE, land, makeHome, ordersHeader, rows, US, writeOrders, type OrderLine } from '../helpers/home.ts';
import { writeJson, writeSettlement } from '../helpers/profit.ts';

const SOURCE = 'GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL';
const raw = 'raw.get_flat_file_all_orders_data_by_order_date_general';
const line = (id: string, over: OrderLine = {}): OrderLine => ({
  'amazon-order-id': id,
  'purchase-date': '2026-03-01T07:30:00+00:00',
  'last-updated-date': '2026-03-02T10:00:00+00:00',
  'order-status': 'Shipped',
  sku: 'SKU-A',
  asin: 'B000000001',
  'item-status': 'Shipped',
  quantity: '2',
  currency: 'USD',
  'item-price': '19.98',
  ...over,
});

/** Two files for US (the second revising an order of the first) and one for DE, waiting in landing/. */
function drop(home: Home, deLines: OrderLine[] = [line('D-1'), line('D-2', { quantity: '5' })]) {
  const folder = (id: string) => {
    const path = join(home.landing, id, SOURCE);
    mkdirSync(path, { recursive: true });
    return path;
  };
  writeOrders(folder(US.id), 'a.tsv', [line('U-1'), line('U-2'), line('U-3', { 'item-price': '5.00' })]);
  writeOrders(folder(US.id), 'b.tsv', [
    line('U-2', { quantity: '7', 'last-updated-date': '2026-03-03T10:00:00+00:00' }),
  ]);
  writeOrders(folder(DE.id), 'a.tsv', deLines);
}

const landed = (wh: Warehouse) =>
  rows(
    wh,
    `select _connection_id, f.file_name, _line_number::integer as line, amazon_order_id, quantity::integer as quantity, item_price::varchar as price
    from ${raw} as r join control.landed_files as f on f.id = r._file_id order by all`,
  );

describe('landing the waiting files of many connections together', () => {
  let wh: Warehouse;
  let home: Home;
  beforeEach(async () => ({ wh, home } = await makeHome()));
  afterEach(async () => wh.close());

  it('lands the rows, line numbers and files one by one would, in order per connection', async () => {
    drop(home);
    const results = await landWaitingFiles(wh, [SOURCE]);
    expect(results.map((r) => r.status)).toEqual(['landed', 'landed', 'landed']);
    // The same files landed one by one, in a home of their own.
    const other = await makeHome();
    try {
      drop(other.home);
      for (const id of [US.id, DE.id]) {
        const folder = join(other.home.landing, id, SOURCE);
        for (const name of readdirSync(folder).sort())
          await land(other.wh, SOURCE, id === US.id ? US : DE, join(folder, name));
      }
      const expected = await landed(other.wh);
      // 3 + 1 US lines and 2 DE lines, each numbered in its own file from line 2 (the header is line 1).
      expect(expected).toHaveLength(6);
      expect(expected.filter((r) => r.file_name === 'b.tsv')).toEqual([
        { _connection_id: US.id, file_name: 'b.tsv', line: 2, amazon_order_id: 'U-2', quantity: 7, price: '19.9800' },
      ]);
      expect(await landed(wh)).toEqual(expected);
    } finally {
      await other.wh.close();
    }
    // The later file of a connection landed after its earlier one; both archived under their ids.
    const [first, second] = await rows(
      wh,
      `select file_name from control.landed_files where connection_id = $c order by landed_at`,
      { c: US.id },
    );
    expect([first!.file_name, second!.file_name]).toEqual(['a.tsv', 'b.tsv']);
    expect(readdirSync(join(home.root, 'landed', US.id, SOURCE))).toHaveLength(2);
    expect(readdirSync(join(home.landing, US.id, SOURCE))).toEqual([]);
    // Landing them again changes nothing.
    drop(home);
    expect((await landWaitingFiles(wh, [SOURCE])).map((r) => r.status)).toEqual(['skipped', 'skipped', 'skipped']);
    expect(await landed(wh)).toHaveLength(6);
  });

  it("derives the webhook events of the connections some subscription receives, each file's as on its own", async () => {
    const [connection] = await rows(wh, `select organization_id from control.connections where id = $id`, {
      id: US.id,
    });
    await createSubscription(wh, String(connection!.organization_id), {
      url: 'https://93.184.216.34/hook',
      messageTypes: ['MKT_ORDER_UPDATE'],
    });
    // One file each (landed together), then US's two files (one by one: the second revises the first).
    const folder = (id: string) => join(home.landing, id, SOURCE);
    mkdirSync(folder(US.id), { recursive: true });
    mkdirSync(folder(DE.id), { recursive: true });
    writeOrders(folder(US.id), 'first.tsv', [line('U-1')]);
    writeOrders(folder(DE.id), 'a.tsv', [line('D-1'), line('D-2')]);
    await landWaitingFiles(wh, [SOURCE]);
    drop(home);
    await landWaitingFiles(wh, [SOURCE]);
    // U-1, D-1 and D-2 are new; then US's a.tsv brings U-2 and U-3 (U-1 again, unchanged: no event), b.tsv changes
    // U-2's quantity (2 to 7), and DE's a.tsv D-2's (2 to 5).
    const events = await rows(wh, `select connection_id, ordering_key from control.webhook_events order by seq`);
    expect(events.map((e) => `${e.connection_id === US.id ? 'US' : 'DE'} ${e.ordering_key}`)).toEqual([
      'US U-1',
      'DE D-1',
      'DE D-2',
      'US U-2',
      'US U-3',
      'US U-2',
      'DE D-2',
    ]);
  });

  it('refuses a bad file alone, naming its line, and lands the others', async () => {
    drop(home, [line('D-1'), line('D-2', { quantity: 'many' })]);
    const results = await landWaitingFiles(wh, [SOURCE]);
    expect(results.map((r) => r.status)).toEqual(['landed', 'landed', 'refused']);
    expect(results[2]).toMatchObject({ line: 3, reason: expect.stringContaining('quantity') });
    // US's a.tsv (U-1, U-2, U-3) and b.tsv (U-2 again); nothing of DE's.
    expect((await landed(wh)).map((r) => r.amazon_order_id)).toEqual(['U-1', 'U-2', 'U-3', 'U-2']);
    expect(readdirSync(join(home.landing, DE.id, SOURCE))).toEqual(['.refused-a.tsv']);
  });

  it("checks each settlement's totals: one that does not add up is refused, the other lands", async () => {
    const source = 'GET_V2_SETTLEMENT_REPORT_DATA_FLAT_FILE_V2';
    const folder = (id: string) => {
      const path = join(home.landing, id, source);
      mkdirSync(path, { recursive: true });
      return path;
    };
    const fee = {
      'transaction-type': 'Order',
      'order-id': 'U-1',
      'amount-type': 'ItemFees',
      'amount-description': 'Commission',
      amount: '-1.50',
      'posted-date-time': '2026-03-02 10:00:00 UTC',
    };
    writeSettlement(folder(US.id), 's-1.tsv', { id: '1001', currency: 'USD' }, [fee]);
    // The summary says -9.99; its lines add up to -1.50.
    writeSettlement(folder(DE.id), 's-2.tsv', { id: '2001', currency: 'EUR', total: '-9.99' }, [fee]);
    const results = await landWaitingFiles(wh, [source]);
    expect(results.map((r) => r.status)).toEqual(['landed', 'refused']);
    expect(results[1]).toMatchObject({ reason: expect.stringContaining('not to the total-amount -9.99') });
  });

  it('lands files with another header, or gzip, one by one beside the batch', async () => {
    drop(home);
    const header = ordersHeader.filter((h) => h !== 'cpf');
    writeOrders(join(home.landing, DE.id, SOURCE), 'b.tsv.gz', [line('D-3')], { header, gzip: true });
    const results = await landWaitingFiles(wh, [SOURCE]);
    expect(results.map((r) => r.status)).toEqual(['landed', 'landed', 'landed', 'landed']);
    expect(
      (await landed(wh))
        .filter((r) => r._connection_id === DE.id)
        .map((r) => `${r.file_name} ${r.line} ${r.amazon_order_id}`),
    ).toEqual(['a.tsv 2 D-1', 'a.tsv 3 D-2', 'b.tsv.gz 2 D-3']);
  });

  describe('JSON documents', () => {
    const OFFERS = 'replenishment.listOffers';
    const offer = (sku: string, marketplaceId: string, more: object = {}) => ({
      asin: `B-${sku}`,
      sku,
      marketplaceId,
      eligibility: 'ELIGIBLE',
      price: 2.5,
      ...more,
    });
    const folder = (id: string) => {
      const path = join(home.landing, id, OFFERS);
      mkdirSync(path, { recursive: true });
      return path;
    };
    const offers = (wh: Warehouse) =>
      rows(
        wh,
        `select _connection_id = '${US.id}' as us, f.file_name, _line_number::integer as line, sku, price::varchar as price, _extra::varchar as extra
        from raw.replenishment_list_offers as r join control.landed_files as f on f.id = r._file_id order by all`,
      );

    it('land together, each record with its file, number and unknown fields, as one by one would (gzip too)', async () => {
      const batch = vi.spyOn(findSource(OFFERS).batch!, 'land');
      // US: two pages (the second gzip), DE: one; an unknown field goes to _extra.
      writeJson(folder(US.id), 'page-1.json', {
        offers: [offer('U1', US.marketplaceId), offer('U2', US.marketplaceId, { newField: 7 })],
      });
      writeJson(
        folder(US.id),
        'page-2.json.gz',
        { offers: [offer('U3', US.marketplaceId, { price: 4 })] },
        { gzip: true },
      );
      writeJson(folder(DE.id), 'page-1.json', { offers: [offer('D1', DE.marketplaceId)] });
      const results = await landWaitingFiles(wh, [OFFERS]);
      expect(results.map((r) => r.status)).toEqual(['landed', 'landed', 'landed']);
      // US's folder comes first (its id ends a001, DE's a002): its pages hold 2 and 1 records, DE's 1.
      expect(results.map((r) => r.status === 'landed' && r.rows)).toEqual([2, 1, 1]);
      expect(batch).toHaveBeenCalledTimes(1);
      expect(batch.mock.calls[0]![2]).toHaveLength(3);
      batch.mockRestore();
      // Records are numbered from 1 in their own file; prices are DECIMAL(18,4).
      expect(await offers(wh)).toEqual([
        { us: false, file_name: 'page-1.json', line: 1, sku: 'D1', price: '2.5000', extra: null },
        { us: true, file_name: 'page-1.json', line: 1, sku: 'U1', price: '2.5000', extra: null },
        { us: true, file_name: 'page-1.json', line: 2, sku: 'U2', price: '2.5000', extra: '{"newField":7}' },
        { us: true, file_name: 'page-2.json.gz', line: 1, sku: 'U3', price: '4.0000', extra: null },
      ]);
      // The same documents one by one, in a home of their own, land the same rows.
      const other = await makeHome();
      try {
        for (const [connection, name] of [
          [DE, 'page-1.json'],
          [US, 'page-1.json'],
          [US, 'page-2.json.gz'],
        ] as const) {
          await land(
            other.wh,
            OFFERS,
            connection,
            join(
              home.root,
              'landed',
              connection.id,
              OFFERS,
              readdirSync(join(home.root, 'landed', connection.id, OFFERS)).find((f) => f.endsWith(`-${name}`))!,
            ),
          );
        }
        // (There, the files are named by their archived copies: compared without their names, by SKU.)
        const bySku = async (w: Warehouse) =>
          (await offers(w))
            .map(({ file_name: _, ...rest }) => rest)
            .sort((x, y) => String(x.sku).localeCompare(String(y.sku)));
        expect(await bySku(other.wh)).toEqual(await bySku(wh));
      } finally {
        await other.wh.close();
      }
    });

    it('refuse a bad document alone, saying why and naming its record, and land the others', async () => {
      // An empty US document beside a good one; DE's second record is of the US marketplace, not of its connection's.
      writeFileSync(join(folder(US.id), 'page-0.json'), '');
      writeJson(folder(US.id), 'page-1.json', { offers: [offer('U1', US.marketplaceId)] });
      writeJson(folder(DE.id), 'page-1.json', {
        offers: [offer('D1', DE.marketplaceId), offer('D2', US.marketplaceId)],
      });
      const results = await landWaitingFiles(wh, [OFFERS]);
      expect(results.map((r) => r.status)).toEqual(['refused', 'landed', 'refused']);
      expect(results[0]).toMatchObject({ line: null, reason: 'the file is empty' });
      expect(results[2]).toMatchObject({
        line: 2,
        reason: `record 2: marketplaceId ${US.marketplaceId} is not the connection's marketplace ${DE.marketplaceId}`,
      });
      expect((await offers(wh)).map((r) => r.sku)).toEqual(['U1']);
    });
  });
});
