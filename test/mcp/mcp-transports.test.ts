import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpRoutes } from '../../src/mcp/http-route.ts';
import { buildApp, type App } from '../../src/api/app.ts';
import type { Warehouse } from '../../src/db/warehouse.ts';
import type { Home } from '../../src/home.ts';
import { setActionsBeta } from '../../src/actions/settings.ts';
import { call, httpClient, mcpHome, OTHER_CONNECTION } from '../helpers/mcp-home.ts';
import { startServe } from '../helpers/serve.ts';

const US = '6f1c2f0e-3b7a-4c55-9d0e-1a2b3c4d5e01'; // the demo's US seller (fixtures/demo/connections.json)

describe('MCP over Streamable HTTP at /mcp, and over stdio', () => {
  let home: Home;
  let wh: Warehouse;
  let app: App;
  let origin: string;
  let key: string;
  let otherKey: string;
  let client: Client;
  // The rate limit's clock: it only moves when a test moves it, so a bucket refills exactly when told.
  let clock = Date.parse('2026-11-22T10:00:00Z');

  beforeAll(async () => {
    ({ home, wh, key, otherKey } = await mcpHome());
    app = await buildApp({ wh, home, logger: false, extensions: [mcpRoutes], now: () => clock, requestsPerSecond: 2 });
    origin = await app.listen({ host: '127.0.0.1', port: 0 });
    client = await httpClient(origin, key);
  });
  afterAll(async () => {
    await client?.close();
    await app?.close();
    await wh?.close();
  });

  /** Refills the organization's bucket (2 a second): the next two tool calls are within the limit. */
  const tick = () => (clock += 1000);

  it('lists the tools, resources and prompts', async () => {
    const tools = (await client.listTools()).tools.map((t) => t.name).sort();
    expect(tools).toEqual(
      [
        'create_export',
        'create_file',
        'describe_table',
        'get_action',
        'get_agent_instructions',
        'get_export',
        'get_usage',
        'list_actions',
        'list_sellers_and_vendors',
        'query',
        'search_tables',
        'start_action',
      ].sort(),
    );
    const resources = await client.listResources();
    expect(resources.resources.map((r) => r.uri)).toContain('mktdata://data-scheme/mkt_profit_by_sku_and_date.md');
    const page = await client.readResource({ uri: 'mktdata://data-scheme/mkt_profit_by_sku_and_date.md' });
    expect((page.contents[0] as { text: string }).text).toMatch(/^# mkt_profit_by_sku_and_date/);
    const prompts = (await client.listPrompts()).prompts.map((p) => p.name).sort();
    expect(prompts).toEqual(['b2b_and_b2c', 'deprecated_tables', 'marketplace_timezones', 'profit_vs_sales']);
    const prompt = await client.getPrompt({ name: 'profit_vs_sales', arguments: { question: 'profit last week?' } });
    expect((prompt.messages[0]!.content as { text: string }).text).toContain(
      'profit = total_sales - sales_tax - total_fees - cogs_total - ad_spend + refund_cost',
    );
  });

  it('searches the catalog by alias and describes mkt_profit_by_sku_and_date with its grain and rules', async () => {
    tick();
    const found = await call(client, 'search_tables', { words: 'p&l sku' });
    expect(found.value.tables[0].tableName).toBe('mkt_profit_by_sku_and_date'); // both words: the alias and the column
    const described = await call(client, 'describe_table', { tableName: 'mkt_profit_by_sku_and_date' });
    expect(described.isError).toBe(false);
    expect(described.value.grain).toBe('one row per seller_or_vendor_id, date, child_asin and sku');
    const profit = described.value.columns.find((c: { name: string }) => c.name === 'profit');
    expect(profit.rules.some((r: string) => r.startsWith('001 Profit measure rules 11'))).toBe(true);
    tick();
    const unknown = await call(client, 'describe_table', { tableName: 'control_connections' });
    expect(unknown).toMatchObject({ isError: true, value: { statusCode: 404, code: 'ERR_SOURCE_NOT_FOUND' } });
  });

  it("lists only the organization's own sellers", async () => {
    tick();
    const { value } = await call(client, 'list_sellers_and_vendors');
    const ids = value.items.map((i: { sellerOrVendorId: string }) => i.sellerOrVendorId).sort();
    expect(ids).toEqual([US, '6f1c2f0e-3b7a-4c55-9d0e-1a2b3c4d5e02']);
    expect(ids).not.toContain(OTHER_CONNECTION);
  });

  it('creates an export recorded with usage EXPORTS_MCP_STANDARD and fetches it through its link', async () => {
    tick();
    const created = await call(client, 'create_export', {
      sellerOrVendorIds: [US],
      tableName: 'mkt_profit_by_sku_and_date',
      from: '2026-08-01',
      to: '2026-10-15',
      outputType: 'CSV',
    });
    expect(created.isError, JSON.stringify(created.value)).toBe(false);
    await app.exportServices.worker.idle();
    tick();
    const got = await call(client, 'get_export', { exportId: created.value.exportId });
    expect(got.value.status).toBe('COMPLETED');
    const file = await fetch(got.value.downloadUrl as string);
    expect(file.status).toBe(200);
    expect((await file.text()).split('\n')[0]).toContain('profit');
    tick();
    const usage = await call(client, 'get_usage');
    const record = usage.value.usage.items.find((u: { resourceId: string }) => u.resourceId === created.value.exportId);
    expect(record).toMatchObject({ usageType: 'EXPORTS', specificUsageType: 'EXPORTS_MCP_STANDARD', tokens: 5 }); // premium table: 5
  });

  it('answers a sum of profit by SKU over the last 7 days equal to the same sum exported through /api/v1/exports', async () => {
    tick();
    // The demo's files end on 2026-10-15: the last 7 marketplace-local days are 2026-10-09..15.
    const sql = `select sku, sum(profit) as profit from mkt_profit_by_sku_and_date
      where seller_or_vendor_id = '${US}' and date between date '2026-10-09' and date '2026-10-15' group by sku`;
    const queried = await call(client, 'query', { sql });
    expect(queried.isError, JSON.stringify(queried.value)).toBe(false);
    expect(queried.value.columns.map((c: { name: string }) => c.name)).toEqual(['sku', 'profit']);
    const created = await fetch(`${origin}/api/v1/exports`, {
      method: 'POST',
      headers: { 'service-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({
        sellerOrVendorIds: [US],
        tableName: 'mkt_profit_by_sku_and_date',
        from: '2026-10-09',
        to: '2026-10-15',
        groupBy: ['sku'],
        aggregations: [{ column: 'profit', aggregation: 'sum' }],
        outputType: 'JSON',
      }),
    });
    expect(created.status).toBe(202);
    const exportId = ((await created.json()) as { exportId: string }).exportId;
    await app.exportServices.worker.idle();
    tick();
    const link = (await call(client, 'get_export', { exportId })).value.downloadUrl as string;
    const exported = ((await (await fetch(link)).json()) as { sku: string; sum_profit: number }[]).map((r) => ({
      sku: r.sku,
      profit: r.sum_profit,
    }));
    // Exports round amounts to the cent (docs/api.md): the query's exact sums, rounded the same way, are the same.
    const cents = (rows: { sku: string; profit: unknown }[]) =>
      Object.fromEntries(rows.map((r) => [r.sku, Number(r.profit).toFixed(2)]));
    expect(Object.keys(cents(exported)).length).toBeGreaterThan(0);
    expect(cents(queried.value.rows)).toEqual(cents(exported));
    tick();
    const usage = await call(client, 'get_usage');
    const record = usage.value.usage.items.find((u: { resourceId: string }) => u.resourceId === queried.value.queryId);
    expect(record).toMatchObject({ specificUsageType: 'EXPORTS_MCP_STANDARD', tokens: 5 }); // a premium table: 5
  });

  it("reads none of another organization's rows and refuses what is not a SELECT of the catalog", async () => {
    tick();
    const mine = await call(client, 'query', {
      sql: 'select distinct seller_or_vendor_id as id from mkt_profit_by_sku_and_date order by id',
    });
    expect(mine.value.rows).toEqual([{ id: US }, { id: '6f1c2f0e-3b7a-4c55-9d0e-1a2b3c4d5e02' }]);
    const refused = await call(client, 'query', { sql: 'select * from control.connections' });
    expect(refused).toMatchObject({ isError: true, value: { code: 'ERR_QUERY_REFUSED' } });
  });

  it('records a dry-run action VALIDATED with creator MCP, listed by GET /api/v1/actions?creators=MCP', async () => {
    tick();
    const details = { sku: 'SKU-A', price: { amount: 19.99, currency: 'USD' } };
    const started = await call(client, 'start_action', {
      type: 'MKT_LISTINGS_PRICING_UPDATE',
      sellerOrVendorId: US,
      details,
    });
    expect(started.value).toMatchObject({ status: 'VALIDATED', validation: { valid: true, issues: [] } });
    const listed = await fetch(`${origin}/api/v1/actions?creators=MCP`, { headers: { 'service-api-key': key } });
    const items = ((await listed.json()) as { items: { actionId: string; creator: string; status: string }[] }).items;
    expect(items).toEqual([
      expect.objectContaining({ actionId: started.value.actionId, creator: 'MCP', status: 'VALIDATED' }),
    ]);
  });

  it('creates a data file with source MCP and an upload link', async () => {
    tick();
    const { value } = await call(client, 'create_file', {
      name: 'hero.png',
      group: 'LISTING_IMAGES',
      type: 'PNG',
      sellerOrVendorId: US,
      ttlHours: 24,
    });
    expect(value).toMatchObject({ source: 'MCP', status: 'WAITING_FOR_UPLOAD' });
    expect(value.uploadUrl).toMatch(new RegExp(`^${origin}/api/v1/files/${value.fileId}/content\\?`));
  });

  it("answers another organization's key with its own sellers, and its 10 tokens pay for two queries, then 402", async () => {
    tick();
    const other = await httpClient(origin, otherKey);
    const { value } = await call(other, 'list_sellers_and_vendors');
    expect(value.items.map((i: { sellerOrVendorId: string }) => i.sellerOrVendorId)).toEqual([OTHER_CONNECTION]);
    tick();
    // A failing query is refunded: the balance stays 10.
    const failed = await call(other, 'query', { sql: 'select nope from mkt_profit_by_sku_and_date' });
    expect(failed).toMatchObject({ isError: true, value: { statusCode: 400, code: 'ERR_QUERY_INVALID' } });
    expect((await call(other, 'get_usage')).value).toMatchObject({ tokenBalance: 10, usage: { totalCount: 0 } });
    // Each query of the premium profit table costs 5: 10 → 5 → 0, then the API's 402.
    const count = { sql: 'select count(*) as n from mkt_profit_by_sku_and_date' };
    tick();
    expect((await call(other, 'query', count)).value).toMatchObject({ rows: [{ n: 0 }], tokens: 5 });
    expect((await call(other, 'query', count)).value).toMatchObject({ rows: [{ n: 0 }], tokens: 5 });
    tick();
    const refused = await call(other, 'query', count);
    expect(refused).toMatchObject({ isError: true, value: { statusCode: 402, code: 'ERR_NO_TOKENS' } });
    const { organization_id } = await wh.db
      .selectFrom('control.connections')
      .select('organization_id')
      .where('id', '=', OTHER_CONNECTION)
      .executeTakeFirstOrThrow();
    await setActionsBeta(wh, organization_id, true); // GET /actions answers 402 without tokens, once the beta is on
    const http = await fetch(`${origin}/api/v1/actions`, { headers: { 'service-api-key': otherKey } });
    expect(http.status).toBe(402);
    expect(refused.value.message).toBe(((await http.json()) as { message: string }).message); // the API's own 402 message
    await other.close();
  });

  it('refuses a missing key, a wrong key and a call over the rate limit as the HTTP API does, as MCP errors', async () => {
    await expect(httpClient(origin)).rejects.toMatchObject({
      code: 401,
      message: expect.stringContaining('"code":"ERR_AUTH_MISSING_KEY"'),
    });
    await expect(httpClient(origin, 'not-a-key')).rejects.toMatchObject({
      code: 401,
      message: expect.stringContaining('"code":"ERR_AUTH_INVALID_KEY"'),
    });
    tick();
    await call(client, 'get_agent_instructions');
    await call(client, 'get_agent_instructions'); // the bucket (2) is empty now, and the clock stands still
    await expect(call(client, 'get_agent_instructions')).rejects.toMatchObject({
      code: 429,
      message: expect.stringContaining('"code":"ERR_RATE_LIMITED"'),
    });
    const http = await fetch(`${origin}/api/v1/util/organization`, { headers: { 'service-api-key': key } });
    expect(http.status).toBe(429); // one bucket for /api/v1 and /mcp
  });

  /** `mktdata mcp` on the home, as a local assistant starts it, connected with the SDK's stdio client. */
  async function stdioClient(apiKey: string): Promise<Client> {
    const client = new Client({ name: 'mktdata-test', version: '1.0.0' });
    const env = { ...process.env, MKTDATA_API_KEY: apiKey } as Record<string, string>;
    const args = ['bin/mktdata.js', 'mcp', '--home', home.root];
    await client.connect(new StdioClientTransport({ command: 'node', args, env, stderr: 'ignore' }));
    return client;
  }

  describe('over stdio (`mktdata mcp`)', () => {
    beforeAll(async () => {
      // The home is free now: `mktdata mcp` serves it itself, then beside a `serve` it relays to that one.
      await client.close();
      await app.close();
      await wh.close();
    });

    it('serves the home itself when nothing else does: tools, a call, and a wrong or missing key refused as MCP errors', async () => {
      const stdio = await stdioClient(key);
      expect((await stdio.listTools()).tools.map((t) => t.name)).toContain('describe_table');
      const described = await call(stdio, 'describe_table', { tableName: 'mkt_profit_by_sku_and_date' });
      expect(described.value.grain).toBe('one row per seller_or_vendor_id, date, child_asin and sku');
      await stdio.close();
      await expect(stdioClient('not-a-key')).rejects.toMatchObject({
        message: 'MCP error -32000: the service-api-key is not a valid API key',
        data: { statusCode: 401, code: 'ERR_AUTH_INVALID_KEY' },
      });
      await expect(stdioClient('')).rejects.toMatchObject({ data: { statusCode: 401, code: 'ERR_AUTH_MISSING_KEY' } });
    });

    it("relays to the home's running `serve`", async () => {
      const serve = await startServe(home.root, ['--no-pipelines']);
      try {
        const stdio = await stdioClient(key);
        const { value } = await call(stdio, 'list_sellers_and_vendors');
        expect(value.items).toHaveLength(2);
        await stdio.close();
      } finally {
        expect(await serve.stop(20_000)).toBe(0);
      }
    });
  });
});
