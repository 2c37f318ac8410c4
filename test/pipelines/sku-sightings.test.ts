import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Warehouse } from '../../src/db/warehouse.ts';
import type { Home } from '../../src/home.ts';
import { loadModels } from '../../src/models/load-models.ts';
import { runModels, type ModelResult } from '../../src/models/run-models.ts';
import { findPipeline, loadPipelines } from '../../src/pipelines/pipeline-config.ts';
import { runPipeline } from '../../src/pipelines/run-pipeline.ts';
import { workOf } from '../../src/pipelines/run-work.ts';
import { DE, makeHome, rows, writeOrders, type OrderLine } from '../helpers/home.ts';
import { orderLine } from '../helpers/profit.ts';

// intermediate.int_sku_asins reads a row per SKU and local purchase date (int_sku_sightings_by_date), which a pipeline
// run rebuilds for the dates it rebuilds the order line items for (`window.follows`). Its rows must stay those of the
// whole order history: each SKU's child ASIN and product name from its latest order line that has one.
// DE is Europe/Berlin (UTC+1 in November): 09:00Z is 10:00 on the same date.

const ORDERS = 'GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL';
const SIGHTINGS = 'intermediate.int_sku_sightings_by_date';
const pipeline = findPipeline(loadPipelines(), 'profit');

const line = (order: string, day: string, over: OrderLine) =>
  orderLine({
    currency: 'EUR',
    'amazon-order-id': order,
    'purchase-date': `2026-${day}T09:00:00+00:00`,
    'last-updated-date': `2026-${day}T09:00:00+00:00`,
    ...over,
  });
// SKU-P: P on 5 Nov (ASIN …OLD), Q on 10 Nov (ASIN …NEW, named "P new"). SKU-R: R on 8 Nov. SKU-O: O on 20 Oct, before
// the daily windows of the runs below (28 days: from 24 Oct on the 20 Nov's).
const P = line('P', '11-05', { sku: 'SKU-P', asin: 'B0P0000OLD', 'product-name': 'P old' });
const Q = line('Q', '11-10', { sku: 'SKU-P', asin: 'B0P0000NEW', 'product-name': 'P new' });
const R = line('R', '11-08', { sku: 'SKU-R', asin: 'B0R0000001', 'product-name': 'R' });
const O = line('O', '10-20', { sku: 'SKU-O', asin: 'B0O0000001', 'product-name': 'O' });
// Then Q's later version is dated 3 Nov (an order moved back), and R's names another ASIN.
const Q_MOVED = {
  ...Q,
  'purchase-date': '2026-11-03T09:00:00+00:00',
  'last-updated-date': '2026-11-12T09:00:00+00:00',
};
const R_RENAMED = { ...R, asin: 'B0R0000002', 'last-updated-date': '2026-11-12T09:00:00+00:00' };

/** The SKUs' lookups as the whole history gives them (the model's rule, on every order line). */
const fromHistory = (wh: Warehouse) =>
  rows(
    wh,
    `
    select sku, arg_max(asin, purchased_at) filter (where asin is not null) as asin,
        arg_max(product_name, purchased_at) filter (where product_name is not null) as product_name
    from staging.stg_mkt__order_items group by sku order by sku`,
  );
const lookups = (wh: Warehouse) =>
  rows(wh, `select sku, asin, product_name from intermediate.int_sku_asins order by sku`);
const sightings = (wh: Warehouse) =>
  rows(wh, `select sku, date::varchar as date, asin, product_name from ${SIGHTINGS} order by all`);

