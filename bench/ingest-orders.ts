import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { DuckDBInstance } from '@duckdb/node-api';
import { addConnection } from '../src/control/connections/connections.ts';
import { createOrganization } from '../src/control/organizations.ts';
import { duckDbOptions, openWarehouse } from '../src/db/warehouse.ts';
import { resolveHome } from '../src/home.ts';
import { landFile } from '../src/ingest/land-file.ts';
import { findSource } from '../src/ingest/sources/index.ts';
import { medianRatio, takeTurns } from './paired.ts';

/** Where generated input files are cached between runs (gitignored). */
export const benchDataDir = fileURLToPath(new URL('./.data/', import.meta.url));

const LINES = 1_000_000;
const MARKETPLACE_ID = 'ATVPDKIKX0DER';
const SOURCE = 'GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL';
/** Bump when the generator changes so a stale cached file is not reused. */
const GENERATOR_VERSION = 1;
/** Measurements per side, taking turns at going first. */
const ATTEMPTS = 7;

const header =
  'amazon-order-id merchant-order-id purchase-date last-updated-date order-status fulfillment-channel sales-channel order-channel ship-service-level product-name sku asin item-status quantity currency item-price item-tax shipping-price shipping-tax gift-wrap-price gift-wrap-tax item-promotion-discount ship-promotion-discount ship-city ship-state ship-postal-code ship-country promotion-ids cpf is-business-order purchase-order-number price-designation'.split(
    ' ',
  );

export interface IngestOrdersResult {
  lines: number;
  /** measurements per side */
  attempts: number;
  /** best wall time of `create table … as select * from read_csv(…)` + checkpoint */
  bareMs: number;
  /** best wall time of `landFile(…)` + checkpoint */
  mktdataMs: number;
  /** the median of the attempts' mktdata / bare ratios (paired.ts) */
  ratio: number;
}

export interface BenchOptions {
  /** Progress lines (file generation, each attempt). */
  log?: (message: string) => void;
}

/**
 * Lands a 1,000,000-line All Orders flat file through mktdata and compares it with a bare
 * DuckDB `read_csv` of the same file into a table of a fresh database file.
 */
export async function benchIngestOrders(workDir: string, options: BenchOptions = {}): Promise<IngestOrdersResult> {
  const log = options.log ?? (() => {});
  mkdirSync(workDir, { recursive: true });
  const file = await ordersFile(log);

  const [bare, mktdata] = await takeTurns(
    ATTEMPTS,
    (attempt) => timeBareReadCsv(join(workDir, `bare-${attempt}.duckdb`), file),
    (attempt) => timeMktdataLand(join(workDir, `home-${attempt}`), file),
    (attempt, b, m) =>
      log(`  #${attempt}: bare read_csv ${formatMs(b)} ms, mktdata land ${formatMs(m)} ms: ${(m / b).toFixed(2)}x`),
  );
  return {
    lines: LINES,
    attempts: ATTEMPTS,
    bareMs: Math.min(...bare),
    mktdataMs: Math.min(...mktdata),
    ratio: medianRatio(mktdata, bare),
  };
}

/** (a) A fresh DuckDB file database: `create table t as select * from read_csv(…)`, then checkpoint. */
async function timeBareReadCsv(dbPath: string, file: string): Promise<number> {
  removeDatabase(dbPath);
  const instance = await DuckDBInstance.create(dbPath, duckDbOptions);
  const sql = await instance.connect();
  try {
    const start = performance.now();
    await sql.run(`create table t as select * from read_csv($path, delim='\t', header=true)`, { path: file });
    await sql.run('checkpoint');
    const ms = performance.now() - start;
    const count = Number((await sql.runAndReadAll('select count(*) from t')).getRows()[0]?.[0]);
    if (count !== LINES) throw new Error(`bare read_csv read ${count} rows, expected ${LINES}`);
    return ms;
  } finally {
    sql.closeSync();
    instance.closeSync();
    removeDatabase(dbPath);
  }
}

