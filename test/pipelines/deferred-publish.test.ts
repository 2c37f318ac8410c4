import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findPipeline, loadPipelines } from '../../src/pipelines/pipeline-config.ts';
import { publishDeferred, runPipeline } from '../../src/pipelines/run-pipeline.ts';
import { readManifest, withSnapshot } from '../../src/publish/open-snapshot.ts';
import { makeHome, rows, US, writeOrders } from '../helpers/home.ts';
import { orderLine } from '../helpers/profit.ts';

// `mktdata run` runs every pipeline and publishes once after them all. Unit costs feed two pipelines (listings owns
// mkt_cogs, profit computes COGS into its tables): a snapshot published between the two would show the new costs in
// mkt_cogs beside profit computed with the old ones. A run killed between them must leave the previous snapshot.
const NOW = new Date('2026-11-20T18:30:00Z'); // 10:30 in Los Angeles
const cogs = (cost: string) =>
  `asin,sku,costCurrency,fromDate,costItemValue,costItemShippingValue,itemSupplierName\nB000000001,SKU-A,USD,2026-01-01,${cost},0.00,\n`;

describe('pipelines run with deferPublish', () => {
  it('publish nothing of their own; publishDeferred publishes once, and the snapshot has the new costs everywhere', async () => {
    const { home, wh } = await makeHome();
    const pipelines = loadPipelines();
    const drop = (source: string, name: string, write: (folder: string) => void) => {
      const folder = join(home.landing, US.id, source);
      mkdirSync(folder, { recursive: true });
      write(folder);
    };
    // 2026-11-10 19:00Z is 11:00 in Los Angeles: one unit of SKU-A at 10.00.
    drop('GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL', 'orders.tsv', (f) =>
      writeOrders(f, 'orders.tsv', [
        orderLine({
          'amazon-order-id': 'A-1',
          'purchase-date': '2026-11-10T19:00:00+00:00',
          'last-updated-date': '2026-11-10T19:00:00+00:00',
        }),
      ]),
    );
    drop('cogs', 'cogs-1.csv', (f) => writeFileSync(join(f, 'cogs-1.csv'), cogs('4.00')));
    for (const name of ['listings', 'profit']) await runPipeline(wh, findPipeline(pipelines, name), { now: NOW });
    const before = readManifest(home)!.snapshotId;

    drop('cogs', 'cogs-2.csv', (f) => writeFileSync(join(f, 'cogs-2.csv'), cogs('6.00')));
    const listings = await runPipeline(wh, findPipeline(pipelines, 'listings'), { now: NOW, deferPublish: true });
    expect(listings).toMatchObject({ status: 'success', published: false, unpublished: true });
    // Killed here, the published snapshot is still the previous one.
    expect(readManifest(home)!.snapshotId).toBe(before);
    const profit = await runPipeline(wh, findPipeline(pipelines, 'profit'), { now: NOW, deferPublish: true });
    expect(profit).toMatchObject({ status: 'success', published: false, unpublished: true });
    expect(readManifest(home)!.snapshotId).toBe(before);

    await publishDeferred(wh, [listings, profit]);
    expect(readManifest(home)!.snapshotId).not.toBe(before);
    expect(
      await rows(wh, `select pipeline, published from control.pipeline_runs where id in ($a, $b) order by 1`, {
        a: listings.runId,
        b: profit.runId,
      }),
    ).toEqual([
      { pipeline: 'listings', published: true },
      { pipeline: 'profit', published: true },
    ]);
    // The new unit cost, 6.00, in mkt_cogs and in the profit of the one unit sold on 2026-11-10.
    await wh.close();
    expect(await publishedCosts(home)).toEqual({ cogs: '6.0000', profit: '6.0000' });
  });

  it('bring the snapshot up to date on the next run when the run that changed the tables was killed before publishing', async () => {
    const { home, wh } = await makeHome();
    const pipelines = loadPipelines();
    const folder = join(home.landing, US.id, 'GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL');
    mkdirSync(folder, { recursive: true });
    writeOrders(folder, 'orders.tsv', [
      orderLine({
        'amazon-order-id': 'A-1',
        'purchase-date': '2026-11-10T19:00:00+00:00',
        'last-updated-date': '2026-11-10T19:00:00+00:00',
      }),
    ]);
    mkdirSync(join(home.landing, US.id, 'cogs'), { recursive: true });
    writeFileSync(join(home.landing, US.id, 'cogs', 'cogs-1.csv'), cogs('4.00'));
    for (const name of ['listings', 'profit']) await runPipeline(wh, findPipeline(pipelines, name), { now: NOW });
    const before = readManifest(home)!.snapshotId;
    writeFileSync(join(home.landing, US.id, 'cogs', 'cogs-2.csv'), cogs('6.00'));
    // The killed command: both pipelines ran, it died before its one publish.
    for (const name of ['listings', 'profit'])
      await runPipeline(wh, findPipeline(pipelines, name), { now: NOW, deferPublish: true });
    expect(readManifest(home)!.snapshotId).toBe(before);
    // The rerun has nothing new to land or build, yet publishes what the killed one left.
    const rerun = [];
    for (const name of ['listings', 'profit'])
      rerun.push(await runPipeline(wh, findPipeline(pipelines, name), { now: NOW, deferPublish: true }));
    expect(rerun.map((r) => r.unpublished)).toEqual([false, false]);
    await publishDeferred(wh, rerun);
    expect(readManifest(home)!.snapshotId).not.toBe(before);
    await wh.close();
    expect(await publishedCosts(home)).toEqual({ cogs: '6.0000', profit: '6.0000' });
  });
});

/**
 * The highest unit cost in mkt_cogs and the COGS of 2026-11-10 in the profit by SKU, as the published snapshot has
 * them.
 */
const publishedCosts = (home: Parameters<typeof withSnapshot>[0]) =>
  withSnapshot(home, async (sql) => ({
    cogs: (await sql.runAndReadAll(`select max(cost_item_value)::varchar from mkt_cogs`)).getRowsJson()[0]![0],
    profit: (
      await sql.runAndReadAll(`select cogs_total::varchar from mkt_profit_by_sku_and_date where date = '2026-11-10'`)
    ).getRowsJson()[0]![0],
  }));
