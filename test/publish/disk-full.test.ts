import { execFile } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { runModels } from '../../src/models/run-models.ts';
import { publish } from '../../src/publish/publish.ts';
import { cli, land, makeHome, US, writeOrders } from '../helpers/home.ts';
import { orderLine } from '../helpers/profit.ts';

const run = promisify(execFile);

/**
 * Runs `mktdata ARGS` with the home's published/ on a tmpfs of `kb` KiB holding a copy of the snapshot, in a
 * private mount namespace (`unshare`, from util-linux: root, or a kernel allowing unprivileged user namespaces),
 * then reports what that full disk held afterwards: its files, the manifest, and the snapshot's order lines.
 */
async function onFullDisk(homeRoot: string, kb: number, args: string[]) {
  const published = join(homeRoot, 'published');
  const report = join(homeRoot, '..', 'report.json');
  const check = `
    import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
    import { DuckDBInstance } from '@duckdb/node-api';
    const db = await DuckDBInstance.create(${JSON.stringify(join(published, 'warehouse.duckdb'))}, { access_mode: 'READ_ONLY' });
    const sql = await db.connect();
    const lines = (await sql.runAndReadAll('select mkt_order_id from mkt_order_items_with_cogs order by 1')).getRowsJson().map(([id]) => id);
    sql.closeSync(); db.closeSync();
    writeFileSync(process.argv[1], JSON.stringify({ files: readdirSync(${JSON.stringify(published)}).sort(), manifest: readFileSync(${JSON.stringify(join(published, 'manifest.json'))}, 'utf8'), lines }));`;
  const script = `
    set -e
    saved=$(mktemp -d); cp -a "$PUBLISHED"/. "$saved"/
    mount -t tmpfs -o size=${kb}k tmpfs "$PUBLISHED"
    cp -a "$saved"/. "$PUBLISHED"/
    set +e; node bin/mktdata.js "$@" > "$REPORT.out" 2>&1; echo $? > "$REPORT.code"; set -e
    node --input-type=module -e "$CHECK" "$REPORT"`;
  await run('unshare', ['--user', '--map-root-user', '--mount', 'sh', '-c', script, 'sh', ...args], { env: { ...process.env, PUBLISHED: published, REPORT: report, CHECK: check } });
  return {
    code: Number(readFileSync(`${report}.code`, 'utf8')),
    output: readFileSync(`${report}.out`, 'utf8'),
    ...(JSON.parse(readFileSync(report, 'utf8')) as { files: string[]; manifest: string; lines: string[] }),
  };
}

describe('publishing onto a full disk', () => {
  it('keeps the previous snapshot and its manifest, leaves no partial file, says so, and the next run on free space publishes', async () => {
    const { home, wh, dir } = await makeHome();
    await land(wh, 'GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL', US, writeOrders(dir, 'first.tsv', [orderLine({ 'amazon-order-id': '111-1', sku: 'MUG' })]));
    await runModels(wh, {});
    await publish(wh);
    const manifest = readFileSync(join(home.publishedDir, 'manifest.json'), 'utf8');
    const snapshotKb = Math.ceil(statSync(home.published).size / 1024);
    await land(wh, 'GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL', US, writeOrders(dir, 'second.tsv', [orderLine({ 'amazon-order-id': '111-2', sku: 'CUP' })]));
    await wh.close();

    // Room for the snapshot and half of another: the incremental publish's copy of it cannot finish, and neither can
    // a full rebuild's new file (written by DuckDB itself).
    for (const args of [['build'], ['build', '--full-refresh']]) {
      const full = await onFullDisk(home.root, Math.ceil(snapshotKb * 1.5), [...args, '--home', home.root]);
      expect(full.code, full.output).toBe(1);
      expect(full.output).toMatch(/publishing stopped, the disk of .*published is full \(.*(No space left on device|ENOSPC).*\); the previous snapshot \(published \d{4}-\d\d-\d\dT[\d:.]+Z\) is still the one served/);
      expect(full.output).not.toMatch(/\n\s+at /);
      expect(full.files).toEqual(['manifest.json', 'warehouse.duckdb']);
      expect(full.manifest).toBe(manifest);
      expect(full.lines).toEqual(['111-1']);
    }

    // On free space, the same command publishes what the full disk held back.
    const again = await cli(['build', '--home', home.root]);
    expect(again.code, again.stderr).toBe(0);
    const after = await cli(['query', '--home', home.root, 'select mkt_order_id from mkt_order_items_with_cogs order by 1']);
    expect(after.stdout).toContain('111-2');
  });
});