/** (b) A fresh home with an organization and connection (untimed), then `landFile` + checkpoint (timed). */
async function timeMktdataLand(homeDir: string, file: string): Promise<number> {
  rmSync(homeDir, { recursive: true, force: true });
  const home = resolveHome(homeDir);
  const wh = await openWarehouse(home, 'bench', { create: true });
  try {
    const organizationId = await createOrganization(wh, { name: 'Bench org', tokens: 0 });
    const connectionId = await addConnection(wh, { organizationId, name: 'Bench US', marketplaceId: MARKETPLACE_ID });
    const source = findSource(SOURCE);

    const start = performance.now();
    const result = await landFile(wh, source, { id: connectionId, marketplaceId: MARKETPLACE_ID }, file);
    await wh.sql.run('checkpoint');
    const ms = performance.now() - start;

    if (result.status !== 'landed') {
      throw new Error(`mktdata did not land the file: ${JSON.stringify(result)}`);
    }
    if (result.rows !== LINES) throw new Error(`mktdata landed ${result.rows} rows, expected ${LINES}`);
    return ms;
  } finally {
    await wh.close();
    rmSync(homeDir, { recursive: true, force: true });
  }
}

function removeDatabase(path: string): void {
  rmSync(path, { force: true });
  rmSync(`${path}.wal`, { force: true });
}

/** The cached 1M-line orders file, generated with DuckDB on first use. */
async function ordersFile(log: (message: string) => void): Promise<string> {
  mkdirSync(benchDataDir, { recursive: true });
  const file = join(benchDataDir, `orders-${LINES}-v${GENERATOR_VERSION}.tsv`);
  if (existsSync(file)) {
    log(`  reusing ${file}`);
    return file;
  }
  const start = performance.now();
  const partial = `${file}.partial`;
  const instance = await DuckDBInstance.create(':memory:', duckDbOptions);
  const sql = await instance.connect();
  try {
    await sql.run(
      `copy (${generatorQuery(LINES)}) to '${partial.replace(/'/g, "''")}' (format csv, delimiter '\t', header false, quote '', escape '')`,
    );
  } finally {
    sql.closeSync();
    instance.closeSync();
  }
  renameSync(partial, file);
  log(`  generated ${file} in ${formatMs(performance.now() - start)} ms`);
  return file;
}

/**
 * One header row (k = 0) then `lines` order lines (k = 1…), all as text, ordered by k.
 * Pseudo-random but deterministic: values derive from hash(i). About 1.5 lines per order,
 * purchase dates spread over 2025-01-01…2026-12-31, ~8% Pending and ~6% Cancelled (those
 * have empty amounts, as in real files), a few business orders and promotions.
 */
