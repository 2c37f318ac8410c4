import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Warehouse } from '../../src/db/warehouse.ts';
import type { Home } from '../../src/home.ts';
import { runModels } from '../../src/models/run-models.ts';
import { findPipeline, loadPipelines } from '../../src/pipelines/pipeline-config.ts';
import { runPipeline } from '../../src/pipelines/run-pipeline.ts';
import { DE, US, makeHome, rows, writeOrders, type OrderLine } from '../helpers/home.ts';
import { orderLine } from '../helpers/profit.ts';

// A daily run's routine windows rebuild the dates that its new rows change, while the rest of the model's inputs
// (whole tables, seeds, control tables, the models' SQL) are as at its last build; the rows come out as a full
// rebuild's. DE is Europe/Berlin, UTC+1 in November.

const ORDERS = 'GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL';
const pipeline = findPipeline(loadPipelines(), 'profit');
const TABLES = pipeline.tables.map((t) => t.name);

const de = (over: OrderLine) => orderLine({ currency: 'EUR', sku: 'SKU-A', asin: 'B0DE00000A', ...over });
// 09:00Z is 10:00 in Berlin: A on 15 Nov, B on 10 Nov, C on 5 Nov.
const A = de({
  'amazon-order-id': 'A',
  'purchase-date': '2026-11-15T09:00:00+00:00',
  'last-updated-date': '2026-11-15T09:00:00+00:00',
  'order-status': 'Unshipped',
  'item-price': '20.00',
});
const B = de({
  'amazon-order-id': 'B',
  'purchase-date': '2026-11-10T09:00:00+00:00',
  'last-updated-date': '2026-11-11T09:00:00+00:00',
  'item-price': '30.00',
});
const C = de({
  'amazon-order-id': 'C',
  'purchase-date': '2026-11-05T09:00:00+00:00',
  'last-updated-date': '2026-11-06T09:00:00+00:00',
  'item-price': '40.00',
});
const A_SHIPPED = { ...A, 'order-status': 'Shipped', 'last-updated-date': '2026-11-21T08:00:00+00:00' };

function drop(home: Home, name: string, lines: OrderLine[]) {
  const folder = join(home.landing, DE.id, ORDERS);
  mkdirSync(folder, { recursive: true });
  writeOrders(folder, name, lines);
}

/**
 * The date ranges a model replaced since the last publish, per connection (the changes kept for the spare are older).
 */
const replaced = (wh: Warehouse, table: string) =>
  rows(
    wh,
    `
    select connection_id, date_from::varchar as date_from, date_to::varchar as date_to from control.unpublished_changes
    where table_name = $table and seq > coalesce((select value::bigint from control.settings where name = 'published_changes_seq'), 0)
    order by all`,
    { table },
  );

const catalogRows = async (wh: Warehouse) =>
  Object.fromEntries(
    await Promise.all(TABLES.map(async (t) => [t, await rows(wh, `select * from marts.${t} order by all`)] as const)),
  );

