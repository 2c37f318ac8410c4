import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Warehouse } from '../../src/db/warehouse.ts';
import type { Home } from '../../src/home.ts';
import { loadModels } from '../../src/models/load-models.ts';
import { runModels } from '../../src/models/run-models.ts';
import { publish, replacedSnapshotRemoved } from '../../src/publish/publish.ts';
import { withSnapshot } from '../../src/publish/open-snapshot.ts';
import { land, makeHome, US, writeOrders } from '../helpers/home.ts';

const published = async (home: Home, sql: string) =>
  withSnapshot(home, async (db) => (await db.runAndReadAll(sql)).getRowObjectsJson());

describe('publish', () => {
  let wh: Warehouse;
  let home: Home;
  let dir: string;
  beforeEach(async () => {
    ({ wh, home, dir } = await makeHome());
    const lines = Array.from({ length: 50 }, (_, i) => ({
      'amazon-order-id': `P-${i}`,
      'purchase-date': '2026-03-01T12:00:00+00:00',
      'order-status': 'Shipped',
      sku: 'SKU-A',
      quantity: '1',
      currency: 'USD',
    }));
    await land(wh, 'GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL', US, writeOrders(dir, 'o.tsv', lines));
    await runModels(wh);
    await publish(wh);
  });
  afterEach(async () => wh.close());

  it('removes what a killed publish left in published/ (its unfinished file, DuckDB log and manifest, or the snapshot it replaced) and nothing else', async () => {
    const leftovers = ['.next-0000.duckdb', '.next-0000.duckdb.wal', '.manifest-0000.json', '.replaced-0000.duckdb'];
    for (const name of leftovers) writeFileSync(join(home.publishedDir, name), 'partial');
    await publish(wh);
    await replacedSnapshotRemoved(wh);
    // (The snapshot it replaced is kept as the spare, for the next publish to start from.)
    expect(readdirSync(home.publishedDir).sort()).toEqual(['.spare.duckdb', 'manifest.json', 'warehouse.duckdb']);
  });

  it('publishes every catalog table with exactly the columns and types of its .yml', async () => {
    for (const model of loadModels().filter((m) => m.config.catalog)) {
      const columns = await published(
        home,
        `select column_name, data_type from information_schema.columns where table_name = '${model.name}' order by ordinal_position`,
      );
      expect(
        columns.map((c) => `${c.column_name} ${c.data_type}`),
        model.name,
      ).toEqual(model.config.columns.map((c) => `${c.name} ${c.dataType}`));
    }
  });

  it('starts from the last snapshot and replaces only what changed, ending with the rows of a full publish', async () => {
    // A new order on March 2nd and a revision of a March 1st one; only those two days are rebuilt.
    const more = [
      {
        'amazon-order-id': 'P-0',
        'purchase-date': '2026-03-01T12:00:00+00:00',
        'order-status': 'Cancelled',
        sku: 'SKU-A',
        quantity: '0',
        currency: 'USD',
      },
      {
        'amazon-order-id': 'N-1',
        'purchase-date': '2026-03-02T12:00:00+00:00',
        'order-status': 'Shipped',
        sku: 'SKU-A',
        quantity: '2',
        currency: 'USD',
      },
    ];
    await land(wh, 'GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL', US, writeOrders(dir, 'more.tsv', more));
    await runModels(wh, { from: '2026-03-01', to: '2026-03-02' });
    const second = await publish(wh);
    expect(second.incremental).toBe(true);
    expect(
      await published(
        home,
        `select count(*)::int as n, count(*) filter (where mkt_order_status = 'Canceled')::int as canceled from mkt_order_items_with_cogs`,
      ),
    ).toEqual([{ n: 51, canceled: 1 }]);
    await expectSameAsWarehouse(second.tables.map((t) => t.name));

    // Nothing changed since: the same snapshot again, still incremental (started from the first one, the spare,
    // with the second publish's changes).
    const third = await publish(wh);
    expect(third.incremental).toBe(true);
    expect(third.tables).toEqual(second.tables);
    await expectSameAsWarehouse(third.tables.map((t) => t.name));

    // A published file changed by someone else is neither started from nor kept as the spare.
    utimesSync(home.published, new Date(), new Date(Date.now() + 5_000));
    const fourth = await publish(wh);
    await expectSameAsWarehouse(fourth.tables.map((t) => t.name));
    await replacedSnapshotRemoved(wh);
    expect(readdirSync(home.publishedDir).sort()).toEqual(['manifest.json', 'warehouse.duckdb']);

    // Nor is a snapshot the warehouse did not record as its last (a publish that died between the two writes).
    await wh.sql.run(`update control.settings set value = 'another' where name = 'published_snapshot_id'`);
    expect((await publish(wh)).incremental).toBe(false);

    // Nor is a manifest whose table list was mangled.
    const manifestPath = join(home.publishedDir, 'manifest.json');
    writeFileSync(
      manifestPath,
      JSON.stringify({ ...JSON.parse(readFileSync(manifestPath, 'utf8')), tables: 'mangled' }),
    );
    await runModels(wh, { from: '2026-03-02', to: '2026-03-02' });
    const afterMangled = await publish(wh);
    expect(afterMangled.incremental).toBe(false);
    await expectSameAsWarehouse(afterMangled.tables.map((t) => t.name));

    // A build of every date replaced every table: they are copied, not patched into the last snapshot.
    await runModels(wh);
    const rebuilt = await publish(wh);
    expect(rebuilt.incremental).toBe(false);
    await expectSameAsWarehouse(rebuilt.tables.map((t) => t.name));
  });

  /** Every published table holds exactly the warehouse's rows (as multisets). */
  async function expectSameAsWarehouse(tables: string[]) {
    await wh.sql.run(`attach '${home.published}' as snapshot (read_only)`);
    try {
      for (const table of tables) {
        const reader = await wh.sql.runAndReadAll(`
          select (select count(*) from (select * from marts.${table} except all select * from snapshot.${table}))::int,
                 (select count(*) from (select * from snapshot.${table} except all select * from marts.${table}))::int`);
        expect(reader.getRowsJson()[0], table).toEqual([0, 0]);
      }
    } finally {
      await wh.sql.run('detach snapshot');
    }
  }

  it('opens read-only from another process while the writer holds the warehouse', async () => {
    const child = spawn('node', [
      '-e',
      `
      const { DuckDBInstance } = require('@duckdb/node-api');
      DuckDBInstance.create(${JSON.stringify(home.published)}, { access_mode: 'READ_ONLY' })
        .then((i) => i.connect()).then((c) => c.runAndReadAll('select count(*)::int as n from mkt_order_items_with_cogs'))
        .then((r) => console.log(JSON.stringify(r.getRowObjectsJson())));`,
    ]);
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    await new Promise((done) => child.on('close', done));
    expect(out.trim()).toBe('[{"n":50}]');
  });

  it('keeps the previous snapshot openable and complete when a build is killed mid-run', async () => {
    await wh.close();
    // More data for the killed build, so that it has something to do.
    const { openWarehouse } = await import('../../src/db/warehouse.ts');
    wh = await openWarehouse(home, 'test');
    const lines = Array.from({ length: 20_000 }, (_, i) => ({
      'amazon-order-id': `K-${i}`,
      'purchase-date': '2026-03-02T12:00:00+00:00',
      'order-status': 'Shipped',
      sku: 'SKU-A',
      quantity: '1',
      currency: 'USD',
    }));
    await land(wh, 'GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL', US, writeOrders(dir, 'more.tsv', lines));
    await wh.close();

    const build = spawn('node', ['bin/mktdata.js', 'build', '--home', home.root]);
    // Kill as soon as the first model reports: the build is under way, the publish not yet done.
    await new Promise<void>((done) => build.stdout.on('data', (d: Buffer) => d.toString().includes('ok') && done()));
    build.kill('SIGKILL');
    await new Promise((done) => build.on('close', done));

    expect(await published(home, 'select count(*)::int as n from mkt_order_items_with_cogs')).toEqual([{ n: 50 }]);
    wh = await openWarehouse(home, 'test'); // the killed writer's lock is gone
  });
});