export function generatorQuery(lines: number): string {
  const products = [
    ['ACM-TENT-2P-ORG', 'B0Z6K0UMNN', 'Acme Ridgeline 2-Person Backpacking Tent, Orange', '189.99'],
    ['ACM-HAMMOCK-DBL', 'B0020GE6SE', 'Acme Double Hammock w/ Straps', '44.99'],
    ['ACM-CHAIR-FOLD', 'B0D8FAPDDZ', 'Acme Folding Camp Chair', '34.99'],
    ['ACM-PAD-FOAM', 'B0H037BR6N', 'Acme Closed-Cell Foam Pad', '24.99'],
    ['ACM-LANTERN-LED', 'B07QX2LKMN', 'Acme Rechargeable LED Lantern, 400 lm', '29.99'],
    ['ACM-BAG-20F', 'B08HJ3K2PL', 'Acme 20°F Mummy Sleeping Bag', '89.99'],
    ['ACM-STOVE-MINI', 'B09ZT5RQ1X', 'Acme Mini Backpacking Stove', '39.99'],
    ['ACM-BOTTLE-1L', 'B0BXW7N3QD', 'Acme Insulated Bottle 1 L, "Slate"', '27.50'],
    ['ACM-KNIFE-FOLD', 'B0C4M9V8RT', 'Acme Folding Knife – 3 in. Blade', '19.99'],
    ['ACM-TARP-10X10', 'B0CK2P7ZYW', 'Acme Ultralight Tarp 10x10', '64.00'],
  ];
  const cities = [
    ['SAN FRANCISCO', 'CA', '94103'],
    ['SEATTLE', 'WA', '98101'],
    ['AUSTIN', 'TX', '78701'],
    ['DENVER', 'CO', '80202'],
    ['BROOKLYN', 'NY', '11201'],
    ['CHICAGO', 'IL', '60601'],
    ['PORTLAND', 'OR', '97205'],
    ['MIAMI', 'FL', '33130'],
    ['BOSTON', 'MA', '02108'],
    ['SALT LAKE CITY', 'UT', '84101'],
  ];
  const list = (values: string[]) => `[${values.map((v) => `'${v.replace(/'/g, "''")}'`).join(', ')}]`;
  const pick = (values: string[], r: string) => `${list(values)}[1 + ${r} % ${values.length}]`;
  const money = (expr: string) => `printf('%.2f', ${expr})`;
  const twoYears = 2 * 365 * 86400;
  const ordersCount = Math.ceil(lines / 1.5);

  // Per line: o = order number, p = product, r* = independent pseudo-random draws.
  const base = `
    select i + 1 as k, o, (hash(o) % 1000000007)::bigint as ro, (hash(o * 31 + 17) % 1000000007)::bigint as ro2, (hash(i * 7 + 3) % 1000000007)::bigint as ri, (hash(i * 13 + 5) % 1000)::bigint as p
    from (select i, (i * 2) // 3 as o from range(${lines}) r(i))`;
  const order = `
    select *,
      timestamp '2025-01-01 00:00:00' + to_seconds((o * ${twoYears}) // ${ordersCount} + ro % 3600) as purchased,
      case when ro % 100 < 8 then 'Pending' when ro % 100 < 14 then 'Cancelled' else 'Shipped' end as status,
      ro % 100 >= 95 as business,
      1 + (case when ri % 10 < 8 then 0 when ri % 10 < 9 then 1 else 2 end) as qty,
      ${list(products.map((x) => x[3]!))}[1 + p % ${products.length}]::decimal(10,2) as unit
    from (${base})`;
  const line = `
    select *,
      status != 'Shipped' and (status = 'Cancelled' or ri % 3 = 0) as no_amounts,
      unit * qty as item_price,
      case when ro % 4 = 0 then 0.00 else 5.99 end as shipping,
      case when ri % 25 = 0 then -round(unit * qty * 0.1, 2) else 0.00 end as promo
    from (${order})`;
  const amount = (expr: string) => `case when no_amounts then '' else ${money(expr)} end`;
  const columns = [
    `printf('%03d-%07d-%07d', 111 + ro2 % 4, ro % 10000000, ro2 % 10000000)`,
    `''`,
    `strftime(purchased, '%Y-%m-%dT%H:%M:%S+00:00')`,
    `strftime(purchased + to_seconds(600 + ro2 % 172800), '%Y-%m-%dT%H:%M:%S+00:00')`,
    `status`,
    `case when ro % 5 = 0 then 'Merchant' else 'Amazon' end`,
    `'Amazon.com'`,
    `''`,
    pick(['Standard', 'Standard', 'Expedited', 'SecondDay', 'NextDay'], 'ro'),
    pick(
      products.map((x) => x[2]!),
      'p',
    ),
    pick(
      products.map((x) => x[0]!),
      'p',
    ),
    pick(
      products.map((x) => x[1]!),
      'p',
    ),
    `case when status = 'Pending' then 'Unshipped' else status end`,
    `qty::varchar`,
    `'USD'`,
    amount('item_price'),
    amount('item_price * 0.08625'),
    amount('shipping'),
    amount('shipping * 0.08625'),
    amount('0.00'),
    amount('0.00'),
    amount('promo'),
    amount('case when shipping > 0 and ri % 7 = 0 then -shipping else 0 end'),
    pick(
      cities.map((x) => x[0]!),
      'ro',
    ),
    pick(
      cities.map((x) => x[1]!),
      'ro',
    ),
    pick(
      cities.map((x) => x[2]!),
      'ro',
    ),
    `'US'`,
    `case when promo < 0 then 'US Core Free Shipping Promotion ' || (ri % 100000)::varchar else '' end`,
    `''`,
    `case when business then 'true' else 'false' end`,
    `case when business then 'PO-' || (ro % 1000000)::varchar else '' end`,
    `case when business then 'BusinessPrice' else '' end`,
  ];
  if (columns.length !== header.length)
    throw new Error(`generator has ${columns.length} columns, header ${header.length}`);
  // The header is row k = 0; every value is text so the header and the lines share one column type.
  const named = (values: string[]) => values.map((v, i) => `${v} as c${i}`).join(', ');
  const quoted = (h: string) => `'${h.replace(/'/g, "''")}'`;
  return `
    select ${header.map((_, i) => `c${i}`).join(', ')} from (
      select 0 as k, ${named(header.map(quoted))}
      union all
      select k, ${named(columns)} from (${line})
    ) order by k`;
}

export function formatMs(ms: number): string {
  return ms.toFixed(0);
}
