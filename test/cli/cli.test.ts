import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { cli, writeOrders } from '../helpers/home.ts';

const lastLine = (text: string) => text.trim().split('\n').at(-1)!;
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('mktdata CLI', () => {
  it('walks init, org, keys, connections, ingest, cogs, build, query and export as a user would', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mktdata-cli-'));
    const home = join(dir, 'home');
    const h = ['--home', home];
    expect((await cli(['init', ...h])).code).toBe(0);

    const org = await cli(['org', 'create', '--name', 'Acme', '--tokens', '100', ...h]);
    const orgId = lastLine(org.stdout);
    expect(orgId).toMatch(uuid);

    const key = lastLine((await cli(['keys', 'create', '--org', orgId, ...h])).stdout);
    expect(key).toMatch(/^mkt_[A-Za-z0-9_-]{32}$/);

    const conn = await cli([
      'connections',
      'add',
      '--org',
      orgId,
      '--name',
      'Acme US',
      '--marketplace',
      'ATVPDKIKX0DER',
      '--seller-id',
      'A1SELLER',
      ...h,
    ]);
    const connectionId = lastLine(conn.stdout);
    expect(connectionId).toMatch(uuid);

    const bad = await cli(['connections', 'add', '--org', orgId, '--name', 'X', '--marketplace', 'NOPE', ...h]);
    expect(bad).toMatchObject({
      code: 1,
      stderr: 'mktdata: unknown marketplace id NOPE; known ids are in models/seeds/marketplaces.csv\n',
    });

    const good = writeOrders(dir, 'good.tsv', [
      {
        'amazon-order-id': '111-1',
        'purchase-date': '2026-03-01T20:00:00+00:00',
        'order-status': 'Shipped',
        sku: 'SKU-A',
        asin: 'B000000001',
        'item-status': 'Shipped',
        quantity: '3',
        currency: 'USD',
        'item-price': '30.00',
      },
    ]);
    writeFileSync(join(dir, 'wrong.tsv'), 'sku\tprice\nA\t1\n');
    const ingest = await cli([
      'ingest',
      '--connection',
      connectionId,
      '--source',
      'GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL',
      good,
      join(dir, 'wrong.tsv'),
      ...h,
    ]);
    expect(ingest.code).toBe(1);
    expect(ingest.stdout).toMatch(/landed {3}.*good\.tsv: 1 rows/);
    expect(ingest.stderr).toMatch(/refused {2}.*wrong\.tsv: line 1: missing column\(s\) amazon-order-id/);

    writeFileSync(
      join(dir, 'cogs.csv'),
      'asin,sku,costCurrency,fromDate,costItemValue,costItemShippingValue,itemSupplierName\nB000000001,SKU-A,USD,2026-01-01,4.125,0.5,"Supplier, Inc."\n',
    );
    const imported = await cli(['cogs', 'import', '--connection', connectionId, join(dir, 'cogs.csv'), ...h]);
    expect(imported.code).toBe(0);
    // What POST /cogs answers as rebuild.windows: the profit tables from the file's earliest fromDate, listings whole.
    expect(imported.stdout).toContain('rebuild  profit mkt_profit_by_sku_and_date from 2026-01-01\n');
    expect(imported.stdout).toContain('rebuild  listings mkt_cogs whole\n');

    const tokens = await cli(['org', 'tokens', '--org', orgId, '--add', '25', ...h]);
    expect(tokens).toMatchObject({ code: 0, stdout: '125\n' });
    // Global options go before or after the command (docs/design/ARCHITECTURE.md, "The command line").
    expect((await cli([...h, 'org', 'tokens', '--org', orgId])).stdout).toBe('125\n');
    expect((await cli(['org', 'tokens', '--org', orgId, '--add', '-5', ...h])).code).toBe(2); // a usage error
    expect(
      (await cli(['org', 'tokens', '--org', '00000000-0000-4000-8000-000000000000', '--add', '1', ...h])).stderr,
    ).toBe('mktdata: organization 00000000-0000-4000-8000-000000000000 not found\n');

    const build = await cli(['build', ...h]);
    expect(build.stdout).toMatch(/ok +marts\.mkt_order_items_with_cogs {2}1 rows/);
    expect(build.code).toBe(0);
    // --quiet keeps what matters (failures, what was published) and drops a line per model.
    expect(await cli(['--quiet', ...h, 'build', '--select', 'mkt_cogs'])).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/^published \d+ table\(s\) to /),
    });

    const csv = await cli([
      'query',
      'select mkt_order_id, cogs_total_value, item_supplier_name from mkt_order_items_with_cogs',
      '--format',
      'csv',
      ...h,
    ]);
    // 3 units × (4.125 + 0.5) = 13.875; CSV per RFC 4180, as the HTTP export writes it
    expect(csv.stdout).toBe('mkt_order_id,cogs_total_value,item_supplier_name\r\n111-1,13.8750,"Supplier, Inc."\r\n');

    const out = join(dir, 'orders.parquet');
    const exported = await cli([
      'export',
      '--table',
      'mkt_order_items_with_cogs',
      '--connection',
      connectionId,
      '--from',
      '2026-03-01',
      '--to',
      '2026-03-31',
      '--format',
      'parquet',
      '--out',
      out,
      ...h,
    ]);
    expect(exported.stdout).toBe(`wrote 1 rows to ${out}\n`);
    const reader = await (
      await (await DuckDBInstance.create()).connect()
    ).runAndReadAll(`select marketplace_country_code, cogs_total_value::varchar as c from '${out}'`);
    // Exports round amounts to the cent: 13.875 → 13.88.
    expect(reader.getRowObjectsJson()).toEqual([{ marketplace_country_code: 'US', c: '13.88' }]);

    // The same export from an ExportRequest file, as the API takes it: a filter and JSON output.
    writeFileSync(
      join(dir, 'request.json'),
      JSON.stringify({
        tableName: 'mkt_order_items_with_cogs',
        sellerOrVendorIds: [connectionId],
        from: '2026-03-01',
        to: '2026-03-31',
        columns: ['sku', 'quantity'],
        filters: { rules: [{ field: 'sku', operator: 'beginsWith', value: 'sku-' }] },
        outputType: 'JSON',
      }),
    );
    const json = join(dir, 'orders.json');
    expect((await cli(['export', '--request', join(dir, 'request.json'), '--out', json, ...h])).stdout).toBe(
      `wrote 1 rows to ${json}\n`,
    );
    expect(JSON.parse(readFileSync(json, 'utf8'))).toMatchObject([
      { seller_or_vendor_id: connectionId, sku: 'SKU-A', quantity: 3 },
    ]);

    expect((await cli(['sources', 'disable', '--org', orgId, '--table', 'mkt_cogs', ...h])).stdout).toBe(
      `mkt_cogs disabled for organization ${orgId}\n`,
    );
    expect((await cli(['sources', 'enable', '--org', orgId, '--table', 'mkt_cogs', ...h])).stdout).toBe(
      `mkt_cogs enabled for organization ${orgId}\n`,
    );
    expect((await cli(['sources', 'enable', '--org', orgId, '--table', 'mkt_nope', ...h])).code).toBe(1);

    // Webhook subscriptions: the secret once, the id on the last line; never the secret again.
    expect((await cli(['webhooks', 'add', '--org', orgId, '--url', 'http://93.184.216.34/hook', ...h])).stderr).toMatch(
      /url: .*use https/,
    );
    expect(
      (
        await cli([
          'webhooks',
          'add',
          '--org',
          orgId,
          '--url',
          'https://93.184.216.34/hook',
          '--types',
          'MKT_NOPE',
          ...h,
        ])
      ).stderr,
    ).toMatch(/^mktdata: --types: unknown message type\(s\) MKT_NOPE/);
    const added = await cli([
      'webhooks',
      'add',
      '--org',
      orgId,
      '--url',
      'https://93.184.216.34/hook',
      '--types',
      'MKT_ORDER_UPDATE',
      ...h,
    ]);
    const secret = /secret {2}(whsec_\S+)/.exec(added.stdout)![1]!;
    const webhookId = lastLine(added.stdout);
    expect(webhookId).toMatch(uuid);
    const listed = await cli(['webhooks', 'list', '--format', 'json', ...h]);
    expect(JSON.parse(listed.stdout)).toEqual([
      expect.objectContaining({
        id: webhookId,
        organizationId: orgId,
        messageTypes: ['MKT_ORDER_UPDATE'],
        status: 'ACTIVE',
      }),
    ]);
    expect(listed.stdout).not.toContain(secret);
    expect(
      (await cli(['webhooks', 'replay', '--subscription', webhookId, '--since', '2026-11-01', ...h])).stdout,
    ).toMatch(/^queued 0 event\(s\) since 2026-11-01T00:00:00.000Z/);
    expect((await cli(['webhooks', 'remove', '--id', webhookId, ...h])).stdout).toBe(
      `removed webhook subscription ${webhookId}\n`,
    );

    // The actions beta, the types an organization runs, and a connection's access level.
    expect((await cli(['org', 'beta', '--org', orgId, '--actions', 'on', ...h])).stdout).toBe(
      `actions beta on for organization ${orgId}\n`,
    );
    expect(
      (
        await cli([
          'actions',
          'enable',
          '--org',
          orgId,
          '--type',
          'MKT_LISTINGS_FIND',
          'MKT_LISTINGS_PRICING_UPDATE',
          ...h,
        ])
      ).stdout,
    ).toBe('MKT_LISTINGS_FIND\nMKT_LISTINGS_PRICING_UPDATE\n');
    expect((await cli(['actions', 'disable', '--org', orgId, '--type', 'MKT_LISTINGS_FIND', ...h])).stdout).toBe(
      'MKT_LISTINGS_PRICING_UPDATE\n',
    );
    expect((await cli(['actions', 'enable', '--org', orgId, '--type', 'MKT_NOPE', ...h])).stderr).toBe(
      'mktdata: --type: not an action type of the spec: MKT_NOPE\n',
    );
    expect(
      (await cli(['connections', 'access', '--connection', connectionId, '--level', 'READ_AND_WRITE', ...h])).stdout,
    ).toBe(`${connectionId}: access level READ_AND_WRITE\n`);

    const db = readFileSync(join(home, 'warehouse.duckdb'));
    expect(db.includes(Buffer.from(secret))).toBe(false); // webhook secrets are stored encrypted
    expect(db.includes(Buffer.from(key))).toBe(false); // keys are stored hashed only
  });

  it('follows the conventions of a command-line tool: --version, --help, exit code 2 for a usage error', async () => {
    const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    expect(await cli(['--version'])).toMatchObject({ code: 0, stdout: `${version}\n` });
    const help = await cli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: mktdata \[options\] \[command\]/);
    const unknown = await cli(['bulid']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("error: unknown command 'bulid'");
    const missing = await cli(['org', 'create']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("error: required option '--name <name>' not specified");
    const commands = [
      'init',
      'org create',
      'org tokens',
      'keys create',
      'connections add',
      'connections list',
      'connections credentials',
      'connections test',
      'ingest',
      'cogs import',
      'build',
      'plan',
      'run',
      'runs',
      'query',
      'export',
      'sources enable',
      'sources disable',
      'webhooks add',
      'webhooks list',
      'webhooks remove',
      'webhooks replay',
      'org beta',
      'actions enable',
      'actions disable',
      'connections access',
      'serve',
      'mcp',
      'demo',
      'fake-marketplace',
      'doctor',
    ];
    for (const command of commands) {
      const page = await cli([...command.split(' '), '--help']);
      expect(page.code, command).toBe(0);
      expect(page.stdout, command).toMatch(new RegExp(`\\nExample:\\n  [^\\n]*mktdata ${command} `));
    }
    const badNumber = await cli(['serve', '--port', 'eighty']);
    expect(badNumber.code).toBe(2);
    expect(badNumber.stderr).toContain('not a whole number: eighty');
    // A number past 2^53 would not be stored as given.
    const huge = await cli(['org', 'tokens', '--org', 'x', '--add', '9223372036854775000']);
    expect(huge.code).toBe(2);
    expect(huge.stderr).toContain('9223372036854775000 is larger than 9007199254740991');
  });

  it('rejects an export without the date period its table requires', async () => {
    const result = await cli([
      'export',
      '--table',
      'mkt_order_items_with_cogs',
      '--connection',
      'x',
      '--out',
      '/tmp/x.csv',
      '--home',
      '/nonexistent',
    ]);
    expect(result).toMatchObject({ code: 1 });
    expect(result.stderr).toMatch(/^mktdata: /);
  });
});
