import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { addConnection } from '../../src/control/connections/connections.ts';
import { createOrganization } from '../../src/control/organizations.ts';
import { openWarehouse, type Warehouse } from '../../src/db/warehouse.ts';
import { resolveHome, type Home } from '../../src/home.ts';
import { landFile } from '../../src/ingest/land-file.ts';
import { findSource } from '../../src/ingest/sources/index.ts';

export const US = { id: '00000000-0000-4000-8000-00000000a001', marketplaceId: 'ATVPDKIKX0DER' };
export const DE = { id: '00000000-0000-4000-8000-00000000a002', marketplaceId: 'A1PA6795UKMFR9' };

/** A fresh temporary home with an organization and one US and one DE connection. */
export async function makeHome(): Promise<{ home: Home; wh: Warehouse; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'mktdata-test-'));
  const home = resolveHome(join(dir, 'home'));
  const wh = await openWarehouse(home, 'test', { create: true });
  const organizationId = await createOrganization(wh, { name: 'Test org', tokens: 10 });
  await addConnection(wh, {
    organizationId,
    id: US.id,
    name: 'Test US',
    marketplaceId: US.marketplaceId,
    sellerId: 'SELLERUS',
  });
  await addConnection(wh, { organizationId, id: DE.id, name: 'Test DE', marketplaceId: DE.marketplaceId });
  return { home, wh, dir };
}

/** The documented 32-column header of the All Orders flat file. */
export const ordersHeader =
  'amazon-order-id merchant-order-id purchase-date last-updated-date order-status fulfillment-channel sales-channel order-channel ship-service-level product-name sku asin item-status quantity currency item-price item-tax shipping-price shipping-tax gift-wrap-price gift-wrap-tax item-promotion-discount ship-promotion-discount ship-city ship-state ship-postal-code ship-country promotion-ids cpf is-business-order purchase-order-number price-designation'.split(
    ' ',
  );

/** One order line: named fields, everything else empty. */
export type OrderLine = Partial<Record<(typeof ordersHeader)[number], string>>;

/** Writes an orders flat file (TSV) with the given header and lines; options gzip it or encode it as cp1252. */
export function writeOrders(
  dir: string,
  name: string,
  lines: OrderLine[],
  options: { header?: string[]; gzip?: boolean; cp1252?: boolean } = {},
): string {
  const header = options.header ?? ordersHeader;
  const variants: Record<string, string> = {
    'quantity-purchased': 'quantity',
    'merchant order-id': 'merchant-order-id',
  };
  const canonical = (h: string) => variants[h] ?? h;
  const text =
    [header.join('\t'), ...lines.map((l) => header.map((h) => l[canonical(h)] ?? '').join('\t'))].join('\n') + '\n';
  let bytes = options.cp1252 ? encodeCp1252(text) : Buffer.from(text, 'utf8');
  if (options.gzip) bytes = gzipSync(bytes);
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
}

const cp1252Extras: Record<string, number> = { '€': 0x80, '–': 0x96, '—': 0x97, '„': 0x84, '“': 0x93 };

function encodeCp1252(text: string): Buffer {
  return Buffer.from([...text].map((ch) => cp1252Extras[ch] ?? (ch.charCodeAt(0) < 256 ? ch.charCodeAt(0) : 0x3f)));
}

/** Lands a file of a source for a test connection. */
export function land(
  wh: Warehouse,
  sourceName: string,
  connection: { id: string; marketplaceId: string },
  path: string,
) {
  return landFile(wh, findSource(sourceName), connection, path);
}

/** Rows of a query as JSON-shaped objects (decimals and bigints as strings). */
export async function rows(wh: Warehouse, sql: string, params: Record<string, string> = {}) {
  return (await wh.sql.runAndReadAll(sql, params)).getRowObjectsJson();
}

/** Runs the real `mktdata` command (its standard input `input`); resolves with exit code, stdout and stderr. */
export async function cli(
  args: string[],
  options: { env?: NodeJS.ProcessEnv; input?: string } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  // (A variable set to undefined in `options.env` is left out.)
  const env = Object.fromEntries(
    Object.entries({ ...process.env, NO_COLOR: '1', ...options.env }).filter(([, v]) => v !== undefined),
  );
  const child = spawn('node', ['bin/mktdata.js', ...args], { env });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdin.end(options.input ?? '');
  const [code] = (await once(child, 'close')) as [number | null];
  return { code: code ?? 1, stdout, stderr };
}
