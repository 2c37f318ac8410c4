import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Warehouse } from '../../src/db/warehouse.ts';
import { land, makeHome, ordersHeader, rows, US, DE, writeOrders } from '../helpers/home.ts';

const SOURCE = 'GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL';
const raw = 'raw.get_flat_file_all_orders_data_by_order_date_general';
const shipped = {
  'amazon-order-id': '111-0000001-0000001',
  'purchase-date': '2026-03-01T07:30:00+00:00',
  'last-updated-date': '2026-03-02T10:00:00+00:00',
  'order-status': 'Shipped',
  'fulfillment-channel': 'Amazon',
  sku: 'SKU-A',
  asin: 'B000000001',
  'item-status': 'Shipped',
  quantity: '2',
  currency: 'USD',
  'item-price': '19.98',
  'ship-promotion-discount': '-1.50',
  'is-business-order': 'false',
};

describe('ingest GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL', () => {
  let wh: Warehouse;
  let dir: string;
  beforeEach(async () => ({ wh, dir } = await makeHome()));
  afterEach(async () => wh.close());

  it('maps header variants by name and keeps unknown columns as JSON', async () => {
    const header = ordersHeader
      .map((h) => (h === 'quantity' ? 'quantity-purchased' : h === 'merchant-order-id' ? 'merchant order-id' : h))
      .filter((h) => h !== 'cpf');
    const file = writeOrders(
      dir,
      'de.tsv',
      [{ ...shipped, 'merchant-order-id': 'M-1', 'fulfillment-channel': 'Merchant' }],
      { header: [...header, 'url'] },
    );
    const result = await land(wh, SOURCE, DE, file);
    expect(result).toMatchObject({ status: 'landed', rows: 1 });
    const [row] = await rows(
      wh,
      `select quantity, merchant_order_id, fulfillment_channel, ship_promotion_discount, cpf, _extra, _line_number, _marketplace_id from ${raw}`,
    );
    expect(row).toEqual({
      quantity: '2',
      merchant_order_id: 'M-1',
      fulfillment_channel: 'Merchant',
      ship_promotion_discount: '-1.5000',
      cpf: null,
      _extra: '{"url":null}',
      _line_number: '2',
      _marketplace_id: DE.marketplaceId,
    });
  });

  it('lands pending lines with empty prices as nulls', async () => {
    const file = writeOrders(dir, 'pending.tsv', [
      { ...shipped, 'order-status': 'Pending', 'item-status': '', 'item-price': '', 'ship-promotion-discount': '' },
    ]);
    await land(wh, SOURCE, US, file);
    expect(await rows(wh, `select order_status, item_status, item_price, ship_promotion_discount from ${raw}`)).toEqual(
      [{ order_status: 'Pending', item_status: null, item_price: null, ship_promotion_discount: null }],
    );
  });

  it('reads gzip and cp1252 files with the right characters', async () => {
    const line = { ...shipped, 'product-name': 'Trinkflasche – Grün, 12 €', 'ship-city': 'München' };
    await land(wh, SOURCE, DE, writeOrders(dir, 'a.tsv.gz', [line], { cp1252: true, gzip: true }));
    await land(
      wh,
      SOURCE,
      US,
      writeOrders(dir, 'b.tsv.gz', [{ ...line, 'amazon-order-id': '111-0000002-0000002' }], { gzip: true }),
    );
    const landed = await rows(wh, `select product_name, ship_city from ${raw} order by _marketplace_id`);
    expect(landed).toEqual([
      { product_name: 'Trinkflasche – Grün, 12 €', ship_city: 'München' },
      { product_name: 'Trinkflasche – Grün, 12 €', ship_city: 'München' },
    ]);
  });

  it('lands the same file once, whatever its name', async () => {
    const file = writeOrders(dir, 'one.tsv', [shipped]);
    const first = await land(wh, SOURCE, US, file);
    const before = await rows(wh, `select * from ${raw}`);
    writeFileSync(join(dir, 'copy.tsv'), await import('node:fs').then((fs) => fs.readFileSync(file)));
    const second = await land(wh, SOURCE, US, join(dir, 'copy.tsv'));
    expect(second).toEqual({
      status: 'skipped',
      file: join(dir, 'copy.tsv'),
      fileId: (first as { fileId: string }).fileId,
    });
    expect(await rows(wh, `select * from ${raw}`)).toEqual(before);
  });

  it('refuses a truncated file whole, naming the line, and keeps it in quarantine', async () => {
    const good = writeOrders(dir, 'good.tsv', [shipped, { ...shipped, 'amazon-order-id': '111-0000003-0000003' }]);
    const text = (await import('node:fs')).readFileSync(good, 'utf8');
    const cut = join(dir, 'cut.tsv');
    writeFileSync(cut, text.slice(0, text.lastIndexOf('\t', text.length - 40))); // the last line loses its tail
    const result = await land(wh, SOURCE, US, cut);
    expect(result).toMatchObject({ status: 'refused', line: 3 });
    expect((result as { reason: string }).reason).toMatch(/expected 32 fields/);
    expect(existsSync((result as { keptAt: string }).keptAt)).toBe(true);
    expect(await rows(wh, `select count(*)::int as n from ${raw}`)).toEqual([{ n: 0 }]);
    expect(await rows(wh, `select count(*)::int as n from control.landed_files`)).toEqual([{ n: 0 }]);
  });

  it('refuses a file without the required columns at line 1', async () => {
    const file = join(dir, 'settlement.tsv');
    writeFileSync(file, 'settlement-id\ttotal-amount\n123\t10.00\n');
    const result = await land(wh, SOURCE, US, file);
    expect(result).toMatchObject({ status: 'refused', line: 1 });
    expect((result as { reason: string }).reason).toMatch(
      /missing column\(s\) amazon-order-id, purchase-date, order-status, sku, quantity/,
    );
  });

  it('refuses a bad value with its line and column', async () => {
    const file = writeOrders(dir, 'bad.tsv', [
      shipped,
      { ...shipped, 'amazon-order-id': '111-0000004-0000004', 'item-price': '12,x' },
    ]);
    expect(await land(wh, SOURCE, US, file)).toMatchObject({
      status: 'refused',
      line: 3,
      reason: 'item-price: 12,x is not a valid decimal',
    });
  });

  it('refuses a value too large for its type with its line and column, leaving no rows and no stage behind', async () => {
    // 20 digits: above a BIGINT's 9,223,372,036,854,775,807, so the quantity cannot be read.
    const file = writeOrders(dir, 'huge.tsv', [
      shipped,
      { ...shipped, 'amazon-order-id': '111-0000006-0000006', quantity: '99999999999999999999' },
    ]);
    expect(await land(wh, SOURCE, US, file)).toMatchObject({
      status: 'refused',
      line: 3,
      reason: 'quantity: 99999999999999999999 is not a valid integer',
    });
    expect(await rows(wh, `select count(*)::int as n from ${raw}`)).toEqual([{ n: 0 }]);
    expect(await rows(wh, `select count(*)::int as n from duckdb_tables() where temporary`)).toEqual([{ n: 0 }]);
  });

  it('names a ragged line before a bad value on an earlier line, as the text stage reads them', async () => {
    const bad = { ...shipped, 'amazon-order-id': '111-0000007-0000007', 'item-price': 'abc' };
    const file = writeOrders(dir, 'both.tsv', [shipped, bad, { ...shipped, 'amazon-order-id': '111-0000008-0000008' }]);
    writeFileSync(file, `${readFileSync(file, 'utf8')}111-0000009-0000009\textra\n`);
    const result = await land(wh, SOURCE, US, file);
    expect(result).toMatchObject({ status: 'refused', line: 5 });
    expect((result as { reason: string }).reason).toMatch(/^expected 32 fields as in the header, found fewer/);
  });

  it('refuses a line whose required value is empty', async () => {
    const file = writeOrders(dir, 'nosku.tsv', [
      shipped,
      { ...shipped, 'amazon-order-id': '111-0000005-0000005', sku: '' },
    ]);
    expect(await land(wh, SOURCE, US, file)).toMatchObject({ status: 'refused', line: 3, reason: 'sku is empty' });
    expect(await rows(wh, `select count(*)::int as n from ${raw}`)).toEqual([{ n: 0 }]);
  });

  it('refuses an empty file', async () => {
    const file = join(dir, 'empty.tsv');
    writeFileSync(file, '');
    expect(await land(wh, SOURCE, US, file)).toMatchObject({
      status: 'refused',
      line: 1,
      reason: 'the file is empty: no header line',
    });
  });
});