describe('int_sku_asins from the SKUs’ sightings by date', () => {
  let home: Home;
  let wh: Warehouse;
  let dir: string;
  const drop = (name: string, lines: OrderLine[]) => {
    const folder = join(home.landing, DE.id, ORDERS);
    mkdirSync(folder, { recursive: true });
    writeOrders(folder, name, lines);
  };
  beforeAll(async () => {
    ({ home, wh, dir } = await makeHome());
    drop('orders-1.tsv', [O, P, Q, R]);
    expect((await runPipeline(wh, pipeline, { now: new Date('2026-11-20T09:30:00Z') })).status).toBe('success');
  });
  afterAll(async () => {
    wh?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('takes each SKU’s latest line with an ASIN, and with a name, from one row per SKU and day', async () => {
    expect(await sightings(wh)).toEqual([
      { sku: 'SKU-O', date: '2026-10-20', asin: 'B0O0000001', product_name: 'O' },
      { sku: 'SKU-P', date: '2026-11-05', asin: 'B0P0000OLD', product_name: 'P old' },
      { sku: 'SKU-P', date: '2026-11-10', asin: 'B0P0000NEW', product_name: 'P new' },
      { sku: 'SKU-R', date: '2026-11-08', asin: 'B0R0000001', product_name: 'R' },
    ]);
    expect(await lookups(wh)).toEqual([
      { sku: 'SKU-O', asin: 'B0O0000001', product_name: 'O' },
      { sku: 'SKU-P', asin: 'B0P0000NEW', product_name: 'P new' },
      { sku: 'SKU-R', asin: 'B0R0000001', product_name: 'R' },
    ]);
  });

  it('a daily run rebuilds the dates the order line items rebuild: an order moved back, a line renamed', async () => {
    drop('orders-2.tsv', [P, Q_MOVED, R_RENAMED]);
    const results: ModelResult[] = [];
    const run = await runPipeline(wh, pipeline, {
      now: new Date('2026-11-21T09:30:00Z'),
      deferPublish: true,
      onResult: (r) => results.push(r),
    });
    expect(run.status).toBe('success');
    // The order items' daily window of each connection (21 Nov - 27 = 25 Oct), not every date: its table is kept.
    const windows = results
      .find((r) => r.model === SIGHTINGS)!
      .windows!.map((w) => `${w.connectionId.slice(-4)} ${w.from}..${w.to}`);
    expect(windows.sort()).toEqual(['a001 2026-10-25..2026-11-21', 'a002 2026-10-25..2026-11-21']);
    // Q left 10 Nov for 3 Nov, where it is SKU-P's earliest line: P (5 Nov, …OLD) is now the latest. R is …0002.
    expect(await sightings(wh)).toEqual([
      { sku: 'SKU-O', date: '2026-10-20', asin: 'B0O0000001', product_name: 'O' },
      { sku: 'SKU-P', date: '2026-11-03', asin: 'B0P0000NEW', product_name: 'P new' },
      { sku: 'SKU-P', date: '2026-11-05', asin: 'B0P0000OLD', product_name: 'P old' },
      { sku: 'SKU-R', date: '2026-11-08', asin: 'B0R0000002', product_name: 'R' },
    ]);
    expect(await lookups(wh)).toEqual([
      { sku: 'SKU-O', asin: 'B0O0000001', product_name: 'O' },
      { sku: 'SKU-P', asin: 'B0P0000OLD', product_name: 'P old' },
      { sku: 'SKU-R', asin: 'B0R0000002', product_name: 'R' },
    ]);
    expect(await lookups(wh)).toEqual(await fromHistory(wh));
  });

  it('builds a missing sightings table whole (a home of an earlier version), not only the run’s windows', async () => {
    await wh.sql.run(`drop table ${SIGHTINGS}`);
    // A new order on 22 Nov; the daily window is 26 Oct to 22 Nov, and O's 20 Oct is before it.
    drop('orders-3.tsv', [
      P,
      Q_MOVED,
      R_RENAMED,
      line('N', '11-22', { sku: 'SKU-N', asin: 'B0N0000001', 'product-name': 'N' }),
    ]);
    expect(
      (await runPipeline(wh, pipeline, { now: new Date('2026-11-22T09:30:00Z'), deferPublish: true })).status,
    ).toBe('success');
    expect(await sightings(wh)).toEqual([
      { sku: 'SKU-N', date: '2026-11-22', asin: 'B0N0000001', product_name: 'N' },
      { sku: 'SKU-O', date: '2026-10-20', asin: 'B0O0000001', product_name: 'O' },
      { sku: 'SKU-P', date: '2026-11-03', asin: 'B0P0000NEW', product_name: 'P new' },
      { sku: 'SKU-P', date: '2026-11-05', asin: 'B0P0000OLD', product_name: 'P old' },
      { sku: 'SKU-R', date: '2026-11-08', asin: 'B0R0000002', product_name: 'R' },
    ]);
    expect(await lookups(wh)).toEqual([
      { sku: 'SKU-N', asin: 'B0N0000001', product_name: 'N' },
      { sku: 'SKU-O', asin: 'B0O0000001', product_name: 'O' },
      { sku: 'SKU-P', asin: 'B0P0000OLD', product_name: 'P old' },
      { sku: 'SKU-R', asin: 'B0R0000002', product_name: 'R' },
    ]);
    expect(await lookups(wh)).toEqual(await fromHistory(wh));
  });

  it('the same rows as a build of every date', async () => {
    const incremental = [await sightings(wh), await lookups(wh)];
    await runModels(wh, { select: [SIGHTINGS, 'intermediate.int_sku_asins'], upstream: false, fullRefresh: true });
    expect([await sightings(wh), await lookups(wh)]).toEqual(incremental);
  });
});

describe('workOf: a model that follows a table', () => {
  const models = loadModels();
  const window = {
    connectionId: DE.id,
    table: 'mkt_order_items_with_cogs',
    kind: 'RECURRING_DAILY' as const,
    stage: null,
    localDate: '2026-11-21',
    from: '2026-10-25',
    to: '2026-11-21',
  };

  it('gets that table’s windows and the dates new rows touch in them, and is not rebuilt whole', () => {
    const touched = new Map([
      [DE.id, new Map([['mkt_order_items_with_cogs', [{ from: '2026-11-03', to: '2026-11-03' }]]])],
    ]);
    const settlements = { ...window, table: 'mkt_settlements_with_cogs' };
    const work = workOf(models, [window, settlements], ['f1'], 'all', { pipeline, dates: touched });
    expect(work.windows.get(SIGHTINGS)).toEqual(new Map([[DE.id, [{ from: '2026-10-25', to: '2026-11-21' }]]]));
    expect(work.changed!.get(SIGHTINGS)).toEqual(new Map([[DE.id, [{ from: '2026-11-03', to: '2026-11-03' }]]]));
    expect(work.whole.has(SIGHTINGS)).toBe(false);
    // What reads it is rebuilt whole, as every upstream model of the first phase.
    expect(work.whole.has('intermediate.int_sku_asins')).toBe(true);
  });

  it('is not run when the table it follows has no window, though what reads it is', () => {
    const settlements = { ...window, table: 'mkt_settlements_with_cogs' };
    const work = workOf(models, [settlements], ['f1'], 'all');
    expect(work.windows.has(SIGHTINGS)).toBe(false);
    expect(work.whole.has(SIGHTINGS)).toBe(false);
    expect(work.whole.has('intermediate.int_sku_asins')).toBe(true);
  });
});
