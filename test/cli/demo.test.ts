import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { cli } from '../helpers/home.ts';

describe('mktdata demo (what npm start runs)', () => {
  it('does a first load of two sellers through a fake marketplace, builds reconciled profit tables, publishes them and serves the API with a demo key', async () => {
    const home = join(mkdtempSync(join(tmpdir(), 'mktdata-demo-')), 'home');
    const demo = spawn('node', ['bin/mktdata.js', 'demo', '--home', home, '--port', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // A test that times out never reaches its finally: the demo serves on, loading the machine, unless killed here.
    onTestFinished(() => void (demo.exitCode === null && demo.kill('SIGKILL')));
    let stdout = '';
    let stderr = '';
    demo.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    demo.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    try {
      const [, key, api] = await new Promise<RegExpExecArray>((resolve, reject) => {
        const timer = setInterval(() => {
          const found = /The API \(key: (mkt_\S+)\):\n {2}curl -s '?(http:\/\/127\.0\.0\.1:\d+\/api\/v1)/.exec(stdout);
          if (found) {
            clearInterval(timer);
            resolve(found);
          }
        }, 100);
        demo.once('exit', (code) => {
          clearInterval(timer);
          reject(new Error(`demo exited with ${code}: ${stderr}`));
        });
      });
      expect(stderr).toBe('');
      // The first load went through the connectors: every pipeline fetched (promotions have no upstream operation) and
      // nothing was refused, failed or given up.
      expect(stdout).toMatch(
        /^fake marketplace on http:\/\/127\.0\.0\.1:\d+; first load of Acme Outdoor US and Acme Outdoor DE/m,
      );
      expect(stdout).not.toMatch(/^(refused|ERROR|skipped|FAILED|fetch failed|fetch abandoned)/m);
      for (const pipeline of ['awd', 'fba', 'listings', 'profit', 'replenishment'])
        expect(stdout).toMatch(new RegExp(`^ok {6}${pipeline}: \\d+ upstream request\\(s\\) \\(\\d+ landed`, 'm'));
      expect(stdout).toMatch(/^ok {6}promotions: nothing to fetch, 2 document\(s\) landed/m);
      // The data library's deliberate unknown settlement description, one row per connection, is the only warning.
      expect(stdout.match(/warn: .*/g)).toEqual([
        'warn: marts.mkt_settlements_with_cogs settlement descriptions that fell to the catch-all category (other_fee) of the amount map: 2 bad row(s)',
      ]);

      const sellers = await fetch(`${api}/util/sellers-and-vendors`, { headers: { 'service-api-key': key! } });
      expect(sellers.status).toBe(200);
      const body = (await sellers.json()) as { items: { name: string; initialLoadStage: string }[] };
      expect(body.items.map((i) => `${i.name} ${i.initialLoadStage}`)).toEqual([
        'Acme Outdoor DE COMPLETE',
        'Acme Outdoor US COMPLETE',
      ]);

      // The published snapshot stays readable while the server holds the warehouse.
      const totals = await cli([
        'query',
        '--home',
        home,
        '--format',
        'json',
        `
        select seller_or_vendor_name as connection, sum(total_sales) as sales, sum(total_fees) as fees, sum(ad_spend) as ad_spend,
               sum(sponsored_tv_ad_spend) as tv, sum(refund_count) as refunds, sum(profit) as profit,
               count(*) filter (where ad_target_count is not null) as target_days
        from mkt_profit_by_date group by all order by all`,
      ]);
      expect(totals.code).toBe(0);
      const rows = JSON.parse(totals.stdout) as Record<string, string | number>[];
      expect(rows.map((r) => r.connection)).toEqual(['Acme Outdoor DE', 'Acme Outdoor US']);
      for (const r of rows) {
        const sales = Number(r.sales);
        // Plausible: fees between 10 % and 40 % of sales, some ads, refunds and target summaries, a positive profit
        // below sales.
        expect(Number(r.fees) / sales).toBeGreaterThan(0.1);
        expect(Number(r.fees) / sales).toBeLessThan(0.4);
        expect(Number(r.ad_spend)).toBeGreaterThan(0);
        expect(Number(r.refunds)).toBeGreaterThan(0);
        expect(Number(r.target_days)).toBeGreaterThan(20);
        expect(Number(r.profit)).toBeGreaterThan(0);
        expect(Number(r.profit)).toBeLessThan(sales);
      }
      expect(Number(rows[1]!.tv)).toBeGreaterThan(0); // sponsored TV runs in the US only

      // The commands the demo suggests work while it serves (handed to it), and no time it recorded is in the future.
      const runs = await cli(['runs', '--home', home, '--limit', '6', '--format', 'json']);
      expect(runs.code, runs.stderr).toBe(0);
      const recorded = JSON.parse(runs.stdout) as { started_at: string; kind: string }[];
      expect(recorded.some((r) => r.kind === 'FETCH')).toBe(true);
      const scheme = (await (await fetch(`${api}/spec/data-scheme`)).json()) as {
        sources: { freshness?: { lastFetchedAt: string | null } }[];
      };
      const fetchedAt = scheme.sources.map((s) => s.freshness?.lastFetchedAt).filter((t): t is string => Boolean(t));
      expect(fetchedAt.length).toBeGreaterThan(0);
      for (const t of fetchedAt) expect(Date.parse(t)).toBeLessThanOrEqual(Date.now());

      // `mktdata doctor` on the demo home, handed to the demo (whose fake marketplace answers its LWA requests): every
      // check holds; both sellers hold an SP-API and an Ads grant (4 lines); the scale-out checks do not apply.
      const doctor = await cli(['doctor', '--home', home]);
      expect(doctor.stderr).toBe('');
      expect(doctor.stdout.split('\n').map((line) => line.split(':')[0])).toEqual([
        '✓ home permissions',
        '✓ configuration',
        '✓ warehouse',
        '✓ secret key',
        '✓ SP-API application',
        '✓ Ads API application',
        '✓ SP-API grant of Acme Outdoor DE (6f1c2f0e-3b7a-4c55-9d0e-1a2b3c4d5e02)',
        '✓ Ads API grant of Acme Outdoor DE (6f1c2f0e-3b7a-4c55-9d0e-1a2b3c4d5e02)',
        '✓ SP-API grant of Acme Outdoor US (6f1c2f0e-3b7a-4c55-9d0e-1a2b3c4d5e01)',
        '✓ Ads API grant of Acme Outdoor US (6f1c2f0e-3b7a-4c55-9d0e-1a2b3c4d5e01)',
        '✓ clock',
        '✓ disk space',
        '✓ Node.js',
        '✓ DuckDB',
        '- PostgreSQL',
        '- shared folder',
        '',
      ]);
      expect(doctor.code).toBe(0);
    } finally {
      demo.kill('SIGTERM');
      if (demo.exitCode === null) await once(demo, 'exit');
    }
    expect(demo.exitCode).toBe(0);
  }, 600_000); // a hang guard: about 40 s alone, several minutes on a 2-core machine running other suites
});
