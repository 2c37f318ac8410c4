import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runModels } from '../../src/models/run-models.ts';
import { publish } from '../../src/publish/publish.ts';
import { cli, land, makeHome, US, writeOrders } from '../helpers/home.ts';
import { orderLine } from '../helpers/profit.ts';
import { onFullDisk } from '../helpers/full-disk.ts';

describe('publishing onto a full disk', () => {
  it('keeps the previous snapshot and its manifest, leaves no partial file, says so, and the next run on free space publishes', async () => {
    const { home, wh, dir } = await makeHome();
    await land(
      wh,
      'GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL',
      US,
      writeOrders(dir, 'first.tsv', [orderLine({ 'amazon-order-id': '111-1', sku: 'MUG' })]),
    );
    await runModels(wh, {});
    await publish(wh);
    const manifest = readFileSync(join(home.publishedDir, 'manifest.json'), 'utf8');
    const snapshotKb = Math.ceil(statSync(home.published).size / 1024);
    await land(
      wh,
      'GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL',
      US,
      writeOrders(dir, 'second.tsv', [orderLine({ 'amazon-order-id': '111-2', sku: 'CUP' })]),
    );
    await wh.close();

    // Room for the snapshot and half of another: the incremental publish's copy of it cannot finish, and neither can
    // a full rebuild's new file (written by DuckDB itself).
    for (const args of [['build'], ['build', '--full-refresh']]) {
      const full = await onFullDisk(home.root, Math.ceil(snapshotKb * 1.5), [...args, '--home', home.root]);
      expect(full.code, full.output).toBe(1);
      expect(full.output).toMatch(
        /publishing stopped, the disk of .*published is full \(.*(No space left on device|ENOSPC).*\); the previous snapshot \(published \d{4}-\d\d-\d\dT[\d:.]+Z\) is still the one served/,
      );
      expect(full.output).not.toMatch(/\n\s+at /);
      expect(full.files).toEqual(['manifest.json', 'warehouse.duckdb']);
      expect(full.manifest).toBe(manifest);
      expect(full.lines).toEqual(['111-1']);
    }

    // On free space, the same command publishes what the full disk held back.
    const again = await cli(['build', '--home', home.root]);
    expect(again.code, again.stderr).toBe(0);
    const after = await cli([
      'query',
      '--home',
      home.root,
      'select mkt_order_id from mkt_order_items_with_cogs order by 1',
    ]);
    expect(after.stdout).toContain('111-2');
  });
});
