import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Warehouse } from '../../src/db/warehouse.ts';
import type { Home } from '../../src/home.ts';
import type { ModelResult } from '../../src/models/run-models.ts';
import { findPipeline, loadPipelines } from '../../src/pipelines/pipeline-config.ts';
import { planRun, runPipeline } from '../../src/pipelines/run-pipeline.ts';
import { readManifest, withSnapshot } from '../../src/publish/open-snapshot.ts';
import { DE, US, makeHome, rows, writeOrders, type OrderLine } from '../helpers/home.ts';
import { orderLine } from '../helpers/profit.ts';

// A profit pipeline run on a real temporary home: files wait in landing/, the run lands them, plans, rebuilds,
// publishes and records its windows. DE is Europe/Berlin: CEST (UTC+2) until 25 Oct 2026, CET (UTC+1) after.

const ORDERS = 'GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL';
const pipeline = findPipeline(loadPipelines(), 'profit');
const CATALOG_TABLES = pipeline.tables.map((t) => t.name);

const FIRST_LOAD = new Date('2026-11-20T09:30:00Z'); // 10:30 on 20 Nov in Berlin
const DAILY = new Date('2026-11-21T09:30:00Z'); // 10:30 on 21 Nov
const AFTERNOON = new Date('2026-11-21T12:05:00Z'); // 13:05 on 21 Nov: the 1pm refresh slot
const SAME_SLOT = new Date('2026-11-21T12:20:00Z'); // 13:20 on 21 Nov: still the 1pm slot

const de = (over: OrderLine) => orderLine({ currency: 'EUR', sku: 'SKU-A', asin: 'B0DE00000A', ...over });
/**
 * 21 Nov - 40 days = 12 Oct (21 Nov - 21 = 31 Oct, - 19 = 12 Oct). 10:00Z is 12:00 in Berlin (CEST): local date 12 Oct.
 */
const OLD = de({
  'amazon-order-id': 'O-OLD',
  'purchase-date': '2026-10-12T10:00:00+00:00',
  'last-updated-date': '2026-10-12T10:00:00+00:00',
  quantity: '1',
  'item-price': '10.00',
});
const orders: OrderLine[] = [
  OLD,
  // 15:00Z is 17:00 in Berlin on 12 Oct.
  de({
    'amazon-order-id': 'O-OLD-2',
    'purchase-date': '2026-10-12T15:00:00+00:00',
    'last-updated-date': '2026-10-12T15:00:00+00:00',
    quantity: '2',
    'item-price': '40.00',
    'shipping-price': '4.00',
  }),
  de({
    'amazon-order-id': 'O-NEW',
    sku: 'SKU-B',
    asin: 'B0DE00000B',
    'purchase-date': '2026-11-15T09:00:00+00:00',
    'last-updated-date': '2026-11-15T09:00:00+00:00',
    'item-price': '25.00',
  }),
  // 23:30Z on 19 Nov is 00:30 on 20 Nov in Berlin (CET).
  de({
    'amazon-order-id': 'O-MIDNIGHT',
    'purchase-date': '2026-11-19T23:30:00+00:00',
    'last-updated-date': '2026-11-19T23:30:00+00:00',
    'item-price': '12.00',
  }),
];

/** Puts an orders file in the home's landing folder for a connection, where runPipeline lands it from. */
function drop(home: Home, name: string, lines: OrderLine[], connectionId = DE.id): string {
  const folder = join(home.landing, connectionId, ORDERS);
  mkdirSync(folder, { recursive: true });
  return writeOrders(folder, name, lines);
}

const windowsOf = (wh: Warehouse, runId: string, table: string, connectionId = DE.id) =>
  rows(
    wh,
    `select kind, stage, local_date::varchar as local_date, date_from::varchar as date_from, date_to::varchar as date_to, status
    from control.run_windows where run_id = $run and table_name = $table and connection_id = $connection order by kind, stage nulls first, date_from`,
    { run: runId, table, connection: connectionId },
  );

