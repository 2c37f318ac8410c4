import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Warehouse } from '../../src/db/warehouse.ts';
import { runModels } from '../../src/models/run-models.ts';
import { DE, makeHome, rows } from '../helpers/home.ts';
import { landOrders, orderLine } from '../helpers/profit.ts';
import { modelsDir } from '../../src/lib/project-paths.ts';

// stg_mkt__order_items' `increment.changed`: an order whose new lines each equal (every column but the lineage ones)
// a line of its last landed version, neither version having two lines of one SKU, is not taken in again; any other
// is. The rows of an order not taken in keep naming the file they were taken from.

const model = 'staging.stg_mkt__order_items';
const line = (order: string, sku: string, over: Record<string, string> = {}) =>
  orderLine({
    'amazon-order-id': order,
    sku,
    currency: 'EUR',
    'purchase-date': '2026-11-10T09:00:00+00:00',
    'last-updated-date': '2026-11-11T09:00:00+00:00',
    ...over,
  });
const W = line('W', 'SKU-W');
const X = [line('X', 'SKU-A'), line('X', 'SKU-B')];
const Y = line('Y', 'SKU-Y', { quantity: '1' });
const Z = line('Z', 'SKU-Z');

describe('a keyed model with `changed` (the orders a file changes)', () => {
  let wh: Warehouse;
  let dir: string;
  beforeEach(async () => ({ wh, dir } = await makeHome()));
  afterEach(async () => {
    wh.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Lands the lines as a new file and takes it in the way a pipeline run does; the file's id. */
  async function takeIn(
    name: string,
    lines: ReturnType<typeof line>[],
    modelsDir?: string,
    status = 'success',
  ): Promise<string> {
    await landOrders(wh, dir, DE, lines, name);
    const [{ id }] = (await rows(wh, `select id from control.landed_files order by landed_at desc limit 1`)) as [
      { id: string },
    ];
    const results = await runModels(wh, {
      modelsDir,
      work: { windows: new Map(), whole: new Set(), keyed: new Set([model]), newFiles: [id] },
    });
    expect(results.map((r) => `${r.model} ${r.status}`)).toEqual([`${model} ${status}`]);
    if (status !== 'success')
      expect(results[0]!.error).toMatch(/stg_mkt__order_items\.yml increment\.since: .*purchase_dat/);
    return id;
  }

  /** The file each order's lines name, and how many lines it has. */
  const files = (wh: Warehouse) =>
    rows(
      wh,
      `select order_id, list(distinct file_id order by file_id) as files, count(*)::integer as n from ${model} group by 1 order by 1`,
    );

  it('takes in the changed order only, not one whose lines come in another order or fewer', async () => {
    await landOrders(wh, dir, DE, [W, ...X, Y, Z], 'orders-1.tsv');
    expect((await runModels(wh, { select: [model], upstream: false, fullRefresh: true })).map((r) => r.status)).toEqual(
      ['success'],
    );
    const [{ id: f1 }] = (await rows(wh, `select id from control.landed_files`)) as [{ id: string }];

    // W, X and Z as they were, Y with another quantity: only Y is taken from f2.
    const f2 = await takeIn('orders-2.tsv', [W, ...X, { ...Y, quantity: '2' }, Z]);
    const before = [
      { order_id: 'W', files: [f1], n: 1 },
      { order_id: 'X', files: [f1], n: 2 },
      { order_id: 'Y', files: [f2], n: 1 },
      { order_id: 'Z', files: [f1], n: 1 },
    ];
    expect(await files(wh)).toEqual(before);
    expect(await rows(wh, `select quantity::integer as quantity from ${model} where order_id = 'Y'`)).toEqual([
      { quantity: 2 },
    ]);

    // X's two lines swapped, then X with one of its lines left out, Y as f2 had it: each line is one of the order's
    // last version (f2's), so nothing is taken in; a rebuild would give the same rows, naming other files.
    const f3 = await takeIn('orders-3.tsv', [X[1]!, X[0]!, { ...Y, quantity: '2' }]);
    await takeIn('orders-4.tsv', [X[0]!]);
    expect(await files(wh)).toEqual(before);

    // X's first line with another quantity: X is taken in; its other line's latest version is f3's (f3 is the last
    // file landed with it), as a rebuild from every file gives.
    const f5 = await takeIn('orders-5.tsv', [{ ...X[0]!, quantity: '3' }]);
    expect(await files(wh)).toEqual([before[0], { order_id: 'X', files: [f3, f5].sort(), n: 2 }, before[2], before[3]]);
    const incremental = await rows(wh, `select * exclude (file_id, line_number) from ${model} order by all`);
    await runModels(wh, { select: [model], upstream: false, fullRefresh: true });
    expect(await rows(wh, `select * exclude (file_id, line_number) from ${model} order by all`)).toEqual(incremental);
  });

  // Lines of one SKU are told apart by their order in the file: a version with two of them is never taken as repeated.
  it('takes in an order whose last version had two lines of one SKU, though its new line is one of them', async () => {
    const S = [line('S', 'SKU-S', { quantity: '1' }), line('S', 'SKU-S', { quantity: '2' })];
    await landOrders(wh, dir, DE, [...S, W], 'orders-1.tsv');
    expect((await runModels(wh, { select: [model], upstream: false, fullRefresh: true })).map((r) => r.status)).toEqual(
      ['success'],
    );

    // S's second line alone: it is now S's first line of SKU-S (the later landed version of that line wins), and
    // the second line keeps f1's: quantities 2 and 2, as a rebuild gives.
    await takeIn('orders-2.tsv', [S[1]!]);
    const quantities = `select order_item_id, quantity::integer as quantity from ${model} where order_id = 'S' order by 1`;
    expect(await rows(wh, quantities)).toEqual([
      { order_item_id: 'S/SKU-S', quantity: 2 },
      { order_item_id: 'S/SKU-S#2', quantity: 2 },
    ]);
    await runModels(wh, { select: [model], upstream: false, fullRefresh: true });
    expect(await rows(wh, quantities)).toEqual([
      { order_item_id: 'S/SKU-S', quantity: 2 },
      { order_item_id: 'S/SKU-S#2', quantity: 2 },
    ]);
  });

  // increment.since: a run reads the raw lines and deletes the model's from the least purchase date among the new
  // files' lines of the changed orders and the lines the model keeps for them; an older raw line lost to a kept one.
  it('replaces an order moved to an earlier purchase date, and keeps a kept line over a stale version of a later date', async () => {
    const V = line('V', 'SKU-V', { 'purchase-date': '2026-11-01T09:00:00+00:00' });
    await landOrders(wh, dir, DE, [V, W, ...X, Y, Z], 'orders-1.tsv');
    expect((await runModels(wh, { select: [model], upstream: false, fullRefresh: true })).map((r) => r.status)).toEqual(
      ['success'],
    );
    const [{ id: f1 }] = (await rows(wh, `select id from control.landed_files`)) as [{ id: string }];

    // W moved from 11-10 to 11-05 with quantity 4 (updated 11-12, later than f1's 11-11): f2's line replaces f1's.
    const f2 = await takeIn('orders-2.tsv', [
      {
        ...W,
        'purchase-date': '2026-11-05T09:00:00+00:00',
        'last-updated-date': '2026-11-12T09:00:00+00:00',
        quantity: '4',
      },
    ]);
    // Y filed on 11-20 with quantity 9 but updated 11-09, before f1's version (11-11): f1's line of 11-10 stays the
    // latest version, though it lies before the one purchase date f3 holds.
    await takeIn('orders-3.tsv', [
      {
        ...Y,
        'purchase-date': '2026-11-20T09:00:00+00:00',
        'last-updated-date': '2026-11-09T09:00:00+00:00',
        quantity: '9',
      },
    ]);
    const kept = `select order_id, file_id, strftime(purchased_at at time zone 'UTC', '%Y-%m-%d') as purchased, quantity::integer as quantity from ${model} where order_id in ('V', 'W', 'Y') order by 1`;
    expect(await rows(wh, kept)).toEqual([
      { order_id: 'V', file_id: f1, purchased: '2026-11-01', quantity: 1 },
      { order_id: 'W', file_id: f2, purchased: '2026-11-05', quantity: 4 },
      { order_id: 'Y', file_id: f1, purchased: '2026-11-10', quantity: 1 },
    ]);
    const incremental = await rows(wh, `select * from ${model} order by all`);
    await runModels(wh, { select: [model], upstream: false, fullRefresh: true });
    expect(await rows(wh, `select * from ${model} order by all`)).toEqual(incremental);
  });

  it("names increment.since when its column is not the raw table's, and keeps the rows", async () => {
    const models = join(dir, 'models');
    cpSync(modelsDir, models, { recursive: true });
    const yml = join(models, 'staging', 'stg_mkt__order_items.yml');
    writeFileSync(yml, readFileSync(yml, 'utf8').replace('since: {raw: purchase_date,', 'since: {raw: purchase_dat,'));
    await landOrders(wh, dir, DE, [W, ...X, Y, Z], 'orders-1.tsv');
    expect(
      (await runModels(wh, { modelsDir: models, select: [model], upstream: false, fullRefresh: true })).map(
        (r) => r.status,
      ),
    ).toEqual(['success']);
    const before = await rows(wh, `select * from ${model} order by all`);
    await takeIn('orders-2.tsv', [{ ...Y, quantity: '2' }], models, 'error');
    expect(await rows(wh, `select * from ${model} order by all`)).toEqual(before);
  });

  // An order's last version before is looked for among the lines purchased since the new ones' first. An order whose
  // new version moves its purchase date later is not found there: it is taken in, and loses its row of the earlier
  // date.
  it('replaces an order whose new version moves its purchase date', async () => {
    const V = line('V', 'SKU-V', { 'purchase-date': '2026-11-01T09:00:00+00:00' });
    await landOrders(wh, dir, DE, [V, W, ...X, Y, Z], 'orders-1.tsv');
    expect((await runModels(wh, { select: [model], upstream: false, fullRefresh: true })).map((r) => r.status)).toEqual(
      ['success'],
    );
    const [{ id: f1 }] = (await rows(wh, `select id from control.landed_files`)) as [{ id: string }];

    // W on 11-12, not 11-10: its row of 11-10 goes, V's of 11-01 stays. (One order of five: the run replaces that
    // order's rows, it does not rebuild the table.)
    const f2 = await takeIn('orders-2.tsv', [{ ...W, 'purchase-date': '2026-11-12T09:00:00+00:00' }]);
    const purchased = `select order_id, file_id, strftime(purchased_at at time zone 'UTC', '%Y-%m-%d %H:%M') as purchased from ${model} where order_id in ('V', 'W') order by 1`;
    expect(await rows(wh, purchased)).toEqual([
      { order_id: 'V', file_id: f1, purchased: '2026-11-01 09:00' },
      { order_id: 'W', file_id: f2, purchased: '2026-11-12 09:00' },
    ]);
    expect(await files(wh)).toEqual([
      { order_id: 'V', files: [f1], n: 1 },
      { order_id: 'W', files: [f2], n: 1 },
      { order_id: 'X', files: [f1], n: 2 },
      { order_id: 'Y', files: [f1], n: 1 },
      { order_id: 'Z', files: [f1], n: 1 },
    ]);
    const incremental = await rows(wh, `select * from ${model} order by all`);
    await runModels(wh, { select: [model], upstream: false, fullRefresh: true });
    expect(await rows(wh, `select * from ${model} order by all`)).toEqual(incremental);
  });
});
