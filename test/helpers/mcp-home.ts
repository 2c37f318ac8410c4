import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { setActionsBeta } from '../../src/actions/settings.ts';
import { createApiKey, createOrganization } from '../../src/control/organizations.ts';
import { addConnection } from '../../src/control/connections/connections.ts';
import { openWarehouse, type Warehouse } from '../../src/db/warehouse.ts';
import { resolveHome, type Home } from '../../src/home.ts';
import { runModels } from '../../src/models/run-models.ts';
import { publish } from '../../src/publish/publish.ts';
import { landDemoFixtures } from './demo-fixtures.ts';

/** A connection of another organization, with no rows: its id must never reach the demo organization. */
export const OTHER_CONNECTION = '00000000-0000-4000-8000-0000000000b1';

/**
 * The demo files built and published in a new home: the demo organization (its key, the actions beta on) and a
 * second organization with a key of its own.
 */
export async function mcpHome(): Promise<{ home: Home; wh: Warehouse; key: string; org: string; otherKey: string }> {
  const home = resolveHome(join(mkdtempSync(join(tmpdir(), 'mktdata-mcp-')), 'home'));
  const wh = await openWarehouse(home, 'test', { create: true });
  const { organizationId: org, key } = await landDemoFixtures(wh);
  await setActionsBeta(wh, org, true);
  const other = await createOrganization(wh, { name: 'Other org', tokens: 10 });
  await addConnection(wh, {
    organizationId: other,
    id: OTHER_CONNECTION,
    name: 'Other',
    marketplaceId: 'ATVPDKIKX0DER',
  });
  const otherKey = await createApiKey(wh, other);
  const failed = (await runModels(wh)).filter((r) => r.status !== 'success');
  if (failed.length) throw new Error(failed.map((r) => `${r.model}: ${r.error}`).join('\n'));
  await publish(wh);
  return { home, wh, key, org, otherKey };
}

/** An SDK client connected to `/mcp` of `origin` with `key` (none: no key header). */
export async function httpClient(origin: string, key?: string): Promise<Client> {
  const client = new Client({ name: 'mktdata-test', version: '1.0.0' });
  const headers: Record<string, string> = key === undefined ? {} : { 'service-api-key': key };
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', origin), { requestInit: { headers } }));
  return client;
}

/** A tool call's structured answer (its JSON text, which every client shows, says the same). */
export async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = (result.content[0] as { text: string }).text;
  if (text.startsWith('MCP error')) throw new Error(text);
  return { isError: result.isError === true, value: JSON.parse(text) as Record<string, any> };
}
