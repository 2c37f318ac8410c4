import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/api/app.ts';
import { openWarehouse } from '../../src/db/warehouse.ts';
import { resolveHome } from '../../src/home.ts';
import { cli } from '../helpers/home.ts';

const lastLine = (text: string) => text.trim().split('\n').at(-1)!;
// No application configured, whatever the environment of the test run holds.
const unconfigured = Object.fromEntries(
  [
    'MKTDATA_SP_API_CLIENT_ID',
    'MKTDATA_SP_API_CLIENT_SECRET',
    'MKTDATA_ADS_CLIENT_ID',
    'MKTDATA_ADS_CLIENT_SECRET',
    'MKTDATA_CONFIG',
  ].map((name) => [name, undefined]),
);

describe('mktdata run when the data cannot be fetched', () => {
  it('exits 1, records the run failed with its errors, and leaves the first load in its first stage', async () => {
    const home = join(mkdtempSync(join(tmpdir(), 'mktdata-run-failures-')), 'home');
    const h = ['--home', home];
    const ok = async (args: string[]) => {
      const done = await cli([...args, ...h]);
      expect(done.code, `${args.join(' ')}: ${done.stderr}`).toBe(0);
      return lastLine(done.stdout);
    };
    await ok(['init']);
    const org = await ok(['org', 'create', '--name', 'Acme']);
    const conn = await ok(['connections', 'add', '--org', org, '--name', 'Acme US', '--marketplace', 'ATVPDKIKX0DER']);
    // A refresh token of an application this install does not have configured: nothing can be asked.
    const stored = await cli(
      ['connections', 'credentials', '--connection', conn, '--selling-partner-id', 'A1SELLER', ...h],
      { input: 'Atzr|a-refresh-token\n', env: unconfigured },
    );
    expect(stored.code, stored.stderr).toBe(0);

    const run = await cli(['run', '--pipeline', 'profit', ...h], { env: unconfigured });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      /^error +profit mkt_order_items_with_cogs \S+ INITIAL\/FIRST_STAGE \S+ 0 rows, \d+ ms: not fetched: GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL \S+: not tried: .*SP-API application/m,
    );
    expect(run.stderr).toMatch(/^profit: run failed, \d+ error\(s\)$/m);
    expect(run.stderr).toMatch(/^mktdata: 1 pipeline run\(s\) failed or partial/m);
    const runId = lastLine(run.stdout);

    const runs = JSON.parse((await cli(['runs', '--format', 'json', ...h])).stdout) as Record<string, unknown>[];
    const mine = runs.filter((r) => r.run === runId);
    // Seven tables, each with a first-stage and a second-stage window: none is done.
    expect(mine.map((r) => r.status)).toEqual(Array(14).fill('error'));
    expect(mine.every((r) => r.run_status === 'failed' && r.run_errors === 14)).toBe(true);
    const list = JSON.parse((await cli(['connections', 'list', '--format', 'json', ...h])).stdout) as Record<
      string,
      unknown
    >[];
    expect(list.map((c) => c.load_stage)).toEqual(['FIRST_STAGE']);

    // The console's runs page says it too, to the operator.
    const wh = await openWarehouse(resolveHome(home), 'test');
    const operatorKey = 'operator-key-of-the-run-failures-test-0123';
    const app = await buildApp({ wh, home: resolveHome(home), logger: false, operatorKey });
    try {
      const signIn = await app.inject({
        method: 'POST',
        url: '/login',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ key: operatorKey, next: '/runs' }).toString(),
      });
      const cookie = String(signIn.headers['set-cookie']).split(';')[0]!;
      const page = (await app.inject({ method: 'GET', url: '/runs', headers: { cookie } })).body;
      const row = page.slice(page.indexOf(`/runs/${runId}`));
      expect(row.slice(0, row.indexOf('</tr>'))).toMatch(/>failed<.*>14</s);
    } finally {
      await app.close();
      await wh.close();
    }
  });
});