const skuDays = (wh: Warehouse) =>
  rows(
    wh,
    `select date::varchar as date, sku, total_sales::varchar as total_sales, total_units_sold::bigint::varchar as units
    from marts.mkt_profit_by_sku_and_date where seller_or_vendor_id = $c order by date, sku`,
    { c: DE.id },
  );

/** Every row of every catalog table of the pipeline, in a stable order. */
async function catalogRows(wh: Warehouse) {
  const all: Record<string, unknown[]> = {};
  for (const table of CATALOG_TABLES) all[table] = await rows(wh, `select * from marts.${table} order by all`);
  return all;
}

describe('runPipeline: first load, daily run, late data', () => {
  let home: Home;
  let wh: Warehouse;
  let dir: string;
  let first: Awaited<ReturnType<typeof runPipeline>>;

  beforeAll(async () => {
    ({ home, wh, dir } = await makeHome());
    drop(home, 'orders-1.tsv', orders);
    first = await runPipeline(wh, pipeline, { now: FIRST_LOAD });
  });
  afterAll(async () => {
    wh?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('a) first load: INITIAL windows in two stages, the connection COMPLETE, the file archived, a snapshot published', async () => {
    expect(first).toMatchObject({ status: 'success', landed: 1, refused: 0, published: true });
    expect(await windowsOf(wh, first.runId, 'mkt_order_items_with_cogs')).toEqual([
      // 20 Nov - 29 = 22 Oct (20 Nov - 19 = 1 Nov, - 10 = 22 Oct): the most recent 30 days.
      {
        kind: 'INITIAL',
        stage: 'FIRST_STAGE',
        local_date: '2026-11-20',
        date_from: '2026-10-22',
        date_to: '2026-11-20',
        status: 'success',
      },
      // 20 Nov 2026 - 729 = 21 Nov 2024 (730 days = 365 + 365, no 29 Feb between); 20 Nov - 30 = 21 Oct.
      {
        kind: 'INITIAL',
        stage: 'SECOND_STAGE',
        local_date: '2026-11-20',
        date_from: '2024-11-21',
        date_to: '2026-10-21',
        status: 'success',
      },
    ]);
    // The profit table follows the union of the dated tables' windows, stage by stage (the second stages of
    // settlements, returns and ads, which read the order items, run to today: 2024-11-21..2026-11-20).
    expect(await windowsOf(wh, first.runId, 'mkt_profit_by_sku_and_date')).toEqual([
      {
        kind: 'CONTINUOUS',
        stage: 'FIRST_STAGE',
        local_date: '2026-11-20',
        date_from: '2026-10-22',
        date_to: '2026-11-20',
        status: 'success',
      },
      {
        kind: 'CONTINUOUS',
        stage: 'SECOND_STAGE',
        local_date: '2026-11-20',
        date_from: '2024-11-21',
        date_to: '2026-11-20',
        status: 'success',
      },
    ]);
    // Every window of the run succeeded, for both connections (US has no data yet: its windows are empty).
    expect(
      await rows(wh, `select distinct status from control.run_windows where run_id = $run`, { run: first.runId }),
    ).toEqual([{ status: 'success' }]);
    expect(await rows(wh, `select id, initial_load_stage from control.connections order by id`)).toEqual([
      { id: US.id, initial_load_stage: 'COMPLETE' },
      { id: DE.id, initial_load_stage: 'COMPLETE' },
    ]);
    expect(
      await rows(wh, `select status, landed_files, published, error from control.pipeline_runs where id = $run`, {
        run: first.runId,
      }),
    ).toEqual([{ status: 'success', landed_files: 1, published: true, error: null }]);

    // The file left landing/ for landed/<connection>/<source>/<file id>-<name>.
    expect(readdirSync(join(home.landing, DE.id, ORDERS))).toEqual([]);
    const archived = readdirSync(join(home.root, 'landed', DE.id, ORDERS));
    expect(archived).toHaveLength(1);
    expect(archived[0]).toMatch(/-orders-1\.tsv$/);
    const [landed] = await rows(wh, `select id from control.landed_files where connection_id = $c and source = $s`, {
      c: DE.id,
      s: ORDERS,
    });
    expect(archived[0]).toBe(`${landed!.id}-orders-1.tsv`);
    // The file is taken in by the pipeline.
    expect(await rows(wh, `select file_id, run_id from control.pipeline_files where pipeline = 'profit'`)).toEqual([
      { file_id: landed!.id, run_id: first.runId },
    ]);

    // Profit rows, per local date: 12 Oct: O-OLD 10.00 + O-OLD-2 40.00 + 4.00 shipping = 54.00, units 1 + 2 = 3;
    // 15 Nov: O-NEW 25.00; 20 Nov: O-MIDNIGHT (00:30 local) 12.00.
    const expected = [
      { date: '2026-10-12', sku: 'SKU-A', total_sales: '54.0000', units: '3' },
      { date: '2026-11-15', sku: 'SKU-B', total_sales: '25.0000', units: '1' },
      { date: '2026-11-20', sku: 'SKU-A', total_sales: '12.0000', units: '1' },
    ];
    expect(await skuDays(wh)).toEqual(expected);

    // The published snapshot holds the same rows.
    expect(existsSync(home.published)).toBe(true);
    expect(readManifest(home)?.tables).toEqual(
      expect.arrayContaining([
        { name: 'mkt_profit_by_sku_and_date', rows: 3 },
        { name: 'mkt_order_items_with_cogs', rows: 4 },
      ]),
    );
    const published = await withSnapshot(home, async (sql) =>
      (
        await sql.runAndReadAll(`select date::varchar as date, sku, total_sales::varchar as total_sales, total_units_sold::bigint::varchar as units
        from mkt_profit_by_sku_and_date where seller_or_vendor_id = '${DE.id}' order by date, sku`)
      ).getRowObjectsJson(),
    );
    expect(published).toEqual(expected);
  });

  it('b) late data 40 days back rebuilds that day; a run in the same slot with nothing new rebuilds nothing', async () => {
    // The next day's first refresh: RECURRING_DAILY, 21 Nov - 27 = 25 Oct.
    const daily = await runPipeline(wh, pipeline, { now: DAILY });
    expect(daily.status).toBe('success');
    expect(await windowsOf(wh, daily.runId, 'mkt_order_items_with_cogs')).toEqual([
      {
        kind: 'RECURRING_DAILY',
        stage: null,
        local_date: '2026-11-21',
        date_from: '2026-10-25',
        date_to: '2026-11-21',
        status: 'success',
      },
    ]);

    // O-OLD revised: 3 units for 30.00, updated on 21 Nov. It was bought on 12 Oct, 40 days before 21 Nov.
    drop(home, 'orders-2.tsv', [
      { ...OLD, quantity: '3', 'item-price': '30.00', 'last-updated-date': '2026-11-21T08:00:00+00:00' },
    ]);
    const ran: ModelResult[] = [];
    const late = await runPipeline(wh, pipeline, { now: AFTERNOON, onResult: (r) => ran.push(r) });
    expect(late).toMatchObject({ status: 'success', landed: 1, published: true });
    expect(ran.filter((r) => r.status !== 'success')).toEqual([]);
    // 13:05: the 1pm slot's REFRESH of today, and 12 Oct as late data (outside every daily window).
    expect(await windowsOf(wh, late.runId, 'mkt_order_items_with_cogs')).toEqual([
      {
        kind: 'LATE_DATA',
        stage: null,
        local_date: '2026-11-21',
        date_from: '2026-10-12',
        date_to: '2026-10-12',
        status: 'success',
      },
      {
        kind: 'REFRESH',
        stage: null,
        local_date: '2026-11-21',
        date_from: '2026-11-21',
        date_to: '2026-11-21',
        status: 'success',
      },
    ]);
    expect(await windowsOf(wh, late.runId, 'mkt_profit_by_sku_and_date')).toEqual([
      {
        kind: 'CONTINUOUS',
        stage: null,
        local_date: '2026-11-21',
        date_from: '2026-11-21',
        date_to: '2026-11-21',
        status: 'success',
      },
      {
        kind: 'LATE_DATA',
        stage: null,
        local_date: '2026-11-21',
        date_from: '2026-10-12',
        date_to: '2026-10-12',
        status: 'success',
      },
    ]);
    // The returns table does not read orders: no late data there. US got nothing landed: no late data either.
    expect(
      late.windows
        .filter((w) => w.kind === 'LATE_DATA')
        .map((w) => `${w.connectionId === DE.id ? 'DE' : 'US'} ${w.table}`)
        .sort(),
    ).toEqual([
      'DE mkt_ads_performance_by_asin_and_date',
      'DE mkt_order_items_with_cogs',
      'DE mkt_profit_by_date',
      'DE mkt_profit_by_sku_and_date',
      'DE mkt_sales_and_traffic_with_cogs',
      'DE mkt_settlements_with_cogs',
    ]);
    // 12 Oct: O-OLD now 30.00 + O-OLD-2 44.00 = 74.00; units 3 + 2 = 5. The other days are unchanged.
    expect(await skuDays(wh)).toEqual([
      { date: '2026-10-12', sku: 'SKU-A', total_sales: '74.0000', units: '5' },
      { date: '2026-11-15', sku: 'SKU-B', total_sales: '25.0000', units: '1' },
      { date: '2026-11-20', sku: 'SKU-A', total_sales: '12.0000', units: '1' },
    ]);
    expect(
      await rows(
        wh,
        `select total_sales::varchar as total_sales from marts.mkt_profit_by_date where seller_or_vendor_id = $c and date = '2026-10-12'`,
        { c: DE.id },
      ),
    ).toEqual([{ total_sales: '74.0000' }]);
    // The snapshot, published from the last one plus the rebuilt windows, says the same.
    expect(readManifest(home)?.incremental).toBe(true);
    expect(
      await withSnapshot(home, async (sql) =>
        (
          await sql.runAndReadAll(
            `select total_sales::varchar as total_sales from mkt_profit_by_date where seller_or_vendor_id = '${DE.id}' and date = '2026-10-12'`,
          )
        ).getRowObjectsJson(),
      ),
    ).toEqual([{ total_sales: '74.0000' }]);

    // 13:20, same slot, nothing new in landing/: nothing planned, no model run, nothing published.
    const models: ModelResult[] = [];
    const again = await runPipeline(wh, pipeline, { now: SAME_SLOT, onResult: (r) => models.push(r) });
    expect(again).toMatchObject({ status: 'success', landed: 0, windows: [], published: false });
    expect(models).toHaveLength(0);
    expect(
      await rows(wh, `select count(*)::integer as n from control.run_windows where run_id = $run`, {
        run: again.runId,
      }),
    ).toEqual([{ n: 0 }]);
  });
});

describe('planRun on a fresh home', () => {
  it('plans in each marketplace’s local date before any build made seeds.marketplaces', async () => {
    const { wh, dir } = await makeHome();
    try {
      // 03:00Z on 21 Nov: 19:00 on 20 Nov in Los Angeles (PST, UTC-8), 04:00 on 21 Nov in Berlin (CET, UTC+1).
      const { windows } = await planRun(wh, pipeline, { now: new Date('2026-11-21T03:00:00Z') });
      const first = (connectionId: string) =>
        windows.find(
          (w) =>
            w.connectionId === connectionId && w.table === 'mkt_order_items_with_cogs' && w.stage === 'FIRST_STAGE',
        );
      // 20 Nov - 29 = 22 Oct; 21 Nov - 29 = 23 Oct.
      expect(first(US.id)).toMatchObject({ localDate: '2026-11-20', from: '2026-10-22', to: '2026-11-20' });
      expect(first(DE.id)).toMatchObject({ localDate: '2026-11-21', from: '2026-10-23', to: '2026-11-21' });
    } finally {
      wh.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('runPipeline: an interrupted run', () => {
  let interrupted: { home: Home; wh: Warehouse; dir: string };
  let reference: { home: Home; wh: Warehouse; dir: string };
  beforeAll(async () => {
    interrupted = await makeHome();
    reference = await makeHome();
  });
  afterAll(async () => {
    for (const h of [interrupted, reference]) {
      h?.wh.close();
      if (h?.dir) rmSync(h.dir, { recursive: true, force: true });
    }
  });

  it('c) a run that dies mid-way is recorded as interrupted, and the next run ends where an uninterrupted one does', async () => {
    const usLines = [
      orderLine({
        'amazon-order-id': 'U-1',
        'purchase-date': '2026-11-18T20:00:00+00:00',
        'last-updated-date': '2026-11-18T20:00:00+00:00',
      }),
    ];
    for (const h of [interrupted, reference]) {
      drop(h.home, 'orders-1.tsv', orders);
      drop(h.home, 'orders-us.tsv', usLines, US.id);
    }

    const seen: string[] = [];
    const dying = runPipeline(interrupted.wh, pipeline, {
      now: FIRST_LOAD,
      onModel: (model) => {
        seen.push(model.id);
        if (model.id === 'marts.mkt_profit_by_sku_and_date') throw new Error('killed');
      },
    });
    await expect(dying).rejects.toThrow('killed');
    // It got as far as the order items' first stage, which was committed: the 30 days to 20 Nov hold DE's 15 and
    // 20 Nov orders and US's 18 Nov one (12:00 in Los Angeles); DE's 12 Oct orders belong to the second stage.
    expect(seen).toContain('marts.mkt_order_items_with_cogs');
    expect(await rows(interrupted.wh, `select mkt_order_id from marts.mkt_order_items_with_cogs order by all`)).toEqual(
      [{ mkt_order_id: 'O-MIDNIGHT' }, { mkt_order_id: 'O-NEW' }, { mkt_order_id: 'U-1' }],
    );
    const [dead] = await rows(interrupted.wh, `select id, status from control.pipeline_runs`);
    expect(dead).toMatchObject({ status: 'running' });
    // The files were landed and archived, but not taken in by the pipeline.
    expect(await rows(interrupted.wh, `select count(*)::integer as n from control.pipeline_files`)).toEqual([{ n: 0 }]);
    expect(readdirSync(join(interrupted.home.landing, DE.id, ORDERS))).toEqual([]);

    // The next run, same clock: it finds the first one still running, marks it interrupted, and redoes its windows.
    const rerun = await runPipeline(interrupted.wh, pipeline, { now: FIRST_LOAD });
    expect(rerun).toMatchObject({ status: 'success', landed: 0, published: true });
    expect(
      await rows(interrupted.wh, `select status, error from control.pipeline_runs where id = $run`, {
        run: dead!.id as string,
      }),
    ).toEqual([{ status: 'failed', error: 'interrupted' }]);
    expect(
      await rows(
        interrupted.wh,
        `select distinct status, error, retried from control.run_windows where run_id = $run`,
        { run: dead!.id as string },
      ),
    ).toEqual([{ status: 'error', error: 'interrupted', retried: true }]);
    // Nothing succeeded before: the rerun is a first load again, plus the retried windows.
    expect(
      (await windowsOf(interrupted.wh, rerun.runId, 'mkt_order_items_with_cogs')).map(
        (w) => `${w.kind} ${w.stage} ${w.date_from}..${w.date_to} ${w.status}`,
      ),
    ).toEqual([
      'INITIAL FIRST_STAGE 2026-10-22..2026-11-20 success',
      'INITIAL SECOND_STAGE 2024-11-21..2026-10-21 success',
      'RETRY FIRST_STAGE 2026-10-22..2026-11-20 success',
      'RETRY SECOND_STAGE 2024-11-21..2026-10-21 success',
    ]);
    expect(await rows(interrupted.wh, `select id, initial_load_stage from control.connections order by id`)).toEqual([
      { id: US.id, initial_load_stage: 'COMPLETE' },
      { id: DE.id, initial_load_stage: 'COMPLETE' },
    ]);
    expect(await rows(interrupted.wh, `select count(*)::integer as n from control.pipeline_files`)).toEqual([{ n: 2 }]);

    const straight = await runPipeline(reference.wh, pipeline, { now: FIRST_LOAD });
    expect(straight.status).toBe('success');

    const got = await catalogRows(interrupted.wh);
    const want = await catalogRows(reference.wh);
    expect(want['mkt_order_items_with_cogs']).toHaveLength(5);
    expect(want['mkt_profit_by_sku_and_date']).toHaveLength(4);
    expect(want['mkt_profit_by_date']).toHaveLength(4);
    for (const table of CATALOG_TABLES) expect(got[table], table).toEqual(want[table]);

    // Neither home has anything left to do in this slot.
    for (const h of [interrupted, reference])
      expect((await planRun(h.wh, pipeline, { now: FIRST_LOAD })).windows).toEqual([]);
  });
});

describe('runPipeline: an order whose new version moves to another date', () => {
  it('rebuilds the date it left, so the order is on its new date only', async () => {
    const { home, wh, dir } = await makeHome();
    try {
      // O-MOVED bought on 15 Nov (09:00Z is 10:00 in Berlin); a later version says 16 Nov, as if corrected.
      drop(home, 'orders-1.tsv', [
        de({
          'amazon-order-id': 'O-MOVED',
          'purchase-date': '2026-11-15T09:00:00+00:00',
          'last-updated-date': '2026-11-15T09:00:00+00:00',
          'item-price': '25.00',
        }),
      ]);
      await runPipeline(wh, pipeline, { now: FIRST_LOAD });
      drop(home, 'orders-2.tsv', [
        de({
          'amazon-order-id': 'O-MOVED',
          'purchase-date': '2026-11-16T09:00:00+00:00',
          'last-updated-date': '2026-11-21T08:00:00+00:00',
          'item-price': '25.00',
        }),
      ]);
      // 21 Nov's daily window (25 Oct..21 Nov) holds both dates anyway: the afternoon refresh of 21 Nov only today's.
      await runPipeline(wh, pipeline, { now: DAILY });
      drop(home, 'orders-3.tsv', [
        de({
          'amazon-order-id': 'O-MOVED',
          'purchase-date': '2026-10-12T09:00:00+00:00',
          'last-updated-date': '2026-11-21T11:00:00+00:00',
          'item-price': '25.00',
        }),
      ]);
      const late = await runPipeline(wh, pipeline, { now: AFTERNOON });
      // The version on 12 Oct (outside every window) is late data on 12 Oct, and on the date the order is on now,
      // which it leaves: 16 Nov. (15 Nov, the first version's date, shows nothing since the daily run.)
      expect(
        late.windows
          .filter((w) => w.table === 'mkt_order_items_with_cogs' && w.kind === 'LATE_DATA')
          .map((w) => `${w.from}..${w.to}`)
          .sort(),
      ).toEqual(['2026-10-12..2026-10-12', '2026-11-16..2026-11-16']);
      expect(await rows(wh, `select date::varchar as date, mkt_order_id from marts.mkt_order_items_with_cogs`)).toEqual(
        [{ date: '2026-10-12', mkt_order_id: 'O-MOVED' }],
      );
      expect(await skuDays(wh)).toEqual([{ date: '2026-10-12', sku: 'SKU-A', total_sales: '25.0000', units: '1' }]);
    } finally {
      wh.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
