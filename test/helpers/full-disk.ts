import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Runs `mktdata ARGS` with the home's published/ on a tmpfs of `kb` KiB holding a copy of the snapshot, in a
 * private mount namespace (`unshare`, from util-linux: root, or a kernel allowing unprivileged user namespaces),
 * then reports what that full disk held afterwards: its files, the manifest, and the snapshot's order lines.
 */
export async function onFullDisk(
  homeRoot: string,
  kb: number,
  args: string[],
  table = 'mkt_order_items_with_cogs',
  column = 'mkt_order_id',
) {
  const published = join(homeRoot, 'published');
  const report = join(homeRoot, '..', 'report.json');
  const check = `
    import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
    import { DuckDBInstance } from '@duckdb/node-api';
    const db = await DuckDBInstance.create(${JSON.stringify(join(published, 'warehouse.duckdb'))}, { access_mode: 'READ_ONLY' });
    const sql = await db.connect();
    const lines = (await sql.runAndReadAll(${JSON.stringify(`select ${column}::varchar from ${table} order by 1`)})).getRowsJson().map(([id]) => id);
    sql.closeSync(); db.closeSync();
    writeFileSync(process.argv[1], JSON.stringify({ files: readdirSync(${JSON.stringify(published)}).sort(), manifest: readFileSync(${JSON.stringify(join(published, 'manifest.json'))}, 'utf8'), lines }));`;
  const script = `
    set -e
    saved=$(mktemp -d); cp -a "$PUBLISHED"/. "$saved"/
    mount -t tmpfs -o size=${kb}k tmpfs "$PUBLISHED"
    cp -a "$saved"/. "$PUBLISHED"/; rm -rf "$saved"
    set +e; node bin/mktdata.js "$@" > "$REPORT.out" 2>&1; echo $? > "$REPORT.code"; set -e
    node --input-type=module -e "$CHECK" "$REPORT"`;
  await run('unshare', ['--user', '--map-root-user', '--mount', 'sh', '-c', script, 'sh', ...args], {
    env: { ...process.env, PUBLISHED: published, REPORT: report, CHECK: check },
  });
  return {
    code: Number(readFileSync(`${report}.code`, 'utf8')),
    output: readFileSync(`${report}.out`, 'utf8'),
    ...(JSON.parse(readFileSync(report, 'utf8')) as { files: string[]; manifest: string; lines: string[] }),
  };
}
