import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { closeSync, existsSync, linkSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { Warehouse } from '../../src/db/warehouse.ts';
import type { Home } from '../../src/home.ts';
import { runModels } from '../../src/models/run-models.ts';
import { publish } from '../../src/publish/publish.ts';
import { withSnapshot } from '../../src/publish/open-snapshot.ts';
import { land, makeHome, US, writeOrders } from '../helpers/home.ts';

// A publish starts from the spare, the snapshot before the published one, and brings it up to date; the snapshot it
// replaces becomes the spare. It never writes into a file a reader may still have open.

const ORDERS = 'GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL';
const line = (id: string, date: string, quantity = '1') => ({
  'amazon-order-id': id,
  'purchase-date': `${date}T12:00:00+00:00`,
  'order-status': 'Shipped',
  sku: 'SKU-A',
  quantity,
  currency: 'USD',
});

describe('the spare snapshot', () => {
  let wh: Warehouse;
  let home: Home;
  let dir: string;
  let files = 0;
  const spare = () => join(home.publishedDir, '.spare.duckdb');
  const ino = (path: string) => statSync(path).ino;
  /** Lands one more order on `date`, builds that date and publishes. */
  async function orderAndPublish(id: string, date: string) {
    await land(wh, ORDERS, US, writeOrders(dir, `o-${files++}.tsv`, [line(id, date)]));
    await runModels(wh, { from: date, to: date });
    return publish(wh);
  }
  const ordersPublished = async () =>
    withSnapshot(home, async (db) =>
      (await db.runAndReadAll(`select mkt_order_id from mkt_order_items_with_cogs order by 1`)).getRowsJson().flat(),
    );

  beforeEach(async () => {
    ({ wh, home, dir } = await makeHome());
    await land(wh, ORDERS, US, writeOrders(dir, 'first.tsv', [line('A', '2026-03-01')]));
    await runModels(wh);
    await publish(wh);
  });
  afterEach(async () => wh.close());

  it('is brought up to date with the changes of the last two publishes, and becomes the published file', async () => {
    const first = ino(home.published);
    // No spare yet: the second publish copies the first snapshot, which it then keeps as the spare.
    expect((await orderAndPublish('B', '2026-03-02')).incremental).toBe(true);
    expect(ino(spare())).toBe(first);
    const second = ino(home.published);
    // The third starts from the first snapshot's file: it gets B (the second publish's change) and C.
    expect((await orderAndPublish('C', '2026-03-03')).incremental).toBe(true);
    expect(ino(home.published)).toBe(first);
    expect(ino(spare())).toBe(second);
    expect(await ordersPublished()).toEqual(['A', 'B', 'C']);
    // And the fourth from the second's, with C and D.
    await orderAndPublish('D', '2026-03-01');
    expect(ino(home.published)).toBe(second);
    expect(await ordersPublished()).toEqual(['A', 'B', 'C', 'D']);
    expect(await ordersPublished()).toEqual(await warehouseOrders());
  });

  it('is left to a reader in another process that still has it open: the publish copies the published file', async () => {
    await orderAndPublish('B', '2026-03-02');
    // The reader opened the first snapshot (now the spare) and keeps it open.
    const reader = spawn('node', [
      '-e',
      `
      const { DuckDBInstance } = require('@duckdb/node-api');
      DuckDBInstance.create(${JSON.stringify(spare())}, { access_mode: 'READ_ONLY' }).then(async (i) => {
        const c = await i.connect();
        const read = async () => console.log(JSON.stringify((await c.runAndReadAll('select mkt_order_id from mkt_order_items_with_cogs order by 1')).getRowsJson().flat()));
        await read();
        process.stdin.on('data', () => read().then(() => process.exit(0)));
      });`,
    ]);
    const said: string[] = [];
    const nextLine = () =>
      new Promise<string>((done) => reader.stdout.once('data', (d: Buffer) => done(d.toString().trim())));
    said.push(await nextLine());
    const held = ino(spare());
    await orderAndPublish('C', '2026-03-03');
    expect(ino(home.published)).not.toBe(held);
    expect(await ordersPublished()).toEqual(['A', 'B', 'C']);
    // The reader still reads the first snapshot, whole.
    reader.stdin.write('again\n');
    said.push(await nextLine());
    expect(said).toEqual(['["A"]', '["A"]']);
  });

  it('is dropped when it was damaged since it was published: the publish copies the published file', async () => {
    await orderAndPublish('B', '2026-03-02');
    // Its headers overwritten with zeros while its size and time stay the noted ones (as a disk that lost a write
    // leaves it; here the note is brought to the file's new time).
    const fd = openSync(spare(), 'r+');
    writeSync(fd, Buffer.alloc(12288), 0, 12288, 0);
    closeSync(fd);
    const { size, mtimeMs } = statSync(spare());
    await wh.sql.run(
      `update control.settings set value = json_merge_patch(value, $file) where name = 'spare_snapshot'`,
      { file: JSON.stringify({ file: { size, mtimeMs } }) },
    );
    const second = ino(home.published);
    expect((await orderAndPublish('C', '2026-03-03')).incremental).toBe(true);
    expect(ino(spare())).toBe(second);
    expect(await ordersPublished()).toEqual(['A', 'B', 'C']);
  });

  it('is left to a reader in this process that may still have it open', async () => {
    const first = ino(home.published);
    expect(await ordersPublished()).toEqual(['A']); // this process's instance of the first snapshot stays open a while
    await orderAndPublish('B', '2026-03-02');
    await orderAndPublish('C', '2026-03-03');
    expect(ino(home.published)).not.toBe(first);
    expect(await ordersPublished()).toEqual(['A', 'B', 'C']);
  });

  it('is not started from while it is another name of the published file (a publish killed between the two)', async () => {
    await orderAndPublish('B', '2026-03-02');
    // The second snapshot named the spare as well, as a publish killed after linking it leaves it.
    const manifest = JSON.parse(readFileSync(join(home.publishedDir, 'manifest.json'), 'utf8'));
    const upTo = (
      await wh.sql.runAndReadAll(`select value from control.settings where name = 'published_changes_seq'`)
    ).getRowsJson()[0]![0];
    rmSync(spare());
    linkSync(home.published, spare());
    await wh.sql.run(`insert or replace into control.settings values ('spare_snapshot', $v)`, {
      v: JSON.stringify({
        snapshotId: manifest.snapshotId,
        tables: manifest.tables,
        file: manifest.file,
        upTo: Number(upTo),
      }),
    });
    const second = ino(home.published);
    await orderAndPublish('C', '2026-03-03');
    expect(ino(home.published)).not.toBe(second);
    expect(await ordersPublished()).toEqual(['A', 'B', 'C']);
  });

  it('is kept after a publish that changed up to 62 days of a table, not after one that changed more', async () => {
    // 1 Jan - 3 Mar 2026: 31 + 28 + 3 = 62 days; from 31 Dec 2025, 63.
    await land(wh, ORDERS, US, writeOrders(dir, 'more.tsv', [line('B', '2026-01-15')]));
    await runModels(wh, { from: '2026-01-01', to: '2026-03-03' });
    const first = ino(home.published);
    await publish(wh);
    expect(ino(spare())).toBe(first);
    await runModels(wh, { from: '2025-12-31', to: '2026-03-03' });
    await publish(wh);
    expect(existsSync(spare())).toBe(false);
    // The next publish copies the published file, and keeps it as the spare (it changed one day).
    await orderAndPublish('C', '2026-03-03');
    expect(existsSync(spare())).toBe(true);
    expect(await ordersPublished()).toEqual(['A', 'B', 'C']);
  });

  async function warehouseOrders() {
    return (await wh.sql.runAndReadAll(`select mkt_order_id from marts.mkt_order_items_with_cogs order by 1`))
      .getRowsJson()
      .flat();
  }
});
