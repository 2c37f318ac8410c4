import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterEach, describe, expect, it } from 'vitest';
import { demoSellers, fakeMarketplaceEnv, startFakeMarketplace, type FakeMarketplace } from '@mktdata/fake-marketplace';
import { realNow, scaledClock } from '../../src/time/clock.ts';
import { openWarehouse } from '../../src/db/warehouse.ts';
import { resolveHome } from '../../src/home.ts';
import { createApiKey, createOrganization } from '../../src/control/organizations.ts';
import { addConnection } from '../../src/control/connections/connections.ts';
import { setCredentials } from '../../src/connectors/credentials.ts';
import { contractViolations } from '../helpers/contracts.ts';
import { cli } from '../helpers/home.ts';
import { START } from '../helpers/live.ts';
import { startServe, type ServeProcess } from '../helpers/serve.ts';

// The fake's clock runs SPEED times real time, so that the first load's rate limits and report processing pass
// quickly; the seller opened two weeks before START, so the load has little to fetch.
const SPEED = 5000;
const OPENED = '2026-11-06';
const CONN = '00000000-0000-4000-8000-0000000bac01';
const lastLine = (text: string) => text.trim().split('\n').at(-1)!;
const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

/** Polls `probe` until it holds or `ms` of real time pass (a hang guard, not a wait for time to pass). */
async function until(ms: number, probe: () => Promise<boolean>): Promise<boolean> {
  for (const started = Date.now(); Date.now() - started < ms; await delay(200)) if (await probe()) return true;
  return false;
}

/** Runs queries on two DuckDB files attached read-only as `a` and `b`. */
async function withBoth<T>(a: string, b: string, work: (q: (sql: string) => Promise<unknown[][]>) => Promise<T>) {
  const instance = await DuckDBInstance.create(':memory:');
  const sql = await instance.connect();
  try {
    await sql.run(`attach '${a}' as a (read_only); attach '${b}' as b (read_only)`);
    return await work(async (query) => (await sql.runAndReadAll(query)).getRowsJson() as unknown[][]);
  } finally {
    sql.closeSync();
    instance.closeSync();
  }
}

/**
 * Per table of `a` (every schema): its rows, and the rows only in `a` and only in `b` (except all, both ways), without
 * the columns `skip` names; and the tables of `b` that `a` lacks.
 */
async function compareWarehouses(a: string, b: string, skip: Record<string, string[]> = {}) {
  return withBoth(a, b, async (q) => {
    const tables = async (db: string) =>
      (
        await q(`select schema_name || '.' || table_name from duckdb_tables() where database_name = '${db}' order by 1`)
      ).map((r) => String(r[0]));
    const [inA, inB] = [await tables('a'), await tables('b')];
    const out = [];
    for (const table of inA) {
      const cols = `columns(c -> c not in ('${(skip[table] ?? []).join("', '")}'))`;
      const [rows, onlyA, onlyB] = (
        await q(
          `select (select count(*) from a.${table}),
                (select count(*) from (select ${cols} from a.${table} except all select ${cols} from b.${table})),
                (select count(*) from (select ${cols} from b.${table} except all select ${cols} from a.${table}))`,
        )
      )[0]!;
      out.push({ table, rows: Number(rows), onlyA: Number(onlyA), onlyB: Number(onlyB) });
    }
    return { tables: out, missingInA: inB.filter((t) => !inA.includes(t)) };
  });
}