describe('runPipeline: routine windows rebuild the dates new rows change', () => {
  let home: Home;
  let wh: Warehouse;
  let dir: string;
  beforeAll(async () => {
    ({ home, wh, dir } = await makeHome());
    drop(home, 'orders-1.tsv', [A, B, C]);
    await runPipeline(wh, pipeline, { now: new Date('2026-11-20T09:30:00Z') });
  });
  afterAll(async () => {
    wh?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('a report re-delivering B and C as they were and A shipped replaces 15 Nov only, and reports the window whole', async () => {
    drop(home, 'orders-2.tsv', [A_SHIPPED, B, C]);
    const run = await runPipeline(wh, pipeline, { now: new Date('2026-11-21T09:30:00Z'), deferPublish: true });
    expect(run.status).toBe('success');
    // The order items' daily window is 25 Oct..21 Nov (28 days); of it, only A's date was rebuilt.
    expect(await replaced(wh, 'mkt_order_items_with_cogs')).toEqual([
      { connection_id: DE.id, date_from: '2026-11-15', date_to: '2026-11-15' },
    ]);
    expect(await replaced(wh, 'mkt_profit_by_sku_and_date')).toEqual([
      { connection_id: DE.id, date_from: '2026-11-15', date_to: '2026-11-15' },
    ]);
    const daily = run.windows.find(
      (w) => w.table === 'mkt_order_items_with_cogs' && w.connectionId === DE.id && w.kind === 'RECURRING_DAILY',
    )!;
    expect(daily).toMatchObject({ from: '2026-10-25', to: '2026-11-21', status: 'success', rows: 3 });
    expect(
      await rows(wh, `select mkt_order_id, mkt_order_status from marts.mkt_order_items_with_cogs order by 1`),
    ).toEqual([
      { mkt_order_id: 'A', mkt_order_status: 'Shipped' },
      { mkt_order_id: 'B', mkt_order_status: 'Shipped' },
      { mkt_order_id: 'C', mkt_order_status: 'Shipped' },
    ]);
    // Staging took in A again, not B and C (repeated as they were: its `changed` orders); they still name the first
    // file.
    expect(
      await rows(
        wh,
        `select order_id, file_id = (select file_id from staging.stg_mkt__order_items where order_id = 'A') as with_a from staging.stg_mkt__order_items order by 1`,
      ),
    ).toEqual([
      { order_id: 'A', with_a: true },
      { order_id: 'B', with_a: false },
      { order_id: 'C', with_a: false },
    ]);
    // The same rows as a rebuild of every date.
    const incremental = await catalogRows(wh);
    await runModels(wh, { select: TABLES, fullRefresh: true });
    expect(await catalogRows(wh)).toEqual(incremental);
  });

  it('a build outside a pipeline run forgets the fingerprints; the next run then rebuilds its windows whole', async () => {
    expect(await rows(wh, `select model from control.model_inputs`)).toEqual([]);
    await wh.sql.run(`delete from control.unpublished_changes`);
    drop(home, 'orders-3.tsv', [A_SHIPPED, B, C]);
    await runPipeline(wh, pipeline, { now: new Date('2026-11-22T09:30:00Z'), deferPublish: true });
    // 22 Nov - 27 = 26 Oct.
    expect(await replaced(wh, 'mkt_order_items_with_cogs')).toEqual(
      [
        { connection_id: US.id, date_from: '2026-10-26', date_to: '2026-11-22' },
        { connection_id: DE.id, date_from: '2026-10-26', date_to: '2026-11-22' },
      ].sort((a, b) => a.connection_id.localeCompare(b.connection_id)),
    );
  });

  it('a renamed connection (a whole table the marts read) rebuilds the windows whole; nothing new, then nothing', async () => {
    await wh.sql.run(`delete from control.unpublished_changes`);
    drop(home, 'orders-4.tsv', [A_SHIPPED, B, C]);
    await runPipeline(wh, pipeline, { now: new Date('2026-11-23T09:30:00Z'), deferPublish: true });
    expect(await replaced(wh, 'mkt_order_items_with_cogs')).toEqual([]);
    await wh.sql.run(`update control.connections set name = 'Renamed' where id = $id`, { id: DE.id });
    drop(home, 'orders-5.tsv', [A_SHIPPED, B, C]);
    await runPipeline(wh, pipeline, { now: new Date('2026-11-24T09:30:00Z'), deferPublish: true });
    // 24 Nov - 27 = 28 Oct; int_connections_described is every connection's.
    expect((await replaced(wh, 'mkt_order_items_with_cogs')).filter((r) => r.connection_id === DE.id)).toEqual([
      { connection_id: DE.id, date_from: '2026-10-28', date_to: '2026-11-24' },
    ]);
  });

  // One definition of the orders a report changes: the dates rebuilt are those of the orders staging takes in.
  it('an order whose two lines of one SKU come back as one: staging takes it in and its date is rebuilt, as a rebuild gives', async () => {
    // S on 12 Nov (10:00 in Berlin), two lines of SKU-A; the second one then comes back alone, and becomes the first.
    const S = [
      de({ 'amazon-order-id': 'S', 'purchase-date': '2026-11-12T09:00:00+00:00', 'item-price': '5.00' }),
      de({ 'amazon-order-id': 'S', 'purchase-date': '2026-11-12T09:00:00+00:00', 'item-price': '7.00' }),
    ];
    drop(home, 'orders-6.tsv', [A_SHIPPED, B, C, ...S]);
    await runPipeline(wh, pipeline, { now: new Date('2026-11-25T09:30:00Z'), deferPublish: true });
    await wh.sql.run(`delete from control.unpublished_changes`);
    drop(home, 'orders-7.tsv', [A_SHIPPED, B, C, S[1]!]);
    await runPipeline(wh, pipeline, { now: new Date('2026-11-26T09:30:00Z'), deferPublish: true });
    expect(await replaced(wh, 'mkt_order_items_with_cogs')).toEqual([
      { connection_id: DE.id, date_from: '2026-11-12', date_to: '2026-11-12' },
    ]);
    // The later landed version of S's first line (7.00) wins; its second line is orders-6's (7.00).
    expect(
      await rows(
        wh,
        `select mkt_order_item_id, item_price_value::varchar as item_price from marts.mkt_order_items_with_cogs where mkt_order_id = 'S' order by 1`,
      ),
    ).toEqual([
      { mkt_order_item_id: 'S/SKU-A', item_price: '7.0000' },
      { mkt_order_item_id: 'S/SKU-A#2', item_price: '7.0000' },
    ]);
    const incremental = await catalogRows(wh);
    await runModels(wh, { select: TABLES, fullRefresh: true });
    expect(await catalogRows(wh)).toEqual(incremental);
  });
});