describe('mktdata backup and restore', () => {
  let fake: FakeMarketplace | undefined;
  const servers: ServeProcess[] = [];
  afterEach(async () => {
    for (const s of servers.splice(0)) await s.stop(30_000);
    await fake?.close();
  });

  it('restores on another path a backup taken beside a server while its first load writes', async () => {
    const realStart = realNow();
    const clock = scaledClock(SPEED, Date.parse(START), realStart);
    // No Ads, no AWD, a few orders a day: the first load's reports are few and small.
    const seller = { ...demoSellers(OPENED)[0]!, ads: null, awd: false, ordersPerDay: 4 };
    fake = await startFakeMarketplace({ sellers: [seller], clock, recordExchanges: true });
    // Without the notification queue: its poller would land order events after the backup, and the source would not
    // stop in the state the backup took.
    const { MKTDATA_NOTIFICATIONS_QUEUE_URL: _queue, ...env } = fakeMarketplaceEnv(fake, {
      speed: SPEED,
      start: Date.parse(START),
      realStart,
    });
    const dir = mkdtempSync(join(tmpdir(), 'mktdata-backup-'));
    const source = join(dir, 'source', 'home');
    const on =
      (home: string) =>
      (args: string[], extra: NodeJS.ProcessEnv = {}) =>
        cli([...args, '--home', home], { env: { ...env, ...extra } });
    const run = on(source);
    // The home, made in process (as the CLI would, faster): an organization, its key, the connection and its
    // credentials, stored encrypted with the home's secret.key.
    const wh = await openWarehouse(resolveHome(source), 'test', { create: true });
    const org = await createOrganization(wh, { name: 'Agency', tokens: null });
    const key = await createApiKey(wh, org);
    await addConnection(wh, { organizationId: org, id: CONN, name: 'Acme US', marketplaceId: seller.marketplaceId });
    await setCredentials(wh, CONN, {
      api: 'sp-api',
      refreshToken: fake.grant(seller.sellerId, 'sp-api'),
      sellingPartnerId: seller.sellerId,
    });
    await wh.close();
    // A file the first load refuses: kept in quarantine/, its record holding the kept copy's absolute path.
    const landing = join(source, 'landing', CONN, 'GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL');
    mkdirSync(landing, { recursive: true });
    writeFileSync(join(landing, 'not-an-order-report.tsv'), 'this\tis\tnot\nan\torder\treport\n');

    // The server starts the connection's first load at once; the backup is asked for while it writes.
    const server = await startServe(source, ['--no-pipelines'], { env });
    servers.push(server);
    expect(await until(120_000, async () => /"msg":"fetch"/.test(server.output()))).toBe(true);
    const backup = join(dir, 'backup');
    const taken = await run(['backup', '--to', backup, '--include-secret-key']);
    expect(taken.code, taken.stderr).toBe(0);
    expect(taken.stderr).toBe('');
    expect(taken.stdout).toMatch(/^backed up .* secret key included/m);
    expect(server.output()).toContain('admin channel: mktdata backup');

    // Without --include-secret-key: the loud line, no secret.key, and never the key itself.
    const bare = join(dir, 'bare');
    const taken2 = await run(['backup', '--to', bare]);
    expect(taken2.code, taken2.stderr).toBe(0);
    expect(taken2.stderr).toContain('WARNING: secret.key is NOT in this backup');
    const homeKey = readFileSync(join(source, 'secret.key'), 'utf8').trim();
    expect(taken.stdout + taken.stderr + taken2.stdout + taken2.stderr).not.toContain(homeKey);
    expect(existsSync(join(bare, 'secret.key'))).toBe(false);
    expect(JSON.parse(readFileSync(join(bare, 'backup.json'), 'utf8')).secretKeyIncluded).toBe(false);
    // Beside the server: a folder that holds anything is refused, and so is a restore over the home it holds.
    const full = await run(['backup', '--to', backup]);
    expect([full.code, full.stderr]).toEqual([
      1,
      expect.stringContaining(`cannot back up into ${backup}: it is not empty`),
    ]);
    const over = await cli(['restore', '--from', backup, '--home', source, '--force']);
    expect([over.code, over.stderr]).toEqual([
      1,
      expect.stringContaining(`the home ${source} is open in \`mktdata serve\``),
    ]);
    expect(await server.stop(120_000)).toBe(0);

    // Restored into a folder on another path.
    const other = mkdtempSync(join(tmpdir(), 'mktdata-restored-'));
    const restored = join(other, 'home');
    const restore = (args: string[]) => cli(['restore', ...args]);
    const done = await restore(['--from', backup, '--home', restored]);
    expect(done.code, done.stderr).toBe(0);
    expect(done.stderr).toBe('');

    // The restored warehouse holds, row for row, what the source held when the backup was taken (the first load's
    // runs were all queued before the backup, and with --no-pipelines the server queued nothing after it, so the
    // source stopped in that state); only the quarantine record's path moved.
    const compared = await compareWarehouses(join(restored, 'warehouse.duckdb'), join(source, 'warehouse.duckdb'), {
      'control.quarantined_files': ['kept_at'],
    });
    expect(compared.missingInA).toEqual([]);
    expect(compared.tables.filter((t) => t.onlyA + t.onlyB > 0)).toEqual([]);
    const rowsOf = (table: string) => compared.tables.find((t) => t.table === table)?.rows ?? 0;
    expect(rowsOf('control.landed_files')).toBeGreaterThan(0);
    expect(rowsOf('control.connection_credentials')).toBe(1);
    expect(rowsOf('control.quarantined_files')).toBe(1);

    // The restored home is whole: no run caught half way, every landed document listed present with its content,
    // the quarantined copy where its record says, the published snapshot the backup's, agreeing with its manifest.
    await withBoth(join(restored, 'warehouse.duckdb'), join(restored, 'published', 'warehouse.duckdb'), async (q) => {
      expect(await q("select count(*) from a.control.pipeline_runs where status = 'running'")).toEqual([['0']]);
      const landed = await q('select connection_id, source, id, file_name, sha256 from a.control.landed_files');
      for (const [connection, src, id, name, hash] of landed as string[][]) {
        const file = join(restored, 'landed', connection!, src!, `${id}-${name}`);
        expect(existsSync(file), file).toBe(true);
        expect(sha256(file)).toBe(hash);
      }
      const [keptAt] = ((await q('select kept_at from a.control.quarantined_files')) as string[][])[0]!;
      expect(keptAt!.startsWith(join(restored, 'quarantine') + '/')).toBe(true);
      expect(readFileSync(keptAt!, 'utf8')).toBe('this\tis\tnot\nan\torder\treport\n');
      const manifest = JSON.parse(readFileSync(join(restored, 'published', 'manifest.json'), 'utf8')) as {
        tables: { name: string; rows: number }[];
      };
      expect(manifest.tables.length).toBeGreaterThan(0);
      for (const t of manifest.tables)
        expect(await q(`select count(*) from b.${t.name}`), t.name).toEqual([[String(t.rows)]]);
    });
    expect(sha256(join(source, 'published', 'warehouse.duckdb'))).toBe(
      sha256(join(backup, 'published', 'warehouse.duckdb')),
    );
    expect(sha256(join(restored, 'published', 'warehouse.duckdb'))).toBe(
      sha256(join(backup, 'published', 'warehouse.duckdb')),
    );

    // A damaged backup (one byte changed), a partial one (a file removed): refused, naming the file, nothing made.
    const listed = JSON.parse(readFileSync(join(backup, 'backup.json'), 'utf8')) as { files: { path: string }[] };
    const document = listed.files.find((f) => f.path.startsWith('landed/') && !f.path.endsWith('.sidecar.json'))!.path;
    const original = readFileSync(join(backup, document));
    writeFileSync(join(backup, document), Buffer.from(original).fill(original[0]! ^ 1, 0, 1));
    const damaged = await restore(['--from', backup, '--home', join(other, 'damaged')]);
    expect([damaged.code, damaged.stderr]).toEqual([
      1,
      expect.stringContaining(
        `${document}: its content does not match its sha256 in the manifest (the backup is damaged)`,
      ),
    ]);
    expect(existsSync(join(other, 'damaged'))).toBe(false);
    writeFileSync(join(backup, document), original);
    renameSync(join(backup, document), join(dir, 'aside'));
    const partial = await restore(['--from', backup, '--home', join(other, 'partial')]);
    expect([partial.code, partial.stderr]).toEqual([
      1,
      expect.stringContaining(`${document}: missing (the backup is partial)`),
    ]);
    expect(existsSync(join(other, 'partial'))).toBe(false);
    renameSync(join(dir, 'aside'), join(backup, document));

    // A home that is not empty: refused without --force, replaced with it.
    const again = await restore(['--from', backup, '--home', restored]);
    expect([again.code, again.stderr]).toEqual([1, expect.stringContaining(`the home ${restored} is not empty`)]);
    const forced = await restore(['--from', backup, '--home', restored, '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).toContain('(its previous content deleted)');

    // Served from its new path: the old API key answers, the stored credentials decrypt and work at the marketplace.
    const replica = await startServe(restored, ['--no-pipelines']);
    servers.push(replica);
    const asked = await fetch(`${replica.base}/util/organization`, { headers: { 'service-api-key': key } });
    expect(asked.status).toBe(200);
    expect(await replica.stop(120_000)).toBe(0);
    const tested = await on(restored)(['connections', 'test', '--connection', CONN, '--api', 'sp-api']);
    expect(tested.code, tested.stderr).toBe(0);

    // The backup without the key restores, and says its credentials cannot be read without it.
    const bareHome = join(other, 'bare');
    const bareDone = await restore(['--from', bare, '--home', bareHome]);
    expect(bareDone.code, bareDone.stderr).toBe(0);
    expect(bareDone.stderr).toContain('WARNING: the backup holds no secret.key');
    const unreadable = await on(bareHome)(['connections', 'test', '--connection', CONN, '--api', 'sp-api']);
    expect([unreadable.code, unreadable.stderr]).toEqual([1, expect.stringContaining('the secret key does not match')]);

    // A scaled-out install has no single home to copy: both commands say where its backup is described.
    const scaled = { MKTDATA_DATABASE_URL: 'postgres://mktdata@127.0.0.1:1/none', MKTDATA_SHARED_DIR: dir };
    for (const args of [
      ['backup', '--to', join(dir, 'scaled')],
      ['restore', '--from', backup],
    ]) {
      const refused = await cli([...args, '--home', join(dir, 'scaled-home')], { env: scaled });
      expect([refused.code, refused.stderr]).toEqual([
        1,
        expect.stringContaining(
          'is backed up with pg_dump and a copy of the shared folder, see docs/operations.md, "Backups"',
        ),
      ]);
    }
    expect(contractViolations(fake)).toEqual([]);
  }, 300_000);
});
