/**
 * Deterministic demo-data generator for mktdata.
 *
 * Writes fixtures/demo/: two seller connections (Acme Outdoor US / DE), each with two overlapping
 * GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL report files, one COGS CSV, six 14-day
 * settlement reports (V2 flat file), an FBA customer returns report, 21 one-day sales and traffic
 * reports and one Ads API v3 download per ads report type, plus connections.json and README.md.
 * Settlements, returns, traffic and ads are derived from the generated orders (same order ids,
 * SKUs, ASINs and dates) so that every profit rule of the models has data to work on. Output is byte-identical on every run: all randomness comes from
 * seeded mulberry32 streams, all timestamps are derived from fixed constants (no Date.now(),
 * no Math.random()).
 *
 * Run: `npm run demo:generate` (or `npx tsx scripts/generate-demo.ts`).
 * Node built-ins only.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(ROOT, 'fixtures', 'demo');
const REPORT_TYPE = 'GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL';

// ---------------------------------------------------------------------------------------------
// PRNG
// ---------------------------------------------------------------------------------------------

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Rng {
  private readonly next: () => number;
  constructor(seed: number) {
    this.next = mulberry32(seed);
  }
  float(): number {
    return this.next();
  }
  /** Integer in [min, max] inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }
  weighted<T>(items: readonly T[], weights: readonly number[]): T {
    let total = 0;
    for (const w of weights) total += w;
    let r = this.next() * total;
    for (let i = 0; i < items.length; i++) {
      r -= weights[i]!;
      if (r < 0) return items[i]!;
    }
    return items[items.length - 1]!;
  }
  digits(n: number): string {
    let s = '';
    for (let i = 0; i < n; i++) s += String(this.int(0, 9));
    return s;
  }
}

// ---------------------------------------------------------------------------------------------
// Encoding helpers
// ---------------------------------------------------------------------------------------------

/** Windows-1252 bytes 0x80..0x9F (WHATWG index; undefined slots map to the C1 control itself). */
const CP1252_HIGH: readonly number[] = [
  0x20ac, 0x0081, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039,
  0x0152, 0x008d, 0x017d, 0x008f, 0x0090, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014,
  0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0x009d, 0x017e, 0x0178,
];
const CP1252_ENCODE = new Map<number, number>();
for (let b = 0; b < 256; b++) {
  const cp = b >= 0x80 && b <= 0x9f ? CP1252_HIGH[b - 0x80]! : b;
  CP1252_ENCODE.set(cp, b);
}

function encodeCp1252(text: string): Buffer {
  const out = Buffer.alloc(text.length);
  let i = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    // Only accept printable characters for the 0x80..0x9F range (no raw C1 controls in the output).
    const byte = cp >= 0x80 && cp <= 0x9f ? undefined : CP1252_ENCODE.get(cp);
    if (byte === undefined) throw new Error(`character U+${cp.toString(16)} (${ch}) not encodable in cp1252`);
    out[i++] = byte;
  }
  return out.subarray(0, i);
}

/**
 * Table-based cp1252 decoder. NOTE: Node 20.18.3+ TextDecoder('windows-1252') is broken (it decodes
 * as ISO-8859-1, so 0x80 becomes U+0080 instead of '€'; nodejs/node#60888), so do not rely on it.
 */
function decodeCp1252(buf: Uint8Array): string {
  let s = '';
  for (const b of buf) s += String.fromCharCode(b >= 0x80 && b <= 0x9f ? CP1252_HIGH[b - 0x80]! : b);
  return s;
}

// ---------------------------------------------------------------------------------------------
// Time helpers (all UTC, epoch milliseconds)
// ---------------------------------------------------------------------------------------------

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const utc = (y: number, m: number, d: number, h = 0, mi = 0, s = 0): number => Date.UTC(y, m - 1, d, h, mi, s);

/** `2026-08-14T23:41:07+00:00` */
function isoUtc(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19) + '+00:00';
}
function ymd(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

const RANGE_START = utc(2026, 8, 1);
const RANGE_END = utc(2026, 10, 16); // exclusive: orders through 2026-10-15 23:59:59 UTC
const FILE1 = { from: utc(2026, 8, 1), to: utc(2026, 9, 16), label: '2026-08-01_2026-09-15' };
const FILE2 = { from: utc(2026, 9, 10), to: utc(2026, 10, 16), label: '2026-09-10_2026-10-15' };
/** When each report was (notionally) generated: nothing in a file is updated after this. */
const SNAPSHOT1 = utc(2026, 9, 16, 4, 30);
const SNAPSHOT2 = utc(2026, 10, 16, 4, 30);

// ---------------------------------------------------------------------------------------------
// Static data
// ---------------------------------------------------------------------------------------------

interface Connection {
  key: 'us' | 'de';
  id: string;
  name: string;
  marketplaceId: string;
  sellerId: string;
}

const CONNECTIONS: readonly Connection[] = [
  { key: 'us', id: '6f1c2f0e-3b7a-4c55-9d0e-1a2b3c4d5e01', name: 'Acme Outdoor US', marketplaceId: 'ATVPDKIKX0DER', sellerId: 'A3ACMEUS0SELLER' },
  { key: 'de', id: '6f1c2f0e-3b7a-4c55-9d0e-1a2b3c4d5e02', name: 'Acme Outdoor DE', marketplaceId: 'A1PA6795UKMFR9', sellerId: 'A3ACMEDE0SELLER' },
];

const US_HEADER = [
  'amazon-order-id', 'merchant-order-id', 'purchase-date', 'last-updated-date', 'order-status',
  'fulfillment-channel', 'sales-channel', 'order-channel', 'ship-service-level', 'product-name', 'sku',
  'asin', 'item-status', 'quantity', 'currency', 'item-price', 'item-tax', 'shipping-price',
  'shipping-tax', 'gift-wrap-price', 'gift-wrap-tax', 'item-promotion-discount',
  'ship-promotion-discount', 'ship-city', 'ship-state', 'ship-postal-code', 'ship-country',
  'promotion-ids', 'cpf', 'is-business-order', 'purchase-order-number', 'price-designation',
] as const;
/** Localized (DE) variant: quantity-purchased, no cpf, legacy url column after price-designation. */
const DE_HEADER = [
  ...US_HEADER.filter((c) => c !== 'cpf').map((c) => (c === 'quantity' ? 'quantity-purchased' : c)),
  'url',
];

type Only = 'Amazon' | 'Merchant' | undefined;
interface Product {
  sku: string;
  us?: string; // US product name (undefined: not listed on US)
  de?: string; // DE product name (undefined: not listed on DE)
  usd?: number; // unit price in cents
  eur?: number; // unit price in cents, VAT included
  pop: number; // relative popularity
  only?: Only; // restrict to one fulfillment channel
}

// prettier-ignore
const PRODUCTS: readonly Product[] = [
  { sku: 'ACM-TENT-2P-GRN', us: 'Acme Ridgeline 2-Person Backpacking Tent, Green', de: 'Acme Ridgeline 2-Personen Trekkingzelt, Grün', usd: 18999, eur: 19999, pop: 6 },
  { sku: 'ACM-TENT-2P-ORG', us: 'Acme Ridgeline 2-Person Backpacking Tent, Orange', de: 'Acme Ridgeline 2-Personen Trekkingzelt, Orange', usd: 18999, eur: 19999, pop: 3 },
  { sku: 'ACM-TENT-4P-GRN', us: 'Acme Basecamp 4-Person Dome Tent', de: 'Acme Basecamp 4-Personen Kuppelzelt', usd: 27900, eur: 28900, pop: 3 },
  { sku: 'ACM-BAG-0F-REG', us: 'Acme Summit 0°F Sleeping Bag, Regular', de: 'Acme Summit Schlafsack -18 °C, Regular', usd: 14995, eur: 15995, pop: 4 },
  { sku: 'ACM-BAG-0F-LNG', us: 'Acme Summit 0°F Sleeping Bag, Long', de: 'Acme Summit Schlafsack -18 °C, Long', usd: 16495, eur: 17495, pop: 2 },
  { sku: 'ACM-BAG-KIDS-BLU', us: 'Acme Kids Sleeping Bag "Starry Night", Blue', de: 'Kinderschlafsack „Sternenhimmel“, Blau', usd: 5999, eur: 5499, pop: 4 },
  { sku: 'ACM-PAD-SELF-R', us: 'Acme Self-Inflating Sleeping Pad', de: 'Acme selbstaufblasende Isomatte', usd: 6999, eur: 6499, pop: 5 },
  { sku: 'ACM-PAD-FOAM', us: 'Acme Closed-Cell Foam Pad', de: 'Acme Schaumstoff-Isomatte', usd: 3499, eur: 2999, pop: 3 },
  { sku: 'ACM-PACK-40L-GRY', us: 'Acme Trailhead 40L Hiking Backpack, Gray', de: 'Acme Trailhead 40 L Wanderrucksack, Grau', usd: 11900, eur: 12490, pop: 6 },
  { sku: 'ACM-PACK-65L-GRY', us: 'Acme Trailhead 65L Hiking Backpack, Gray', de: 'Acme Trailhead 65 L Trekkingrucksack, Grau', usd: 19900, eur: 20900, pop: 3 },
  { sku: 'ACM-PACK-KIDS-GRN', us: 'Acme Kids Hiking Backpack – Green', de: 'Wanderrucksack für Kinder – Grün', usd: 3999, eur: 3495, pop: 6 },
  { sku: 'ACM-PACK-DAY-BLK', us: 'Acme 22L Daypack, Black', de: 'Acme Tagesrucksack 22 L, Schwarz', usd: 4999, eur: 4995, pop: 7 },
  { sku: 'ACM-MUG-12-BLK', us: 'Trail Mug 12" Steel, Black', de: 'Trail Mug 12" Edelstahl, Schwarz', usd: 1999, eur: 1799, pop: 8, only: 'Merchant' },
  { sku: 'ACM-MUG-12-BLK-FBA', us: 'Trail Mug 12" Steel, Black', de: 'Trail Mug 12" Edelstahl, Schwarz', usd: 1999, eur: 1799, pop: 9, only: 'Amazon' },
  { sku: 'ACM-MUG-16-RED', us: 'Acme Insulated Trail Mug 16 oz, Red', de: 'Acme Thermobecher 0,5 l, Rot', usd: 2499, eur: 2299, pop: 6 },
  { sku: 'ACM-BOTTLE-1L-WHT', us: 'Acme Insulated Water Bottle 1L, White', de: 'Acme Isolierflasche 1 l, Weiß', usd: 2999, eur: 2799, pop: 8 },
  { sku: 'ACM-BOTTLE-2PK', us: 'Acme Water Bottle 2-Pack', de: 'Trinkflaschen Spar-Set (2 Stück) – unter 30 €', usd: 4499, eur: 2990, pop: 5 },
  { sku: 'ACM-STOVE-CAN', us: 'Acme Canister Camp Stove', de: 'Acme Gaskocher für Schraubkartuschen', usd: 5499, eur: 4999, pop: 4 },
  { sku: 'ACM-STOVE-2B', us: 'Acme Two-Burner Propane Stove', de: 'Acme Zweiflammiger Campingkocher', usd: 12999, eur: 11900, pop: 2 },
  { sku: 'ACM-POT-SET-3', us: 'Acme Nesting Cook Set, 3 pcs', de: 'Acme Kochgeschirr-Set, 3-teilig', usd: 3999, eur: 3699, pop: 4 },
  { sku: 'ACM-LAMP-HEAD-300', us: 'Acme 300 Lumen Headlamp', de: 'Acme Stirnlampe 300 Lumen', usd: 2499, eur: 2299, pop: 8 },
  { sku: 'ACM-LAMP-LANT', us: 'Acme LED Camping Lantern', de: 'Acme LED-Campinglaterne', usd: 3299, eur: 2999, pop: 5 },
  { sku: 'ACM-CHAIR-FOLD', us: 'Acme Folding Camp Chair', de: 'Acme faltbarer Campingstuhl', usd: 5999, eur: 5499, pop: 5 },
  { sku: 'ACM-TABLE-ALU', us: 'Acme Aluminum Roll-Up Table', de: 'Acme Aluminium-Rolltisch', usd: 8999, eur: 8499, pop: 2 },
  { sku: 'ACM-HAMMOCK-DBL', us: 'Acme Double Hammock w/ Straps', de: 'Acme Doppel-Hängematte mit Gurten', usd: 4499, eur: 3999, pop: 4 },
  { sku: 'ACM-POLE-CARB-PR', us: 'Acme Carbon Trekking Poles (Pair)', de: 'Acme Carbon-Trekkingstöcke (Paar)', usd: 7999, eur: 7495, pop: 4 },
  { sku: 'ACM-JACKET-RAIN-M', us: "Acme Stormline Rain Jacket, Men's M", de: 'Acme Stormline Regenjacke Herren, M', usd: 12900, eur: 11900, pop: 3 },
  { sku: 'ACM-JACKET-RAIN-W', us: "Acme Stormline Rain Jacket, Women's S", de: 'Acme Stormline Regenjacke Damen, S', usd: 12900, eur: 11900, pop: 3 },
  { sku: 'ACM-SOCK-MER-3PK', us: 'Acme Merino Hiking Socks, 3-Pack', de: 'Acme Merino-Wandersocken, 3er-Pack', usd: 2799, eur: 2499, pop: 7 },
  { sku: 'ACM-GLOVE-FLC', us: 'Acme Fleece Gloves', de: 'Acme Fleece-Handschuhe', usd: 1999, eur: 1799, pop: 3 },
  { sku: 'ACM-FILTER-SQZ', us: 'Acme Squeeze Water Filter', de: 'Acme Wasserfilter zum Quetschen', usd: 3699, eur: 3499, pop: 5 },
  { sku: 'ACM-FIRST-AID', us: 'Acme Trail First Aid Kit, 120 pcs', de: 'Acme Erste-Hilfe-Set Outdoor, 120-teilig', usd: 2999, eur: 2699, pop: 5 },
  { sku: 'ACM-KNIFE-FOLD', us: 'Acme Folding Pocket Knife', de: 'Acme Klappmesser', usd: 3499, eur: 3299, pop: 3 },
  { sku: 'ACM-COMPASS', us: 'Acme Baseplate Compass', de: 'Acme Kartenkompass', usd: 1699, eur: 1599, pop: 3 },
  { sku: 'ACM-TARP-3X3', us: "Acme Ultralight Tarp 10'x10'", de: 'Acme Ultraleicht-Tarp 3 × 3 m', usd: 6999, eur: 6499, pop: 2 },
  { sku: 'ACM-STAKE-ALU-10', us: 'Acme Aluminum Tent Stakes, 10-Pack', de: 'Acme Alu-Heringe, 10 Stück', usd: 1499, eur: 1299, pop: 5 },
  { sku: 'ACM-TOWEL-MF-L', us: 'Acme Microfiber Trek Towel, L', de: 'Acme Mikrofaser-Reisehandtuch, L', usd: 2199, eur: 1999, pop: 4 },
  { sku: 'ACM-GAITER-PR', us: 'Acme Trail Gaiters (Pair)', de: 'Acme Gamaschen (Paar)', usd: 3299, eur: 2999, pop: 2 },
  { sku: 'ACM-COOLER-25Q', us: 'Acme 25 Qt Hard Cooler', usd: 14999, pop: 2 },
  { sku: 'ACM-BEAR-CAN', us: 'Acme Bear-Resistant Food Canister', usd: 7995, pop: 2 },
  { sku: 'ACM-SEAT-PAD-DE', de: 'Acme faltbares Sitzkissen', eur: 1499, pop: 3 },
  { sku: 'ACM-WINDSCREEN-DE', de: 'Acme Windschutz für Gaskocher', eur: 1999, pop: 2 },
];

/** Deterministic ASINs: 'B0' + 8 chars; the two mug SKUs share one ASIN. */
function assignAsins(): Map<string, string> {
  const rng = new Rng(0xa51a);
  const alphabet = '0123456789ABCDEFGHJKLMNPQRSTUVWXYZ';
  const used = new Set<string>();
  const asins = new Map<string, string>();
  for (const p of PRODUCTS) {
    if (p.sku === 'ACM-MUG-12-BLK-FBA') {
      asins.set(p.sku, asins.get('ACM-MUG-12-BLK')!);
      continue;
    }
    let asin: string;
    do {
      asin = 'B0';
      for (let i = 0; i < 8; i++) asin += rng.pick(alphabet.split(''));
    } while (used.has(asin));
    used.add(asin);
    asins.set(p.sku, asin);
  }
  return asins;
}
const ASINS = assignAsins();

interface Place {
  city: string;
  state: string;
  zip: string;
  w: number;
  tax?: number; // US combined sales-tax rate
  stateName?: string;
}
// prettier-ignore
const US_PLACES: readonly Place[] = [
  { city: 'Los Angeles', state: 'CA', stateName: 'California', zip: '90012', w: 6, tax: 0.095 },
  { city: 'San Francisco', state: 'CA', stateName: 'California', zip: '94103', w: 4, tax: 0.08625 },
  { city: 'San Diego', state: 'CA', stateName: 'California', zip: '92101', w: 3, tax: 0.0775 },
  { city: 'Sacramento', state: 'CA', stateName: 'California', zip: '95814', w: 2, tax: 0.0875 },
  { city: 'Seattle', state: 'WA', stateName: 'Washington', zip: '98101', w: 4, tax: 0.1035 },
  { city: 'Spokane', state: 'WA', stateName: 'Washington', zip: '99201', w: 1, tax: 0.09 },
  { city: 'Portland', state: 'OR', stateName: 'Oregon', zip: '97205', w: 3, tax: 0 },
  { city: 'Bend', state: 'OR', stateName: 'Oregon', zip: '97701', w: 2, tax: 0 },
  { city: 'Austin', state: 'TX', stateName: 'Texas', zip: '78701', w: 3, tax: 0.0825 },
  { city: 'Houston', state: 'TX', stateName: 'Texas', zip: '77002', w: 3, tax: 0.0825 },
  { city: 'Dallas', state: 'TX', stateName: 'Texas', zip: '75201', w: 2, tax: 0.0825 },
  { city: 'New York', state: 'NY', stateName: 'New York', zip: '10001', w: 5, tax: 0.08875 },
  { city: 'Brooklyn', state: 'NY', stateName: 'New York', zip: '11201', w: 3, tax: 0.08875 },
  { city: 'Buffalo', state: 'NY', stateName: 'New York', zip: '14202', w: 1, tax: 0.0875 },
  { city: 'Miami', state: 'FL', stateName: 'Florida', zip: '33130', w: 3, tax: 0.07 },
  { city: 'Orlando', state: 'FL', stateName: 'Florida', zip: '32801', w: 2, tax: 0.065 },
  { city: 'Chicago', state: 'IL', stateName: 'Illinois', zip: '60601', w: 4, tax: 0.1025 },
  { city: 'Denver', state: 'CO', stateName: 'Colorado', zip: '80202', w: 4, tax: 0.0881 },
  { city: 'Boulder', state: 'CO', stateName: 'Colorado', zip: '80302', w: 2, tax: 0.0886 },
  { city: 'Boston', state: 'MA', stateName: 'Massachusetts', zip: '02108', w: 3, tax: 0.0625 },
  { city: 'Cambridge', state: 'MA', stateName: 'Massachusetts', zip: '02139', w: 1, tax: 0.0625 },
  { city: 'Atlanta', state: 'GA', stateName: 'Georgia', zip: '30303', w: 2, tax: 0.089 },
  { city: 'Philadelphia', state: 'PA', stateName: 'Pennsylvania', zip: '19103', w: 2, tax: 0.08 },
  { city: 'Pittsburgh', state: 'PA', stateName: 'Pennsylvania', zip: '15222', w: 1, tax: 0.07 },
  { city: 'Phoenix', state: 'AZ', stateName: 'Arizona', zip: '85004', w: 2, tax: 0.086 },
  { city: 'Asheville', state: 'NC', stateName: 'North Carolina', zip: '28801', w: 1, tax: 0.07 },
  { city: 'Richmond', state: 'VA', stateName: 'Virginia', zip: '23219', w: 1, tax: 0.06 },
  { city: 'Minneapolis', state: 'MN', stateName: 'Minnesota', zip: '55401', w: 2, tax: 0.09025 },
  { city: 'Bozeman', state: 'MT', stateName: 'Montana', zip: '59715', w: 1, tax: 0 },
  { city: 'Manchester', state: 'NH', stateName: 'New Hampshire', zip: '03101', w: 1, tax: 0 },
  { city: 'Salt Lake City', state: 'UT', stateName: 'Utah', zip: '84101', w: 2, tax: 0.0825 },
  { city: 'Newark', state: 'NJ', stateName: 'New Jersey', zip: '07102', w: 1, tax: 0.06625 },
  { city: 'Columbus', state: 'OH', stateName: 'Ohio', zip: '43215', w: 1, tax: 0.075 },
  { city: 'Anchorage', state: 'AK', stateName: 'Alaska', zip: '99501', w: 1, tax: 0 },
];
// prettier-ignore
const DE_PLACES: readonly Place[] = [
  { city: 'Berlin', state: 'Berlin', zip: '10115', w: 7 },
  { city: 'Hamburg', state: 'Hamburg', zip: '20095', w: 5 },
  { city: 'München', state: 'Bayern', zip: '80331', w: 6 },
  { city: 'Nürnberg', state: 'Bayern', zip: '90402', w: 2 },
  { city: 'Würzburg', state: 'Bayern', zip: '97070', w: 1 },
  { city: 'Köln', state: 'Nordrhein-Westfalen', zip: '50667', w: 4 },
  { city: 'Düsseldorf', state: 'Nordrhein-Westfalen', zip: '40213', w: 3 },
  { city: 'Münster', state: 'Nordrhein-Westfalen', zip: '48143', w: 2 },
  { city: 'Frankfurt am Main', state: 'Hessen', zip: '60311', w: 3 },
  { city: 'Stuttgart', state: 'Baden-Württemberg', zip: '70173', w: 3 },
  { city: 'Freiburg im Breisgau', state: 'Baden-Württemberg', zip: '79098', w: 2 },
  { city: 'Leipzig', state: 'Sachsen', zip: '04109', w: 2 },
  { city: 'Dresden', state: 'Sachsen', zip: '01067', w: 2 },
  { city: 'Hannover', state: 'Niedersachsen', zip: '30159', w: 2 },
  { city: 'Göttingen', state: 'Niedersachsen', zip: '37073', w: 1 },
  { city: 'Bremen', state: 'Bremen', zip: '28195', w: 1 },
  { city: 'Saarbrücken', state: 'Saarland', zip: '66111', w: 1 },
  { city: 'Mainz', state: 'Rheinland-Pfalz', zip: '55116', w: 1 },
  { city: 'Kiel', state: 'Schleswig-Holstein', zip: '24103', w: 1 },
  { city: 'Rostock', state: 'Mecklenburg-Vorpommern', zip: '18055', w: 1 },
  { city: 'Erfurt', state: 'Thüringen', zip: '99084', w: 1 },
  { city: 'Magdeburg', state: 'Sachsen-Anhalt', zip: '39104', w: 1 },
  { city: 'Potsdam', state: 'Brandenburg', zip: '14467', w: 1 },
];

/** Relative order volume by LOCAL hour of day (evening peak, quiet night). */
// prettier-ignore
const LOCAL_HOUR_WEIGHTS = [1.3, 0.8, 0.45, 0.25, 0.2, 0.3, 0.6, 1.0, 1.4, 1.7, 1.9, 2.0, 2.1, 2.0, 1.9, 1.9, 2.0, 2.2, 2.5, 2.8, 3.0, 2.9, 2.4, 1.9];

interface MarketConfig {
  conn: Connection;
  seed: number;
  orders: number;
  currency: 'USD' | 'EUR';
  salesChannel: string;
  /** Local UTC offset in hours over the whole range (PDT = -7 until 2026-11-01; CEST = +2 until 2026-10-25). */
  utcOffsetHours: number;
  timeZone: string;
  orderPrefixes: readonly string[];
  places: readonly Place[];
  itemPromoIds: readonly string[];
  shipPromoId: string;
}

const MARKETS: readonly MarketConfig[] = [
  {
    conn: CONNECTIONS[0]!,
    seed: 0x05acbe01,
    orders: 1240,
    currency: 'USD',
    salesChannel: 'Amazon.com',
    utcOffsetHours: -7,
    timeZone: 'America/Los_Angeles',
    orderPrefixes: ['111', '112', '113', '114'],
    places: US_PLACES,
    itemPromoIds: ['ACME-FALL15-US', 'PLM-7f3c1a92-Back to Trail', 'Lightning Deal 4417-0925'],
    shipPromoId: 'US Core Free Shipping Promotion 8271533',
  },
  {
    conn: CONNECTIONS[1]!,
    seed: 0x05acbe02,
    orders: 1240,
    currency: 'EUR',
    salesChannel: 'Amazon.de',
    utcOffsetHours: 2,
    timeZone: 'Europe/Berlin',
    orderPrefixes: ['302', '303', '304', '305', '028'],
    places: DE_PLACES,
    itemPromoIds: ['ACME-HERBST10', 'PLM-4b9e0d17-Wandersaison', 'Blitzangebot 2209-1003'],
    shipPromoId: 'DE Core Free Shipping Promotion 5520147',
  },
];

// ---------------------------------------------------------------------------------------------
// Order model
// ---------------------------------------------------------------------------------------------

interface Line {
  product: Product;
  name: string;
  qty: number;
  item: number; // cents, line total
  tax: number | null; // null: upstream left item-tax empty (DE quirk)
  ship: number;
  shipTax: number;
  gift: number;
  giftTax: number;
  itemPromo: number;
  shipPromo: number;
  promoIds: string[];
}

type Channel = 'Amazon' | 'Merchant';
interface Order {
  id: string;
  merchantOrderId: string;
  purchase: number;
  channel: Channel;
  mcf: boolean;
  kind: 'normal' | 'cancelled';
  shipLevel: string;
  city: string;
  state: string;
  zip: string;
  business: boolean;
  po: string;
  lines: Line[];
  shipDelay: number; // ms from purchase until shipped
  pendingFor: number; // ms the order stays Pending
  partialCancelLine: number; // index of a cancelled line in an otherwise shipped order, -1 if none
}

/** One published state of an order in one report file. */
interface Version {
  status: 'Shipped' | 'Pending' | 'Unshipped' | 'Cancelled' | 'Shipping';
  updated: number;
  itemStatus: string[];
  showPrices: boolean[];
}

const usedOrderIds = new Set<string>();

function generateOrders(m: MarketConfig): Order[] {
  const rng = new Rng(m.seed);
  const isUs = m.currency === 'USD';

  // Daily volume: weekends busier, slow growth, fall deal event on 2026-10-06/07.
  const days: number[] = [];
  const dayWeights: number[] = [];
  for (let t = RANGE_START, i = 0; t < RANGE_END; t += DAY, i++) {
    const dow = new Date(t).getUTCDay();
    let w = (dow === 0 || dow === 6 ? 1.2 : 1) * (1 + 0.3 * (i / 75));
    const d = ymd(t);
    if (d === '2026-10-06' || d === '2026-10-07') w *= 2.4;
    days.push(t);
    dayWeights.push(w);
  }
  const hours = Array.from({ length: 24 }, (_, h) => h);
  const utcHourWeights = hours.map((h) => LOCAL_HOUR_WEIGHTS[(((h + m.utcOffsetHours) % 24) + 24) % 24]!);

  const products = PRODUCTS.filter((p) => (isUs ? p.us !== undefined : p.de !== undefined));
  const orders: Order[] = [];
  for (let n = 0; n < m.orders; n++) {
    const day = rng.weighted(days, dayWeights);
    const hour = rng.weighted(hours, utcHourWeights);
    const purchase = day + hour * HOUR + rng.int(0, 59) * MIN + rng.int(0, 59) * 1000;

    let id: string;
    do id = `${rng.pick(m.orderPrefixes)}-${rng.digits(7)}-${rng.digits(7)}`;
    while (usedOrderIds.has(id));
    usedOrderIds.add(id);

    const mcf = rng.chance(0.015);
    const kind = !mcf && rng.chance(0.025) ? 'cancelled' : 'normal';
    const channel: Channel = mcf || rng.chance(0.8) ? 'Amazon' : 'Merchant';
    const shipLevel = rng.weighted(['Standard', 'Expedited', 'SecondDay'], [80, 12, 8]);
    const place = rng.weighted(m.places, m.places.map((p) => p.w));
    const business = !mcf && rng.chance(0.1);
    const po = business ? `PO-2026-${rng.digits(4)}` : '';
    let merchantOrderId = '';
    if (mcf) merchantOrderId = `SHOP-${isUs ? 'US' : 'DE'}-${rng.int(10000, 19999)}`;
    else if (channel === 'Merchant' && rng.chance(0.05)) merchantOrderId = `ACM-${rng.digits(6)}`;

    // Address quirks: US cities sometimes upper-cased, states sometimes spelled out, ZIP+4;
    // DE ship-state often empty.
    let city = place.city;
    let state = place.state;
    let zip = place.zip;
    if (isUs) {
      if (rng.chance(0.25)) city = city.toUpperCase();
      if (rng.chance(0.1)) state = place.stateName!;
      if (rng.chance(0.3)) zip = `${zip}-${rng.digits(4)}`;
    } else if (rng.chance(0.3)) {
      state = '';
    }

    // Lines: 1-3 distinct SKUs allowed for this fulfillment channel.
    const nLines = rng.weighted([1, 2, 3], [72, 21, 7]);
    const eligible = products.filter((p) => p.only === undefined || p.only === channel);
    const chosen: Product[] = [];
    while (chosen.length < nLines) {
      const p = rng.weighted(eligible, eligible.map((x) => x.pop));
      if (!chosen.includes(p)) chosen.push(p);
    }

    const taxRate = isUs ? place.tax! : 19 / 119;
    const taxed = isUs ? taxRate > 0 && rng.chance(0.78) : true;
    const lines: Line[] = chosen.map((p) => {
      const qty = rng.weighted([1, 2, 3, 4], [80, 13, 5, 2]);
      let unit = (isUs ? p.usd : p.eur)!;
      if (business) unit = Math.round(unit * (isUs ? 0.95 : 0.97));
      const item = unit * qty;
      const promoIds: string[] = [];

      let ship = 0;
      if (channel === 'Amazon') {
        if (shipLevel === 'Expedited') ship = isUs ? 899 : 599;
        else if (shipLevel === 'SecondDay') ship = isUs ? 1299 : 999;
        else if (rng.chance(0.07)) ship = isUs ? 599 : 399;
      } else {
        ship = shipLevel === 'Standard' ? (rng.chance(0.5) ? (isUs ? 499 : 490) : 0) : isUs ? 999 : 690;
      }
      let shipPromo = 0;
      if (ship > 0 && (shipLevel === 'Standard' ? rng.chance(0.75) : rng.chance(0.1))) {
        shipPromo = rng.chance(0.05) ? ship : -ship; // upstream sign varies
        promoIds.push(m.shipPromoId);
      }

      let itemPromo = 0;
      if (rng.chance(0.12)) {
        itemPromo = -Math.round(item * rng.pick([0.1, 0.15, 0.2]));
        if (rng.chance(0.05)) itemPromo = -itemPromo;
        promoIds.unshift(rng.pick(m.itemPromoIds));
      }

      const gift = rng.chance(0.012) ? (isUs ? 499 : 399) : 0;

      let tax: number | null;
      let shipTax: number;
      let giftTax: number;
      if (isUs) {
        tax = taxed && !business ? Math.round(item * taxRate) : taxed && rng.chance(0.5) ? Math.round(item * taxRate) : 0;
        shipTax = tax !== 0 ? Math.round(ship * taxRate) : 0;
        giftTax = tax !== 0 ? Math.round(gift * taxRate) : 0;
      } else {
        tax = Math.round((item * 19) / 119);
        shipTax = Math.round((ship * 19) / 119);
        giftTax = Math.round((gift * 19) / 119);
        if (rng.chance(0.006)) tax = null; // null-tax quirk
      }
      const name = (isUs ? p.us : p.de)!;
      return { product: p, name, qty, item, tax, ship, shipTax, gift, giftTax, itemPromo, shipPromo, promoIds };
    });

    const shipDelay = channel === 'Amazon' ? rng.int(6 * 60, 54 * 60) * MIN : rng.int(14 * 60, 90 * 60) * MIN;
    const pendingFor = rng.int(20, 8 * 60) * MIN;
    const partialCancelLine = lines.length > 1 && rng.chance(0.04) ? rng.int(0, lines.length - 1) : -1;

    orders.push({
      id, merchantOrderId, purchase, channel, mcf, kind, shipLevel, city, state, zip, business, po, lines,
      shipDelay, pendingFor, partialCancelLine,
    });
  }
  orders.sort((a, b) => a.purchase - b.purchase || (a.id < b.id ? -1 : 1));
  return orders;
}

/** The state of an order as seen by a report generated at `snapshot`. */
function versionAt(o: Order, snapshot: number, rng: Rng): Version {
  const n = o.lines.length;
  const all = <T>(v: T): T[] => Array.from({ length: n }, () => v);
  if (o.kind === 'cancelled') {
    const updated = Math.min(o.purchase + o.pendingFor + rng.int(5, 600) * MIN, snapshot);
    return { status: 'Cancelled', updated, itemStatus: all('Cancelled'), showPrices: all(false) };
  }
  const shippedAt = o.purchase + o.shipDelay;
  if (shippedAt <= snapshot) {
    const itemStatus = all('Shipped');
    const showPrices = all(!o.mcf);
    if (o.partialCancelLine >= 0) {
      itemStatus[o.partialCancelLine] = 'Cancelled';
      showPrices[o.partialCancelLine] = false;
    }
    return { status: 'Shipped', updated: shippedAt, itemStatus, showPrices };
  }
  if (o.purchase + o.pendingFor > snapshot) {
    return pendingVersion(o, rng, o.purchase + rng.int(1, Math.max(1, Math.floor((snapshot - o.purchase) / MIN))) * MIN);
  }
  const updated = o.purchase + o.pendingFor;
  if (n > 1 && o.channel === 'Amazon' && rng.chance(0.4)) {
    // Partially shipped ("Shipping"): first line out, the rest still waiting.
    const itemStatus = all('Unshipped');
    itemStatus[0] = 'Shipped';
    return { status: 'Shipping', updated: Math.max(updated, snapshot - rng.int(30, 300) * MIN), itemStatus, showPrices: all(!o.mcf) };
  }
  return { status: 'Unshipped', updated, itemStatus: all('Unshipped'), showPrices: all(!o.mcf) };
}

function pendingVersion(o: Order, rng: Rng, updated: number): Version {
  const itemStatus = rng.chance(0.6) ? 'Unshipped' : '';
  return {
    status: 'Pending',
    updated,
    itemStatus: o.lines.map(() => itemStatus),
    showPrices: o.lines.map(() => false),
  };
}

const money = (cents: number): string => {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
};

function rowsFor(m: MarketConfig, o: Order, v: Version): Record<string, string>[] {
  return o.lines.map((l, i) => {
    const show = v.showPrices[i]!;
    const p = (cents: number): string => (show ? money(cents) : '');
    return {
      'amazon-order-id': o.id,
      'merchant-order-id': o.merchantOrderId,
      'purchase-date': isoUtc(o.purchase),
      'last-updated-date': isoUtc(v.updated),
      'order-status': v.status,
      'fulfillment-channel': o.channel,
      'sales-channel': o.mcf ? 'Non-Amazon' : m.salesChannel,
      'order-channel': '',
      'ship-service-level': o.shipLevel,
      'product-name': l.name,
      sku: l.product.sku,
      asin: ASINS.get(l.product.sku)!,
      'item-status': v.itemStatus[i]!,
      quantity: String(l.qty),
      'quantity-purchased': String(l.qty),
      currency: m.currency,
      'item-price': p(l.item),
      'item-tax': show && l.tax !== null ? money(l.tax) : '',
      'shipping-price': p(l.ship),
      'shipping-tax': p(l.shipTax),
      'gift-wrap-price': p(l.gift),
      'gift-wrap-tax': p(l.giftTax),
      'item-promotion-discount': p(l.itemPromo),
      'ship-promotion-discount': p(l.shipPromo),
      'ship-city': o.city,
      'ship-state': o.state,
      'ship-postal-code': o.zip,
      'ship-country': m.currency === 'USD' ? 'US' : 'DE',
      'promotion-ids': l.promoIds.join(','),
      cpf: '',
      'is-business-order': o.business ? 'true' : 'false',
      'purchase-order-number': o.po,
      'price-designation': o.business ? 'BusinessPrice' : '',
      url: '',
    };
  });
}

interface MarketResult {
  file1: Record<string, string>[];
  file2: Record<string, string>[];
  orders: Order[];
  /** Each order's state in the latest file it appears in (what the warehouse keeps). */
  finals: Map<Order, Version>;
  overlapOrders: number;
  overlapLines: number;
  changedLines: number;
  cancelledInSecond: number;
}

function buildMarket(m: MarketConfig): MarketResult {
  const orders = generateOrders(m);
  const rng = new Rng(m.seed ^ 0x9e3779b9);
  const file1: Record<string, string>[] = [];
  const file2: Record<string, string>[] = [];
  let overlapOrders = 0;
  let overlapLines = 0;
  let changedLines = 0;
  let cancelledInSecond = 0;
  const finals = new Map<Order, Version>();
  for (const o of orders) {
    const in1 = o.purchase >= FILE1.from && o.purchase < FILE1.to;
    const in2 = o.purchase >= FILE2.from && o.purchase < FILE2.to;
    if (in1 && in2) {
      overlapOrders++;
      overlapLines += o.lines.length;
      // Second (later) file: the settled state, sometimes a late cancellation.
      let v2 = versionAt(o, SNAPSHOT2, rng);
      let v1: Version;
      const late = o.purchase >= utc(2026, 9, 13);
      if (o.kind === 'normal' && rng.chance(late ? 0.75 : 0.3)) {
        // First file caught the order before it settled: Pending/Unshipped, no prices yet.
        const updated = o.purchase + rng.int(2, 45) * MIN;
        v1 = pendingVersion(o, rng, updated);
        if (o.channel === 'Merchant' && rng.chance(0.5)) {
          v1 = { ...v1, status: 'Unshipped', itemStatus: o.lines.map(() => 'Unshipped') };
        }
        if (!o.mcf && rng.chance(0.1)) {
          const n = o.lines.length;
          v2 = {
            status: 'Cancelled',
            updated: updated + rng.int(3 * 60, 60 * 60) * MIN,
            itemStatus: Array.from({ length: n }, () => 'Cancelled'),
            showPrices: Array.from({ length: n }, () => false),
          };
          cancelledInSecond++;
        }
      } else {
        v1 = versionAt(o, SNAPSHOT1, rng);
        // If the order was already settled at SNAPSHOT1 the second file repeats the same row.
        if (v1.status === 'Shipped' || v1.status === 'Cancelled') v2 = v1;
      }
      if (v2.updated <= v1.updated && v2 !== v1) v2 = { ...v2, updated: v1.updated + rng.int(60, 600) * MIN };
      const r1 = rowsFor(m, o, v1);
      const r2 = rowsFor(m, o, v2);
      r1.forEach((r, i) => {
        if (JSON.stringify(r) !== JSON.stringify(r2[i])) changedLines++;
      });
      file1.push(...r1);
      file2.push(...r2);
      finals.set(o, v2);
    } else if (in1) {
      const v = versionAt(o, SNAPSHOT1, rng);
      file1.push(...rowsFor(m, o, v));
      finals.set(o, v);
    } else if (in2) {
      const v = versionAt(o, SNAPSHOT2, rng);
      file2.push(...rowsFor(m, o, v));
      finals.set(o, v);
    }
  }
  return { file1, file2, orders, finals, overlapOrders, overlapLines, changedLines, cancelledInSecond };
}

function toTsv(header: readonly string[], rows: Record<string, string>[]): string {
  const lines = [header.join('\t')];
  for (const r of rows) {
    const values = header.map((h) => {
      const v = r[h];
      if (v === undefined) throw new Error(`missing column ${h}`);
      if (/[\t\r\n]/.test(v)) throw new Error(`value for ${h} contains a tab or newline: ${JSON.stringify(v)}`);
      return v;
    });
    lines.push(values.join('\t'));
  }
  return lines.join('\n') + '\n';
}

// ---------------------------------------------------------------------------------------------
// COGS
// ---------------------------------------------------------------------------------------------

const US_SUPPLIERS = ['Pacific Gear Manufacturing', 'Shenzhen Trailworks Co. Ltd.', 'Cascade Textiles Inc.', ''];
const DE_SUPPLIERS = ['Müller Outdoor GmbH', 'Ningbo Camping Products Co. Ltd.', 'Alpentex Vertriebs GmbH', ''];

function fmtCost(v: number): string {
  // up to 4 decimals, no trailing zeros beyond 2 decimals
  const s = v.toFixed(4).replace(/0{1,2}$/, '');
  return s;
}

function buildCogs(m: MarketConfig): { csv: string; covered: number; total: number; twoRow: number } {
  const rng = new Rng(m.seed ^ 0xc0a5);
  const isUs = m.currency === 'USD';
  const products = PRODUCTS.filter((p) => (isUs ? p.us !== undefined : p.de !== undefined));
  const suppliers = isUs ? US_SUPPLIERS : DE_SUPPLIERS;
  const rows = ['asin,sku,costCurrency,fromDate,costItemValue,costItemShippingValue,itemSupplierName'];
  // Exactly ~15% of SKUs get no cost (cogs_present = false in the demo) and ~25% get two rows
  // (cost rises from 2026-09-01). The shared-ASIN mug SKUs always have a cost.
  const order = products.map((p) => ({ p, k: rng.float() }));
  const shuffled = order.sort((a, b) => a.k - b.k).map((x) => x.p);
  const isMug = (p: Product): boolean => p.sku.startsWith('ACM-MUG-12-BLK');
  const noCost = new Set(shuffled.filter((p) => !isMug(p)).slice(0, Math.round(products.length * 0.15)));
  const twoRows = new Set(shuffled.filter((p) => !noCost.has(p)).slice(-Math.round(products.length * 0.25)));
  let covered = 0;
  for (const p of products) {
    if (noCost.has(p)) continue;
    covered++;
    const unit = (isUs ? p.usd! : p.eur!) / 100;
    const ratio = 0.3 + rng.float() * 0.15;
    const cost = Math.round(unit * ratio * 10000) / 10000;
    const shipCost = Math.round((0.4 + rng.float() * 2.2) * 10000) / 10000;
    const supplier = rng.pick(suppliers);
    const asin = ASINS.get(p.sku)!;
    if (twoRows.has(p)) {
      const rise = 1.04 + rng.float() * 0.08;
      rows.push([asin, p.sku, m.currency, '2026-01-01', fmtCost(cost), fmtCost(shipCost), supplier].join(','));
      rows.push([asin, p.sku, m.currency, '2026-09-01', fmtCost(Math.round(cost * rise * 10000) / 10000), fmtCost(shipCost), supplier].join(','));
    } else {
      const from = rng.pick(['2025-06-01', '2026-01-01', '2026-01-01']);
      rows.push([asin, p.sku, m.currency, from, fmtCost(cost), fmtCost(shipCost), supplier].join(','));
    }
  }
  const twoRow = twoRows.size;
  return { csv: rows.join('\n') + '\n', covered, total: products.length, twoRow };
}

// ---------------------------------------------------------------------------------------------
// Shared helpers for the profit sources (settlements, returns, sales and traffic, ads)
// ---------------------------------------------------------------------------------------------

const UPPER_DIGITS = 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789';
const MIXED = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function randomId(rng: Rng, n: number, alphabet = UPPER_DIGITS): string {
  let s = '';
  for (let i = 0; i < n; i++) s += alphabet.charAt(Math.floor(rng.float() * alphabet.length));
  return s;
}

/** A 15-digit numeric id, as the Ads API sends (a JSON number below 2^53). */
const adsId = (rng: Rng): number => Number(String(rng.int(1, 9)) + rng.digits(14));

const PRODUCT_BY_SKU = new Map(PRODUCTS.map((p) => [p.sku, p]));
const product = (sku: string): Product => {
  const p = PRODUCT_BY_SKU.get(sku);
  if (!p) throw new Error(`unknown SKU ${sku}`);
  return p;
};
const unitCents = (p: Product, isUs: boolean): number => (isUs ? p.usd : p.eur)!;
const listedIn = (m: MarketConfig): Product[] => PRODUCTS.filter((p) => (m.currency === 'USD' ? p.us !== undefined : p.de !== undefined));

const pad2 = (n: number): string => String(n).padStart(2, '0');
function utcFields(ms: number) {
  const d = new Date(ms);
  return {
    y: String(d.getUTCFullYear()), m: pad2(d.getUTCMonth() + 1), d: pad2(d.getUTCDate()),
    time: `${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())}`,
  };
}
/** Settlement timestamps: `2026-08-14 05:23:19 UTC` (US) or day-first `14.08.2026 05:23:19 UTC` (DE). */
function settlementTime(ms: number, dayFirst: boolean): string {
  const f = utcFields(ms);
  return dayFirst ? `${f.d}.${f.m}.${f.y} ${f.time} UTC` : `${f.y}-${f.m}-${f.d} ${f.time} UTC`;
}
/** Locale posted-date: day first, two-digit year (`14/08/26`). */
function postedDate(ms: number): string {
  const f = utcFields(ms);
  return `${f.d}/${f.m}/${f.y.slice(2)}`;
}
/** Amount with two decimals; DE settlement files use a decimal comma. */
const amountText = (cents: number, decimalComma: boolean): string => (decimalComma ? money(cents).replace('.', ',') : money(cents));

/** Splits a non-negative integer by weights (largest remainder; ties to the earlier index). */
function splitInt(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (total === 0 || sum <= 0) return weights.map(() => 0);
  const raw = weights.map((w) => (total * w) / sum);
  const out = raw.map(Math.floor);
  let rest = total - out.reduce((a, b) => a + b, 0);
  const order = raw.map((r, i) => ({ i, f: r - Math.floor(r) })).filter((x) => weights[x.i]! > 0).sort((a, b) => b.f - a.f || a.i - b.i);
  for (let k = 0; rest > 0; k++, rest--) out[order[k % order.length]!.i]!++;
  return out;
}

const round2 = (x: number): number => Math.round(x * 100) / 100;
const cents2 = (c: number): number => c / 100; // JSON number with at most two decimals

/** Days (UTC midnight ms) from `from` to `to`, both included. */
function dayRange(from: number, to: number): number[] {
  const out: number[] = [];
  for (let t = from; t <= to; t += DAY) out.push(t);
  return out;
}

/** FBA per-unit fulfillment fee in cents, by price band and a few oversize SKUs. */
const OVERSIZE = new Set(['ACM-TENT-4P-GRN', 'ACM-COOLER-25Q', 'ACM-TABLE-ALU', 'ACM-STOVE-2B', 'ACM-CHAIR-FOLD', 'ACM-PACK-65L-GRY']);
function fbaFeeCents(p: Product, isUs: boolean): number {
  const price = unitCents(p, isUs);
  if (OVERSIZE.has(p.sku)) return isUs ? (price > 15000 ? 1295 : 968) : price > 15000 ? 990 : 780;
  if (price < 2000) return isUs ? 322 : 270;
  if (price < 4000) return isUs ? 389 : 325;
  if (price < 8000) return isUs ? 476 : 410;
  return isUs ? 587 : 520;
}

// ---------------------------------------------------------------------------------------------
// Settlements (GET_V2_SETTLEMENT_REPORT_DATA_FLAT_FILE_V2)
// ---------------------------------------------------------------------------------------------

const SETTLEMENT_REPORT = 'GET_V2_SETTLEMENT_REPORT_DATA_FLAT_FILE_V2';
const SETTLEMENT_HEADER = [
  'settlement-id', 'settlement-start-date', 'settlement-end-date', 'deposit-date', 'total-amount', 'currency',
  'transaction-type', 'order-id', 'merchant-order-id', 'adjustment-id', 'shipment-id', 'marketplace-name', 'amount-type',
  'amount-description', 'amount', 'fulfillment-id', 'posted-date', 'posted-date-time', 'order-item-code',
  'merchant-order-item-id', 'merchant-adjustment-item-id', 'sku', 'quantity-purchased', 'promotion-id',
] as const;
const SETTLEMENT_COUNT = 6;
const SETTLEMENT_DAYS = 14;
/** Refunds post no later than this, so they fall inside the demo's order period. */
const LAST_REFUND = utc(2026, 10, 15, 20);

interface SettlementAmount {
  posted: number;
  seq: number;
  cents: number;
  fields: Record<string, string>;
}

/** One settled order line: what its refund (if any) gives back. */
interface SettledItem {
  order: Order;
  line: Line;
  code: string;
  posted: number;
  principal: number; // net of tax in DE (VCS style), pre-tax in US
  tax: number;
  ship: number;
  shipTax: number;
  itemPromo: number; // magnitudes
  shipPromo: number;
  commission: number;
  dst: number;
  chargeback: number;
}

interface Refund {
  item: SettledItem;
  qty: number;
  posted: number;
}

interface SettlementResult {
  files: { name: string; text: string }[];
  refunds: Refund[];
  stats: { settlements: number; amountLines: number; orderEvents: number; refunds: number; totals: string[]; descriptions: number };
}

function buildSettlements(m: MarketConfig, r: MarketResult): SettlementResult {
  const rng = new Rng(m.seed ^ 0x5e771e);
  const isUs = m.currency === 'USD';
  const dayFirst = !isUs;
  const amounts: SettlementAmount[] = [];
  let seq = 0;
  const add = (posted: number, common: Record<string, string>, type: string, description: string, cents: number, extra: Record<string, string> = {}): void => {
    if (cents === 0) return;
    amounts.push({ posted, seq: seq++, cents, fields: { ...common, 'amount-type': type, 'amount-description': description, ...extra } });
  };
  const postedFields = (posted: number): Record<string, string> => ({
    'posted-date': postedDate(posted),
    'posted-date-time': settlementTime(posted, dayFirst),
  });

  // ---- Orders: one event per shipped line, posted 1-3 days after purchase.
  const settled: SettledItem[] = [];
  let orderEvents = 0;
  const settleOrder = (o: Order, lineIdx: number[], posted: number): void => {
    const shipmentId = 'D' + randomId(rng, 8, MIXED);
    const common = {
      'transaction-type': 'Order', 'order-id': o.id, 'merchant-order-id': o.merchantOrderId, 'shipment-id': shipmentId,
      'marketplace-name': m.salesChannel, 'fulfillment-id': o.channel === 'Amazon' ? 'AFN' : 'MFN', ...postedFields(posted),
    };
    for (const i of lineIdx) {
      const l = o.lines[i]!;
      const code = String(rng.int(1, 9)) + rng.digits(13);
      const c = { ...common, 'order-item-code': code, sku: l.product.sku, 'quantity-purchased': String(l.qty) };
      const itemPromo = Math.abs(l.itemPromo);
      const shipPromo = Math.abs(l.shipPromo);
      let tax: number;
      let principal: number;
      let ship: number;
      let gift: number;
      if (isUs) {
        tax = l.tax ?? 0;
        principal = l.item;
        ship = l.ship;
        gift = l.gift;
      } else {
        // VCS style: Principal net of VAT, the VAT as Tax (computed even where the orders file left item-tax empty).
        tax = l.tax ?? Math.round((l.item * 19) / 119);
        principal = l.item - tax;
        ship = l.ship - l.shipTax;
        gift = l.gift - l.giftTax;
      }
      add(posted, c, 'ItemPrice', 'Principal', principal);
      add(posted, c, 'ItemPrice', 'Tax', tax);
      add(posted, c, 'ItemPrice', 'Shipping', ship);
      add(posted, c, 'ItemPrice', 'ShippingTax', l.shipTax);
      add(posted, c, 'ItemPrice', 'GiftWrap', gift);
      add(posted, c, 'ItemPrice', 'GiftWrapTax', l.giftTax);
      if (isUs) {
        add(posted, c, 'ItemWithheldTax', 'MarketplaceFacilitatorTax-Principal', -tax);
        add(posted, c, 'ItemWithheldTax', 'MarketplaceFacilitatorTax-Shipping', -l.shipTax);
        add(posted, c, 'ItemWithheldTax', 'MarketplaceFacilitatorTax-Other', -l.giftTax);
      }
      const itemPromoId = l.promoIds.find((id) => id !== m.shipPromoId) ?? '';
      add(posted, c, 'Promotion', 'Principal', -itemPromo, { 'promotion-id': itemPromoId });
      add(posted, c, 'Promotion', 'Shipping', -shipPromo, { 'promotion-id': m.shipPromoId });
      // Referral fee: 15 % of what the buyer paid (pre-tax in the US, VAT included in DE), at least 0.30 per unit.
      const base = l.item + l.ship + l.gift - itemPromo - shipPromo;
      const commission = Math.max(30 * l.qty, Math.round(base * 0.15));
      add(posted, c, 'ItemFees', 'Commission', -commission);
      const dst = Math.max(1, Math.round(commission * 0.03));
      add(posted, c, 'ItemFees', 'DigitalServicesFee', -dst);
      let chargeback = 0;
      if (o.channel === 'Amazon') {
        add(posted, c, 'ItemFees', 'FBAPerUnitFulfillmentFee', -fbaFeeCents(l.product, isUs) * l.qty);
        // FBA: the buyer's shipping charge (net of its promotion) goes back to Amazon.
        chargeback = Math.max(0, ship - (isUs ? shipPromo : Math.round((shipPromo * 100) / 119)));
        add(posted, c, 'ItemFees', 'ShippingChargeback', -chargeback);
      }
      settled.push({ order: o, line: l, code, posted, principal, tax, ship, shipTax: l.shipTax, itemPromo, shipPromo, commission, dst, chargeback });
      orderEvents++;
    }
  };

  for (const o of r.orders) {
    if (o.mcf) continue;
    const v = r.finals.get(o)!;
    const idx = o.lines.map((_, i) => i).filter((i) => v.itemStatus[i] === 'Shipped' && v.showPrices[i]);
    if (idx.length === 0) continue;
    let delay = o.shipDelay + rng.int(60, 600) * MIN;
    delay = Math.min(Math.max(delay, DAY + rng.int(5, 300) * MIN), 3 * DAY - rng.int(5, 300) * MIN);
    settleOrder(o, idx, o.purchase + delay + rng.int(0, 59) * 1000);
  }

  // An order from before the orders files start (purchased 2026-07-30): its fees post on 2026-08-01
  // but the order is unknown to the warehouse, so they are dated by posting date.
  {
    let id: string;
    do id = `${m.orderPrefixes[0]}-${rng.digits(7)}-${rng.digits(7)}`;
    while (usedOrderIds.has(id));
    usedOrderIds.add(id);
    const p = product('ACM-PACK-DAY-BLK');
    const item = unitCents(p, isUs);
    const tax = isUs ? Math.round(item * 0.0825) : Math.round((item * 19) / 119);
    const line: Line = { product: p, name: (isUs ? p.us : p.de)!, qty: 1, item, tax, ship: 0, shipTax: 0, gift: 0, giftTax: 0, itemPromo: 0, shipPromo: 0, promoIds: [] };
    const purchase = utc(2026, 7, 30, 17, 41, 9);
    const ghost: Order = {
      id, merchantOrderId: '', purchase, channel: 'Amazon', mcf: false, kind: 'normal', shipLevel: 'Standard', city: '', state: '', zip: '',
      business: false, po: '', lines: [line], shipDelay: 20 * HOUR, pendingFor: 0, partialCancelLine: -1,
    };
    settleOrder(ghost, [0], utc(2026, 8, 1, 9, 12, 47));
    settled.pop(); // never refunded
  }

  // ---- Refunds: a few per connection, posted 5-18 days after purchase (posting-dated).
  const eligible = settled.filter((s) => s.order.purchase < utc(2026, 10, 1));
  const chosen = new Set<SettledItem>();
  for (const s of eligible) if (rng.chance(0.026)) chosen.add(s);
  // Make sure a refunded line carries a shipping promotion and one carries a partial quantity.
  if (![...chosen].some((s) => s.shipPromo > 0)) chosen.add(eligible.find((s) => s.shipPromo > 0 && s.order.channel === 'Amazon')!);
  if (![...chosen].some((s) => s.line.qty > 1)) chosen.add(eligible.find((s) => s.line.qty > 1 && s.order.channel === 'Amazon')!);
  const refunds: Refund[] = [];
  for (const s of [...chosen].sort((a, b) => a.posted - b.posted || (a.code < b.code ? -1 : 1))) {
    const qty = s.line.qty > 1 && rng.chance(0.5) ? 1 : s.line.qty;
    const posted = Math.min(LAST_REFUND, Math.max(s.posted + DAY, s.order.purchase + rng.int(5, 18) * DAY + rng.int(0, 86399) * 1000));
    refunds.push({ item: s, qty, posted });
    const ratio = qty / s.line.qty;
    const part = (c: number): number => Math.round(c * ratio);
    const c = {
      'transaction-type': 'Refund', 'order-id': s.order.id, 'merchant-order-id': s.order.merchantOrderId,
      'adjustment-id': 'amzn1:crow:' + randomId(rng, 22, MIXED), 'marketplace-name': m.salesChannel,
      'fulfillment-id': s.order.channel === 'Amazon' ? 'AFN' : 'MFN', ...postedFields(posted),
      'order-item-code': s.code, 'merchant-adjustment-item-id': randomId(rng, 10, MIXED), sku: s.line.product.sku,
    };
    const commission = part(s.commission);
    add(posted, c, 'ItemPrice', 'Principal', -part(s.principal), { 'quantity-purchased': String(qty) });
    add(posted, c, 'ItemPrice', 'Tax', -part(s.tax));
    add(posted, c, 'ItemPrice', 'Shipping', -part(s.ship));
    add(posted, c, 'ItemPrice', 'ShippingTax', -part(s.shipTax));
    if (isUs) {
      add(posted, c, 'ItemWithheldTax', 'MarketplaceFacilitatorTax-Principal', part(s.tax));
      add(posted, c, 'ItemWithheldTax', 'MarketplaceFacilitatorTax-Shipping', part(s.shipTax));
    }
    add(posted, c, 'ItemFees', 'Commission', commission);
    add(posted, c, 'ItemFees', 'RefundCommission', -Math.min(500, Math.round(commission * 0.2)));
    add(posted, c, 'ItemFees', 'DigitalServicesFee', part(s.dst));
    add(posted, c, 'ItemFees', 'ShippingChargeback', part(s.chargeback));
    add(posted, c, 'Promotion', 'Principal', part(s.itemPromo), { 'promotion-id': s.line.promoIds.find((id) => id !== m.shipPromoId) ?? '' });
    add(posted, c, 'Promotion', 'Shipping', part(s.shipPromo), { 'promotion-id': m.shipPromoId });
  }

  // ---- Account-level lines, posting-dated. k scales US dollars to euros.
  const k = isUs ? 1 : 0.8;
  const at = (month: number, day: number): number => utc(2026, month, day, rng.int(1, 22), rng.int(0, 59), rng.int(0, 59));
  const other = (posted: number, description: string, cents: number, extra: Record<string, string> = {}): void =>
    add(posted, { 'transaction-type': 'other-transaction', ...postedFields(posted) }, 'other-transaction', description, cents, extra);
  [[8, 8, 6137], [9, 8, 6874], [10, 8, 7412]].forEach(([mo, d, c]) => other(at(mo!, d!), 'Storage Fee', -Math.round(c! * k)));
  [[8, 16, 1240], [9, 16, 1865]].forEach(([mo, d, c]) => other(at(mo!, d!), 'StorageRenewalBilling', -Math.round(c! * k)));
  [[8, 3], [9, 3], [10, 3]].forEach(([mo, d]) => other(at(mo!, d!), 'Subscription Fee', isUs ? -3999 : -3900));
  // Not in the amount map: falls to the catch-all (other_fee) and raises the build's warning.
  other(at(9, isUs ? 2 : 4), 'Vine Enrollment Fee', isUs ? -20000 : -15000);

  const reimburse = (posted: number, description: string, sku: string, qty: number, unitShare: number): number => {
    const cents = Math.round(unitCents(product(sku), isUs) * unitShare) * qty;
    add(posted, { 'transaction-type': 'other-transaction', ...postedFields(posted), sku, 'quantity-purchased': String(Math.abs(qty)) }, 'FBA Inventory Reimbursement', description, cents);
    return cents;
  };
  reimburse(at(8, 20), 'WAREHOUSE_LOST', 'ACM-LAMP-HEAD-300', 1, 0.42);
  reimburse(at(9, 17), 'WAREHOUSE_LOST', 'ACM-PACK-DAY-BLK', 2, 0.42);
  reimburse(at(10, 9), 'WAREHOUSE_LOST_MANUAL', 'ACM-BOTTLE-1L-WHT', 1, 0.42);
  reimburse(at(8, 27), 'MISSING_FROM_INBOUND', 'ACM-SOCK-MER-3PK', 3, 0.38);
  // The inbound units turned up: two of the three reimbursed units are clawed back.
  reimburse(at(9, 24), 'MISSING_FROM_INBOUND_CLAWBACK', 'ACM-SOCK-MER-3PK', -2, 0.38);
  reimburse(at(9, 30), 'CUSTOMER_RETURN', 'ACM-FILTER-SQZ', 1, 0.4);

  // AWD storage: order-id carries the FBA shipment id, marketplace-name is empty.
  [[8, 6, 4520], [9, 5, 4870], [10, 6, 5135]].forEach(([mo, d, c]) => {
    const posted = at(mo!, d!);
    const common = { 'transaction-type': 'FBAFees', 'order-id': 'FBA' + randomId(rng, 9), ...postedFields(posted) };
    const fee = Math.round(c! * k);
    add(posted, common, 'AWD Storage Fee', 'Base fee', -fee);
    add(posted, common, 'AWD Storage Fee', 'Discount on Fee', Math.round(fee * 0.2));
  });

  // Sponsored-ads invoices paid from the balance (not profit: ads come from the ads reports).
  [[8, 9], [8, 21], [9, 1], [9, 12], [9, 23], [10, 4], [10, 14]].forEach(([mo, d]) => {
    const posted = at(mo!, d!);
    add(posted, { 'transaction-type': 'ServiceFee', ...postedFields(posted) }, 'Cost of Advertising', 'TransactionTotalAmount', -Math.round(rng.int(25000, 45000) * k));
  });

  // ---- Settlement periods: 14 days each, the first from 2026-07-28.
  const first = isUs ? utc(2026, 7, 28, 7) : utc(2026, 7, 28, 0);
  const files: { name: string; text: string }[] = [];
  const totals: string[] = [];
  let previousReserve = 0;
  let amountLines = 0;
  const assigned = new Set<SettlementAmount>();
  for (let n = 0; n < SETTLEMENT_COUNT; n++) {
    const start = first + n * SETTLEMENT_DAYS * DAY;
    const end = start + SETTLEMENT_DAYS * DAY;
    const id = `${isUs ? '17' : '18'}${rng.digits(9)}`;
    // Reserve: the previous one released and a new one held back, both at the opening of the period
    // (of the order period for the first settlement), so no posting date falls outside the demo's days.
    const reserve = Math.round(rng.int(30000, 60000) * k);
    const opening = Math.max(start, utc(2026, 8, 1, 9)) + rng.int(1, 30) * MIN;
    if (previousReserve > 0) other(opening, 'Previous Reserve Amount Balance', previousReserve);
    other(opening, 'Current Reserve Amount', -reserve);
    previousReserve = reserve;
    const lines = amounts.filter((a) => a.posted >= start && a.posted < end).sort((a, b) => a.posted - b.posted || a.seq - b.seq);
    lines.forEach((a) => assigned.add(a));
    const total = lines.reduce((sum, a) => sum + a.cents, 0);
    const deposit = end + 2 * DAY + rng.int(0, 6 * 60) * MIN;
    const empty = Object.fromEntries(SETTLEMENT_HEADER.map((h) => [h, ''])) as Record<string, string>;
    const rows: Record<string, string>[] = [
      {
        ...empty, 'settlement-id': id, 'settlement-start-date': settlementTime(start, dayFirst), 'settlement-end-date': settlementTime(end, dayFirst),
        'deposit-date': settlementTime(deposit, dayFirst), 'total-amount': amountText(total, !isUs), currency: m.currency,
      },
      ...lines.map((a) => ({ ...empty, ...a.fields, 'settlement-id': id, amount: amountText(a.cents, !isUs) })),
    ];
    amountLines += lines.length;
    totals.push(`${id} ${ymd(start)}..${ymd(end)} ${amountText(total, false)} ${m.currency} (${lines.length} lines)`);
    files.push({ name: `settlement-${ymd(start)}_${ymd(end)}-${id}.tsv.gz`, text: toTsv(SETTLEMENT_HEADER, rows) });
  }
  const lost = amounts.filter((a) => !assigned.has(a));
  if (lost.length > 0) throw new Error(`${lost.length} settlement lines outside every settlement period`);
  const descriptions = new Set(amounts.map((a) => `${a.fields['transaction-type']}|${a.fields['amount-type']}|${a.fields['amount-description']}`)).size;
  return { files, refunds, stats: { settlements: files.length, amountLines, orderEvents, refunds: refunds.length, totals, descriptions } };
}

// ---------------------------------------------------------------------------------------------
// FBA customer returns (GET_FBA_FULFILLMENT_CUSTOMER_RETURNS_DATA)
// ---------------------------------------------------------------------------------------------

const RETURNS_REPORT = 'GET_FBA_FULFILLMENT_CUSTOMER_RETURNS_DATA';
const RETURNS_HEADER = [
  'return-date', 'order-id', 'sku', 'asin', 'fnsku', 'product-name', 'quantity', 'fulfillment-center-id',
  'detailed-disposition', 'reason', 'status', 'license-plate-number', 'customer-comments',
] as const;
const DISPOSITION_CYCLE = ['SELLABLE', 'DEFECTIVE', 'SELLABLE', 'CUSTOMER_DAMAGED', 'SELLABLE', 'CARRIER_DAMAGED', 'SELLABLE', 'DEFECTIVE'] as const;
const REASONS: Record<string, readonly string[]> = {
  SELLABLE: ['UNWANTED_ITEM', 'NOT_AS_DESCRIBED', 'FOUND_BETTER_PRICE', 'ORDERED_WRONG_ITEM', 'MISSED_ESTIMATED_DELIVERY'],
  DEFECTIVE: ['DEFECTIVE', 'QUALITY_UNACCEPTABLE'],
  CUSTOMER_DAMAGED: ['UNWANTED_ITEM', 'ORDERED_WRONG_ITEM'],
  CARRIER_DAMAGED: ['DAMAGED_BY_CARRIER'],
};
/** Optional buyer comments, by disposition (mostly empty). */
const COMMENTS: Record<'us' | 'de', Record<string, readonly string[]>> = {
  us: {
    SELLABLE: ['', '', '', 'Did not need it after all', 'Color is not as pictured'],
    DEFECTIVE: ['', 'Zipper broke after the first trip', 'Stopped working after two nights'],
    CUSTOMER_DAMAGED: ['', 'Used once, not for me'],
    CARRIER_DAMAGED: ['Arrived with a dent', 'Box was crushed'],
  },
  de: {
    SELLABLE: ['', '', '', 'Doch nicht benötigt', 'Farbe weicht ab'],
    DEFECTIVE: ['', 'Reißverschluss nach einer Tour defekt', 'Funktioniert nach zwei Nächten nicht mehr'],
    CUSTOMER_DAMAGED: ['', 'Einmal benutzt, passt nicht für „große“ Touren'],
    CARRIER_DAMAGED: ['Verpackung beschädigt – Ware zerkratzt', 'Karton eingedrückt'],
  },
};

/** Deterministic FNSKU per SKU (FBA label), same in both marketplaces. */
function fnskuOf(sku: string): string {
  let h = 0x811c9dc5;
  for (const ch of sku) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  return 'X00' + randomId(new Rng(h), 7);
}

function buildReturns(m: MarketConfig, refunds: Refund[]): { text: string; count: number; byDisposition: string } {
  const rng = new Rng(m.seed ^ 0x7e7a4d);
  const key = m.conn.key;
  const centers = key === 'us' ? ['PHX6', 'ONT8', 'SMF3', 'BFI4', 'MDW2', 'CLT2'] : ['LEJ1', 'FRA7', 'MUC3', 'DTM2', 'BER3'];
  const rows: { at: number; row: Record<string, string> }[] = [];
  let n = 0;
  for (const r of refunds) {
    const o = r.item.order;
    if (o.channel !== 'Amazon' || !rng.chance(0.8)) continue;
    const disposition = DISPOSITION_CYCLE[n++ % DISPOSITION_CYCLE.length]!;
    // The unit reaches the fulfillment center a few hours to a day before the refund posts.
    const at = Math.max(o.purchase + 3 * DAY, r.posted - rng.int(2 * 60, 30 * 60) * MIN);
    rows.push({
      at,
      row: {
        'return-date': isoUtc(at),
        'order-id': o.id,
        sku: r.item.line.product.sku,
        asin: ASINS.get(r.item.line.product.sku)!,
        fnsku: fnskuOf(r.item.line.product.sku),
        'product-name': r.item.line.name,
        quantity: String(r.qty),
        'fulfillment-center-id': rng.pick(centers),
        'detailed-disposition': disposition,
        reason: rng.pick(REASONS[disposition]!),
        status: disposition === 'CARRIER_DAMAGED' ? 'Reimbursed' : disposition === 'SELLABLE' && rng.chance(0.3) ? 'Repackaged Successfully' : 'Unit returned to inventory',
        'license-plate-number': `LPN${randomId(rng, 2, 'ABCDEFGHJKLMNPQRSTUVWXYZ')}${rng.digits(9)}`,
        'customer-comments': rng.pick(COMMENTS[key][disposition]!),
      },
    });
  }
  rows.sort((a, b) => a.at - b.at);
  const counts = new Map<string, number>();
  for (const { row } of rows) counts.set(row['detailed-disposition']!, (counts.get(row['detailed-disposition']!) ?? 0) + 1);
  return {
    text: toTsv(RETURNS_HEADER, rows.map((x) => x.row)),
    count: rows.length,
    byDisposition: [...counts.entries()].sort().map(([d, c]) => `${d}=${c}`).join(' '),
  };
}

// ---------------------------------------------------------------------------------------------
// Sales and traffic (GET_SALES_AND_TRAFFIC_REPORT), one-day CHILD reports
// ---------------------------------------------------------------------------------------------

const TRAFFIC_REPORT = 'GET_SALES_AND_TRAFFIC_REPORT';
/** The last 21 full days before the snapshot (2026-10-16 04:30 UTC, when 2026-10-15 has not ended in Los Angeles). */
const TRAFFIC_FROM = utc(2026, 9, 24);
const TRAFFIC_TO = utc(2026, 10, 14);

/** Parent ASINs of the variation families; other products are their own parent. */
const FAMILIES: readonly (readonly string[])[] = [
  ['ACM-TENT-2P-GRN', 'ACM-TENT-2P-ORG'],
  ['ACM-BAG-0F-REG', 'ACM-BAG-0F-LNG'],
  ['ACM-PACK-40L-GRY', 'ACM-PACK-65L-GRY'],
  ['ACM-JACKET-RAIN-M', 'ACM-JACKET-RAIN-W'],
];
const PARENT_ASINS = ((): Map<string, string> => {
  const rng = new Rng(0xfa4e47);
  const parents = new Map<string, string>();
  for (const family of FAMILIES) {
    const parent = 'B0' + randomId(rng, 8);
    for (const sku of family) parents.set(ASINS.get(sku)!, parent);
  }
  return parents;
})();

interface DaySales {
  units: number;
  unitsB2B: number;
  cents: number;
  centsB2B: number;
  items: number;
  itemsB2B: number;
}

/** Ordered (not cancelled) lines by marketplace-local purchase date and child ASIN. */
function orderedByDayAndAsin(m: MarketConfig, r: MarketResult): Map<string, Map<string, DaySales>> {
  const out = new Map<string, Map<string, DaySales>>();
  for (const o of r.orders) {
    if (o.mcf) continue;
    const v = r.finals.get(o)!;
    const day = localDate(o.purchase, m.timeZone);
    o.lines.forEach((l, i) => {
      if (v.itemStatus[i] === 'Cancelled') return;
      const asin = ASINS.get(l.product.sku)!;
      const byAsin = out.get(day) ?? new Map<string, DaySales>();
      out.set(day, byAsin);
      const s = byAsin.get(asin) ?? { units: 0, unitsB2B: 0, cents: 0, centsB2B: 0, items: 0, itemsB2B: 0 };
      byAsin.set(asin, s);
      s.units += l.qty;
      s.cents += l.item;
      s.items += 1;
      if (o.business) {
        s.unitsB2B += l.qty;
        s.centsB2B += l.item;
        s.itemsB2B += 1;
      }
    });
  }
  return out;
}

function buildSalesAndTraffic(m: MarketConfig, r: MarketResult): { name: string; json: string }[] {
  const rng = new Rng(m.seed ^ 0x5a1e5);
  const ordered = orderedByDayAndAsin(m, r);
  const money2 = (c: number) => ({ amount: cents2(c), currencyCode: m.currency });
  // Child ASINs listed here with their popularity (the mug ASIN sums its two SKUs).
  const asinPop = new Map<string, number>();
  for (const p of listedIn(m)) asinPop.set(ASINS.get(p.sku)!, (asinPop.get(ASINS.get(p.sku)!) ?? 0) + p.pop);
  const asins = [...asinPop.keys()].sort((a, b) => (PARENT_ASINS.get(a) ?? a).localeCompare(PARENT_ASINS.get(b) ?? b) || a.localeCompare(b));
  const files: { name: string; json: string }[] = [];
  for (const t of dayRange(TRAFFIC_FROM, TRAFFIC_TO)) {
    const day = ymd(t);
    const deal = day === '2026-10-06' || day === '2026-10-07' ? 2 : 1;
    const entries = asins.map((asin) => {
      const s = ordered.get(day)?.get(asin) ?? { units: 0, unitsB2B: 0, cents: 0, centsB2B: 0, items: 0, itemsB2B: 0 };
      const sessions = Math.max(
        Math.round(asinPop.get(asin)! * (3 + rng.float() * 3) * deal),
        Math.round(s.units * (6 + rng.float() * 7)),
        s.items,
      );
      const sessionsB2B = Math.min(sessions, Math.max(s.itemsB2B, Math.round(sessions * (0.02 + rng.float() * 0.08))));
      const browserSessions = Math.round(sessions * (0.3 + rng.float() * 0.2));
      const browserSessionsB2B = Math.round(sessionsB2B * 0.7);
      const pageViews = sessions + Math.round(sessions * (0.15 + rng.float() * 0.45));
      const pageViewsB2B = Math.min(pageViews, sessionsB2B + Math.round(sessionsB2B * (0.1 + rng.float() * 0.4)));
      const browserPageViews = Math.round(pageViews * (browserSessions / Math.max(1, sessions)));
      const browserPageViewsB2B = Math.round(pageViewsB2B * 0.7);
      const buyBox = rng.chance(0.7) ? 100 : round2(86 + rng.float() * 14);
      const buyBoxB2B = sessionsB2B === 0 ? 0 : rng.chance(0.8) ? 100 : round2(90 + rng.float() * 10);
      return {
        parentAsin: PARENT_ASINS.get(asin) ?? asin,
        childAsin: asin,
        salesByAsin: {
          unitsOrdered: s.units,
          unitsOrderedB2B: s.unitsB2B,
          orderedProductSales: money2(s.cents),
          orderedProductSalesB2B: money2(s.centsB2B),
          totalOrderItems: s.items,
          totalOrderItemsB2B: s.itemsB2B,
        },
        trafficByAsin: {
          browserSessions,
          browserSessionsB2B,
          mobileAppSessions: sessions - browserSessions,
          mobileAppSessionsB2B: sessionsB2B - browserSessionsB2B,
          sessions,
          sessionsB2B,
          browserPageViews,
          browserPageViewsB2B,
          mobileAppPageViews: pageViews - browserPageViews,
          mobileAppPageViewsB2B: pageViewsB2B - browserPageViewsB2B,
          pageViews,
          pageViewsB2B,
          buyBoxPercentage: buyBox,
          buyBoxPercentageB2B: buyBoxB2B,
          unitSessionPercentage: round2((s.units / sessions) * 100),
          unitSessionPercentageB2B: sessionsB2B === 0 ? 0 : round2((s.unitsB2B / sessionsB2B) * 100),
        },
      };
    });
    const sum = (f: (e: (typeof entries)[number]) => number): number => entries.reduce((a, e) => a + f(e), 0);
    const cents = sum((e) => Math.round(e.salesByAsin.orderedProductSales.amount * 100));
    const centsB2B = sum((e) => Math.round(e.salesByAsin.orderedProductSalesB2B.amount * 100));
    const units = sum((e) => e.salesByAsin.unitsOrdered);
    const items = sum((e) => e.salesByAsin.totalOrderItems);
    const sessions = sum((e) => e.trafficByAsin.sessions);
    const pageViews = sum((e) => e.trafficByAsin.pageViews);
    const document = {
      reportSpecification: {
        reportType: TRAFFIC_REPORT,
        reportOptions: { dateGranularity: 'DAY', asinGranularity: 'CHILD' },
        dataStartTime: day,
        dataEndTime: day,
        marketplaceIds: [m.conn.marketplaceId],
      },
      salesAndTrafficByDate: [
        {
          date: day,
          salesByDate: {
            orderedProductSales: money2(cents),
            orderedProductSalesB2B: money2(centsB2B),
            unitsOrdered: units,
            unitsOrderedB2B: sum((e) => e.salesByAsin.unitsOrderedB2B),
            totalOrderItems: items,
            totalOrderItemsB2B: sum((e) => e.salesByAsin.totalOrderItemsB2B),
            averageSalesPerOrderItem: money2(items === 0 ? 0 : Math.round(cents / items)),
            averageUnitsPerOrderItem: items === 0 ? 0 : round2(units / items),
          },
          trafficByDate: {
            browserPageViews: sum((e) => e.trafficByAsin.browserPageViews),
            mobileAppPageViews: sum((e) => e.trafficByAsin.mobileAppPageViews),
            pageViews,
            pageViewsB2B: sum((e) => e.trafficByAsin.pageViewsB2B),
            browserSessions: sum((e) => e.trafficByAsin.browserSessions),
            mobileAppSessions: sum((e) => e.trafficByAsin.mobileAppSessions),
            sessions,
            sessionsB2B: sum((e) => e.trafficByAsin.sessionsB2B),
            buyBoxPercentage: round2(sum((e) => e.trafficByAsin.buyBoxPercentage * e.trafficByAsin.pageViews) / pageViews),
            unitSessionPercentage: round2((units / sessions) * 100),
          },
        },
      ],
      salesAndTrafficByAsin: entries,
    };
    files.push({ name: `sales-and-traffic-${day}.json.gz`, json: JSON.stringify(document) });
  }
  return files;
}

// ---------------------------------------------------------------------------------------------
// Ads API v3 report downloads (ads.<reportTypeId>), last 28 days
// ---------------------------------------------------------------------------------------------

/** The last 28 full days before the snapshot, as a daily ads pull would have them. */
const ADS_FROM = utc(2026, 9, 17);
const ADS_TO = utc(2026, 10, 14);
const ADS_LABEL = `${ymd(ADS_FROM)}_${ymd(ADS_TO)}`;

interface SpTarget {
  text: string;
  match: 'EXACT' | 'PHRASE' | 'BROAD' | 'TARGETING_EXPRESSION_PREDEFINED' | 'TARGETING_EXPRESSION';
  terms: readonly string[];
}
interface SpCampaign {
  name: string;
  adGroup: string;
  skus: readonly string[];
  targets: readonly SpTarget[];
  impressions: number; // per ad and day
  ctr: number;
  cpc: readonly [number, number]; // cents
  cvr: number;
}

const auto = (closeTerms: readonly string[], looseTerms: readonly string[], subst: readonly string[]): SpTarget[] => [
  { text: 'close-match', match: 'TARGETING_EXPRESSION_PREDEFINED', terms: closeTerms },
  { text: 'loose-match', match: 'TARGETING_EXPRESSION_PREDEFINED', terms: looseTerms },
  { text: 'substitutes', match: 'TARGETING_EXPRESSION_PREDEFINED', terms: subst },
];

const SP_CAMPAIGNS: Record<'us' | 'de', readonly SpCampaign[]> = {
  us: [
    {
      name: 'SP | Tents | Auto', adGroup: 'Tents - all', skus: ['ACM-TENT-2P-GRN', 'ACM-TENT-2P-ORG', 'ACM-TENT-4P-GRN'],
      targets: auto(['backpacking tent 2 person', '2 person tent'], ['camping gear', 'tent stakes aluminum'], ['b07kx4q2zr', 'b08n5wrwnw']),
      impressions: 1100, ctr: 0.005, cpc: [110, 180], cvr: 0.09,
    },
    {
      name: 'SP | Backpacks | Exact', adGroup: 'Backpacks - exact', skus: ['ACM-PACK-40L-GRY', 'ACM-PACK-DAY-BLK', 'ACM-PACK-KIDS-GRN'],
      targets: [
        { text: 'hiking backpack', match: 'EXACT', terms: ['hiking backpack', 'hiking backpacks'] },
        { text: 'daypack', match: 'EXACT', terms: ['daypack'] },
        { text: 'kids hiking backpack', match: 'EXACT', terms: ['kids hiking backpack'] },
      ],
      impressions: 900, ctr: 0.006, cpc: [80, 140], cvr: 0.11,
    },
    {
      name: 'SP | Mugs & Bottles | Broad', adGroup: 'Mugs & bottles - broad', skus: ['ACM-MUG-12-BLK-FBA', 'ACM-MUG-12-BLK', 'ACM-BOTTLE-1L-WHT', 'ACM-MUG-16-RED'],
      targets: [
        { text: 'camping mug', match: 'BROAD', terms: ['camping mug', 'insulated camping mug with lid', 'enamel camping mug'] },
        { text: 'insulated water bottle', match: 'BROAD', terms: ['insulated water bottle', 'water bottle 32 oz'] },
        { text: 'travel mug', match: 'PHRASE', terms: ['stainless travel mug', 'travel mug 12 oz'] },
      ],
      impressions: 1000, ctr: 0.006, cpc: [55, 95], cvr: 0.12,
    },
    {
      name: 'SP | Headlamps | Auto', adGroup: 'Lighting - all', skus: ['ACM-LAMP-HEAD-300', 'ACM-LAMP-LANT'],
      targets: auto(['headlamp rechargeable', 'led headlamp'], ['camping lantern', 'flashlight'], ['b09g9fpgtn']),
      impressions: 1200, ctr: 0.005, cpc: [60, 110], cvr: 0.1,
    },
    {
      name: 'SP | Sleep | Phrase', adGroup: 'Sleeping - phrase', skus: ['ACM-BAG-0F-REG', 'ACM-PAD-SELF-R'],
      targets: [
        { text: 'sleeping bag', match: 'PHRASE', terms: ['0 degree sleeping bag', 'sleeping bag for adults'] },
        { text: 'sleeping pad', match: 'PHRASE', terms: ['self inflating sleeping pad', 'sleeping pad camping'] },
      ],
      impressions: 800, ctr: 0.005, cpc: [90, 160], cvr: 0.08,
    },
    {
      // A test campaign that spends and never converts.
      name: 'SP | Cooler | Test', adGroup: 'Cooler - exact', skus: ['ACM-COOLER-25Q'],
      targets: [{ text: 'hard cooler', match: 'EXACT', terms: ['hard cooler', 'hard coolers'] }],
      impressions: 600, ctr: 0.006, cpc: [120, 190], cvr: 0,
    },
  ],
  de: [
    {
      name: 'SP | Zelte | Auto', adGroup: 'Zelte - alle', skus: ['ACM-TENT-2P-GRN', 'ACM-TENT-2P-ORG', 'ACM-TENT-4P-GRN'],
      targets: auto(['zelt 2 personen', 'trekkingzelt leicht'], ['camping ausrüstung', 'heringe alu'], ['b07kx4q2zr']),
      impressions: 900, ctr: 0.005, cpc: [70, 120], cvr: 0.08,
    },
    {
      name: 'SP | Rucksäcke | Exact', adGroup: 'Rucksäcke - exact', skus: ['ACM-PACK-40L-GRY', 'ACM-PACK-DAY-BLK', 'ACM-PACK-KIDS-GRN'],
      targets: [
        { text: 'wanderrucksack', match: 'EXACT', terms: ['wanderrucksack', 'wanderrucksäcke'] },
        { text: 'tagesrucksack', match: 'EXACT', terms: ['tagesrucksack'] },
        { text: 'kinderrucksack wandern', match: 'EXACT', terms: ['kinderrucksack wandern'] },
      ],
      impressions: 800, ctr: 0.006, cpc: [50, 95], cvr: 0.1,
    },
    {
      name: 'SP | Becher & Flaschen | Broad', adGroup: 'Becher - broad', skus: ['ACM-MUG-12-BLK-FBA', 'ACM-MUG-12-BLK', 'ACM-BOTTLE-1L-WHT'],
      targets: [
        { text: 'thermobecher', match: 'BROAD', terms: ['thermobecher', 'thermobecher edelstahl to go'] },
        { text: 'isolierflasche', match: 'PHRASE', terms: ['isolierflasche 1 liter', 'trinkflasche isoliert'] },
      ],
      impressions: 900, ctr: 0.006, cpc: [40, 75], cvr: 0.11,
    },
    {
      name: 'SP | Stirnlampen | Auto', adGroup: 'Licht - alle', skus: ['ACM-LAMP-HEAD-300', 'ACM-LAMP-LANT'],
      targets: auto(['stirnlampe led', 'stirnlampe wiederaufladbar'], ['campinglampe', 'taschenlampe'], ['b09g9fpgtn']),
      impressions: 1000, ctr: 0.005, cpc: [40, 80], cvr: 0.1,
    },
    {
      name: 'SP | Sitzkissen | Test', adGroup: 'Sitzkissen - exact', skus: ['ACM-SEAT-PAD-DE'],
      targets: [{ text: 'sitzkissen faltbar', match: 'EXACT', terms: ['sitzkissen faltbar', 'sitzkissen outdoor'] }],
      impressions: 500, ctr: 0.006, cpc: [45, 80], cvr: 0,
    },
  ],
};

const SD_SKUS = ['ACM-BOTTLE-1L-WHT', 'ACM-LAMP-HEAD-300', 'ACM-SOCK-MER-3PK'];

interface AdsResult {
  files: { source: string; name: string; json: string; gz: boolean }[];
  spend: string;
}

function buildAds(m: MarketConfig): AdsResult {
  const rng = new Rng(m.seed ^ 0xad5ad5);
  const isUs = m.currency === 'USD';
  const key = m.conn.key;
  const cur = m.currency;
  const days = dayRange(ADS_FROM, ADS_TO).map(ymd);
  const dealFactor = (d: string): number => (d === '2026-10-06' || d === '2026-10-07' ? 1.8 : 1);
  const noise = (): number => 0.7 + rng.float() * 0.6;
  const priceOf = (sku: string): number => unitCents(product(sku), isUs);
  const otherPrice = (): number => unitCents(rng.pick(listedIn(m)), isUs);
  const clicksCost = (clicks: number, cpc: readonly [number, number]): number => {
    let c = 0;
    for (let i = 0; i < clicks; i++) c += rng.int(cpc[0], cpc[1]);
    return c;
  };
  const count = (n: number, p: number): number => {
    let k = 0;
    for (let i = 0; i < n; i++) if (rng.chance(p)) k++;
    return k;
  };
  let totalSpend = 0;
  const spendBy: Record<string, number> = {};
  const spent = (report: string, cents: number): void => {
    totalSpend += cents;
    spendBy[report] = (spendBy[report] ?? 0) + cents;
  };

  // ---- Sponsored products: advertised product, targeting and search-term rows from one simulation.
  const spAdvertised: Record<string, unknown>[] = [];
  const spTargeting: Record<string, unknown>[] = [];
  const spSearchTerm: Record<string, unknown>[] = [];
  const campaigns = SP_CAMPAIGNS[key].map((c) => ({
    spec: c,
    campaignId: adsId(rng),
    adGroupId: adsId(rng),
    ads: c.skus.map((sku) => ({ sku, adId: adsId(rng), weight: product(sku).pop })),
    targets: c.targets.map((t) => ({ ...t, keywordId: adsId(rng), weight: 0.5 + rng.float(), termWeights: t.terms.map(() => 0.3 + rng.float()) })),
  }));
  for (const day of days) {
    for (const c of campaigns) {
      const s = c.spec;
      const group = { impressions: 0, clicks: 0, cost: 0, purchases: 0, units: 0, sales: 0 };
      for (const ad of c.ads) {
        const impressions = Math.round(((s.impressions * ad.weight) / 5) * dealFactor(day) * noise());
        const clicks = count(impressions, s.ctr);
        const cost = clicksCost(clicks, s.cpc);
        const purchases = count(clicks, s.cvr);
        const sameSku = count(purchases, 0.85);
        const extraUnits = count(purchases, 0.12);
        const sameUnits = sameSku + Math.min(extraUnits, sameSku);
        const units = purchases + extraUnits;
        const sameSales = sameUnits * priceOf(ad.sku);
        let sales = sameSales;
        for (let i = sameUnits; i < units; i++) sales += otherPrice();
        spAdvertised.push({
          date: day, campaignId: c.campaignId, campaignName: s.name, adGroupId: c.adGroupId, adGroupName: s.adGroup, adId: ad.adId,
          advertisedAsin: ASINS.get(ad.sku)!, advertisedSku: ad.sku, campaignBudgetCurrencyCode: cur, impressions, clicks, cost: cents2(cost),
          purchases7d: purchases, purchasesSameSku7d: sameSku, unitsSoldClicks7d: units, unitsSoldSameSku7d: sameUnits,
          sales7d: cents2(sales), attributedSalesSameSku7d: cents2(sameSales),
        });
        group.impressions += impressions;
        group.clicks += clicks;
        group.cost += cost;
        group.purchases += purchases;
        group.units += units;
        group.sales += sales;
        spent('spAdvertisedProduct', cost);
      }
      // The ad group's day split over its targets, then each target's over its search terms.
      const split = (total: typeof group, weights: number[]) => {
        const impressions = splitInt(total.impressions, weights);
        const clicks = splitInt(total.clicks, weights);
        const cost = splitInt(total.cost, clicks);
        const purchases = splitInt(total.purchases, clicks);
        const extra = splitInt(total.units - total.purchases, purchases);
        const units = purchases.map((p, i) => p + extra[i]!);
        const sales = splitInt(total.sales, units);
        return weights.map((_, i) => ({ impressions: impressions[i]!, clicks: clicks[i]!, cost: cost[i]!, purchases: purchases[i]!, units: units[i]!, sales: sales[i]! }));
      };
      const perTarget = split(group, c.targets.map((t) => t.weight * noise()));
      c.targets.forEach((t, i) => {
        const v = perTarget[i]!;
        const common = {
          date: day, campaignId: c.campaignId, adGroupId: c.adGroupId, keywordId: t.keywordId, keyword: t.text, targeting: t.text, matchType: t.match,
          campaignBudgetCurrencyCode: cur,
        };
        const metrics = (x: typeof v) => ({
          impressions: x.impressions, clicks: x.clicks, cost: cents2(x.cost), sales7d: cents2(x.sales), purchases7d: x.purchases, unitsSoldClicks7d: x.units,
        });
        if (v.impressions > 0) spTargeting.push({ ...common, ...metrics(v) });
        const perTerm = split(v, t.termWeights.map((w) => w * noise()));
        t.terms.forEach((term, j) => {
          const x = perTerm[j]!;
          // The search term report lists terms that got clicks.
          if (x.clicks > 0) spSearchTerm.push({ ...common, ...metrics(x), searchTerm: term });
        });
      });
    }
  }

  // ---- Sponsored display: one retargeting campaign (14-day window, view-through purchases included).
  const sdCampaignId = adsId(rng);
  const sdAdGroupId = adsId(rng);
  const sdAds = SD_SKUS.map((sku) => ({ sku, adId: adsId(rng) }));
  const sdAdvertised: Record<string, unknown>[] = [];
  for (const day of days) {
    for (const ad of sdAds) {
      const impressions = Math.round(rng.int(1500, 4000) * dealFactor(day) * (isUs ? 1 : 0.6));
      const clicks = count(impressions, 0.003);
      const cost = clicksCost(clicks, isUs ? [70, 130] : [45, 90]);
      const purchasesPromotedClicks = count(clicks, 0.09);
      const unitsSoldClicks = purchasesPromotedClicks + count(purchasesPromotedClicks, 0.1);
      const viewPurchases = count(impressions, 0.0004);
      const price = priceOf(ad.sku);
      sdAdvertised.push({
        date: day, campaignId: sdCampaignId, adGroupId: sdAdGroupId, adId: ad.adId, promotedAsin: ASINS.get(ad.sku)!, promotedSku: ad.sku,
        campaignBudgetCurrencyCode: cur, impressions, clicks, cost: cents2(cost),
        sales: cents2((unitsSoldClicks + viewPurchases) * price), salesPromotedClicks: cents2(purchasesPromotedClicks * price),
        purchases: purchasesPromotedClicks + viewPurchases, purchasesPromotedClicks, unitsSold: unitsSoldClicks + viewPurchases, unitsSoldClicks,
      });
      spent('sdAdvertisedProduct', cost);
    }
  }

  // ---- Sponsored brands: campaign rows and purchased-product rows (14 days).
  const sbSpecs = [
    // Split over two ASINs every day, one of them the ASIN sold through two SKUs.
    { name: isUs ? 'SB | Brand | Trail Mugs & Bottles' : 'SB | Marke | Becher & Flaschen', asins: ['ACM-MUG-12-BLK-FBA', 'ACM-BOTTLE-1L-WHT'], clicks: [12, 28], cpc: [70, 120] as const, always: true },
    // Some days without any purchased-product row: its cost stays unallocated at SKU level.
    { name: isUs ? 'SB | Video | Headlamp' : 'SB | Video | Stirnlampe', asins: ['ACM-LAMP-HEAD-300'], clicks: [6, 16], cpc: [60, 110] as const, always: false },
  ];
  const sbCampaigns: Record<string, unknown>[] = [];
  const sbPurchased: Record<string, unknown>[] = [];
  const sb = sbSpecs.map((s) => ({ spec: s, campaignId: adsId(rng), adGroupId: adsId(rng) }));
  for (const day of days) {
    for (const c of sb) {
      const clicks = Math.round(rng.int(c.spec.clicks[0]!, c.spec.clicks[1]!) * dealFactor(day) * (isUs ? 1 : 0.7));
      const impressions = clicks * rng.int(120, 260);
      const cost = clicksCost(clicks, c.spec.cpc);
      let sales = 0;
      let purchases = 0;
      let unitsSold = 0;
      for (const sku of c.spec.asins) {
        let orders = count(clicks, 0.05);
        if (c.spec.always) orders = Math.max(1, orders);
        if (orders === 0) continue;
        const units = orders + count(orders, 0.15);
        const s = units * priceOf(sku);
        sbPurchased.push({
          date: day, campaignId: c.campaignId, adGroupId: c.adGroupId, purchasedAsin: ASINS.get(sku)!, campaignBudgetCurrencyCode: cur,
          sales14d: cents2(s), orders14d: orders, unitsSold14d: units,
        });
        sales += s;
        purchases += orders;
        unitsSold += units;
      }
      sbCampaigns.push({
        date: day, campaignId: c.campaignId, campaignName: c.spec.name, campaignBudgetCurrencyCode: cur, impressions, clicks, cost: cents2(cost),
        sales: cents2(sales), purchases, unitsSold,
      });
      spent('sbCampaigns', cost);
    }
  }

  const files: AdsResult['files'] = [];
  const push = (report: string, rows: Record<string, unknown>[], gz: boolean): void => {
    files.push({ source: `ads.${report}`, name: `${report}-${ADS_LABEL}.json${gz ? '.gz' : ''}`, json: JSON.stringify(rows), gz });
  };
  push('spAdvertisedProduct', spAdvertised, true);
  push('spTargeting', spTargeting, true);
  push('spSearchTerm', spSearchTerm, true);
  push('sdAdvertisedProduct', sdAdvertised, false);
  push('sbCampaigns', sbCampaigns, false);
  push('sbPurchasedProduct', sbPurchased, false);

  if (isUs) {
    // ---- Sponsored TV (spend only) and DSP, US only.
    const stId = adsId(rng);
    const st = days.map((day) => {
      const cost = rng.int(2200, 3600);
      spent('stCampaigns', cost);
      return {
        date: day, campaignId: stId, campaignName: 'ST | Fall Outdoor | Streaming TV', campaignBudgetCurrencyCode: cur,
        impressions: rng.int(6000, 12000), clicks: rng.int(0, 2), cost: cents2(cost),
      };
    });
    push('stCampaigns', st, false);
    const orderId = '5830' + rng.digits(14);
    const lineItems = ['Retargeting - Camping', 'Lookalike - Hikers'].map((name) => ({ name, id: '6172' + rng.digits(14) }));
    const dsp: Record<string, unknown>[] = [];
    for (const day of days) {
      for (const li of lineItems) {
        const totalCost = rng.int(1200, 2200);
        const purchases = rng.int(0, 3);
        const units = purchases + count(purchases, 0.2);
        let sales = 0;
        for (let i = 0; i < units; i++) sales += otherPrice();
        dsp.push({
          date: day, orderId, orderName: `Acme Fall Outdoor 2026 | ${li.name}`, lineItemId: li.id, orderCurrency: cur,
          totalCost: cents2(totalCost), supplyCost: cents2(Math.round(totalCost * 0.78)), impressions: rng.int(6000, 14000),
          clickThroughs: rng.int(6, 25), sales14d: cents2(sales), purchases14d: purchases, unitsSold14d: units,
        });
        spent('dspCampaign', totalCost);
      }
    }
    push('dspCampaign', dsp, false);
  }
  const spend = Object.entries(spendBy).map(([k, v]) => `${k}=${money(v)}`).join(' ') + ` total=${money(totalSpend)} ${cur}`;
  return { files, spend };
}

// ---------------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------------

const localDate = (ms: number, timeZone: string): string =>
  new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(ms));

function main(): void {
  // Only the folders this script writes: hand-made demo files of other sources (listings, AWD, …) stay.
  for (const key of ['us', 'de']) {
    for (const folder of [REPORT_TYPE, 'GET_V2_SETTLEMENT_REPORT_DATA_FLAT_FILE_V2', 'GET_FBA_FULFILLMENT_CUSTOMER_RETURNS_DATA', 'GET_SALES_AND_TRAFFIC_REPORT', 'cogs.csv']) {
      rmSync(join(OUT, key, folder), { recursive: true, force: true });
    }
    for (const folder of existsSync(join(OUT, key)) ? readdirSync(join(OUT, key)).filter((f) => f.startsWith('ads.')) : []) {
      rmSync(join(OUT, key, folder), { recursive: true, force: true });
    }
  }
  const written: { path: string; expected: string; encoding: 'utf8' | 'cp1252'; gz: boolean; tsv: boolean }[] = [];
  const write = (rel: string, text: string, encoding: 'utf8' | 'cp1252', gz = false, tsv = false): void => {
    const path = join(OUT, rel);
    mkdirSync(dirname(path), { recursive: true });
    let buf = encoding === 'cp1252' ? encodeCp1252(text) : Buffer.from(text, 'utf8');
    if (gz) buf = gzipSync(buf, { level: 9 });
    writeFileSync(path, buf);
    written.push({ path, expected: text, encoding, gz, tsv });
  };

  write('connections.json', JSON.stringify(CONNECTIONS) + '\n', 'utf8');

  const stats: string[] = [];
  const readmeStats: string[] = [];
  const extraStats: ExtraStats[] = [];
  for (const m of MARKETS) {
    const key = m.conn.key;
    const isUs = key === 'us';
    const header = isUs ? US_HEADER : DE_HEADER;
    const r = buildMarket(m);
    const enc = isUs ? 'utf8' : 'cp1252';
    const dir = `${key}/${REPORT_TYPE}`;
    write(`${dir}/orders-${FILE1.label}.tsv`, toTsv(header, r.file1), enc, false, true);
    write(`${dir}/orders-${FILE2.label}.tsv${isUs ? '.gz' : ''}`, toTsv(header, r.file2), enc, isUs, true);
    const cogs = buildCogs(m);
    write(`${key}/cogs.csv`, cogs.csv, 'utf8');

    const settlements = buildSettlements(m, r);
    for (const f of settlements.files) write(`${key}/${SETTLEMENT_REPORT}/${f.name}`, f.text, 'utf8', true, true);
    const returns = buildReturns(m, settlements.refunds);
    write(`${key}/${RETURNS_REPORT}/returns-2026-08-01_2026-10-15.tsv`, returns.text, enc, false, true);
    const traffic = buildSalesAndTraffic(m, r);
    for (const f of traffic) write(`${key}/${TRAFFIC_REPORT}/${f.name}`, f.json, 'utf8', true);
    const ads = buildAds(m);
    for (const f of ads.files) write(`${key}/${f.source}/${f.name}`, f.json, 'utf8', f.gz);

    const crossing = r.orders.filter((o) => localDate(o.purchase, m.timeZone) !== ymd(o.purchase)).length;
    const allRows = [...r.file1, ...r.file2];
    const countBy = (col: string): string => {
      const c = new Map<string, number>();
      for (const row of allRows) c.set(row[col]!, (c.get(row[col]!) ?? 0) + 1);
      return [...c.entries()].sort().map(([k, v]) => `${k || '(empty)'}=${v}`).join(' ');
    };
    const nullTax = allRows.filter((x) => x['item-price'] !== '' && x['item-tax'] === '').length;
    stats.push(
      `[${key}] orders=${r.orders.length} lines: file1=${r.file1.length} file2=${r.file2.length} total=${allRows.length}`,
      `[${key}] orders crossing local midnight (${m.timeZone}): ${crossing}`,
      `[${key}] overlap: ${r.overlapOrders} orders / ${r.overlapLines} lines in both files, ${r.changedLines} lines differ between versions, ${r.cancelledInSecond} orders cancelled only in the second file`,
      `[${key}] order-status: ${countBy('order-status')}`,
      `[${key}] item-status: ${countBy('item-status')}`,
      `[${key}] fulfillment: ${countBy('fulfillment-channel')}; sales-channel: ${countBy('sales-channel')}`,
      `[${key}] priced lines with empty item-tax: ${nullTax}`,
      `[${key}] cogs: ${cogs.covered}/${cogs.total} SKUs covered, ${cogs.twoRow} with two cost rows`,
      `[${key}] settlements: ${settlements.stats.settlements} files, ${settlements.stats.amountLines} amount lines, ${settlements.stats.orderEvents} order-line events, ${settlements.stats.refunds} refunds, ${settlements.stats.descriptions} distinct descriptions`,
      ...settlements.stats.totals.map((t) => `[${key}]   ${t}`),
      `[${key}] returns: ${returns.count} lines (${returns.byDisposition})`,
      `[${key}] sales and traffic: ${traffic.length} one-day reports ${ymd(TRAFFIC_FROM)}..${ymd(TRAFFIC_TO)}`,
      `[${key}] ads ${ADS_LABEL}: ${ads.files.map((f) => f.source).join(', ')}; spend ${ads.spend}`,
    );
    extraStats.push({
      key, settlements: settlements.stats.settlements, amountLines: settlements.stats.amountLines, refunds: settlements.stats.refunds,
      returns: returns.count, byDisposition: returns.byDisposition, trafficDays: traffic.length, adsReports: ads.files.length, adSpend: ads.spend,
    });
    readmeStats.push(
      `| ${key} | ${r.orders.length} | ${r.file1.length} + ${r.file2.length} | ${r.overlapLines} (${r.changedLines} changed) | ${crossing} | ${cogs.covered}/${cogs.total} (${cogs.twoRow} two-row) |`,
    );
  }

  write('README.md', readme(readmeStats, extraStats), 'utf8');

  // ------------------------------------------------------------------ self-check
  console.log('files:');
  for (const f of written) {
    const raw = readFileSync(f.path);
    const bytes = f.gz ? gunzipSync(raw) : raw;
    let validUtf8 = true;
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      validUtf8 = false;
    }
    const text = f.encoding === 'cp1252' ? decodeCp1252(bytes) : bytes.toString('utf8');
    if (text !== f.expected) throw new Error(`${f.path}: round-trip mismatch`);
    if (f.encoding === 'cp1252' && validUtf8 && /[^\x00-\x7f]/.test(text)) throw new Error(`${f.path}: expected NOT valid UTF-8`);
    if (/\.json(\.gz)?$/.test(f.path)) JSON.parse(text);
    if (f.path.includes(SETTLEMENT_REPORT)) {
      // The control total: the summary's total-amount is the exact sum of every amount line.
      const rows = text.trimEnd().split('\n').slice(1).map((l) => l.split('\t'));
      const cents = (v: string): number => Math.round(Number(v.replace(',', '.')) * 100);
      const sum = rows.slice(1).reduce((a, row) => a + cents(row[14]!), 0);
      if (cents(rows[0]![4]!) !== sum || rows.slice(1).some((row) => row[4] !== '' || row[5] !== '')) throw new Error(`${f.path}: total-amount mismatch`);
    }
    if (f.encoding === 'utf8' && !validUtf8) throw new Error(`${f.path}: expected valid UTF-8`);
    const lines = text.split('\n');
    if (lines.at(-1) === '') lines.pop();
    let fieldInfo = '';
    if (f.tsv) {
      const n = lines[0]!.split('\t').length;
      const bad = lines.filter((l) => l.split('\t').length !== n).length;
      if (bad) throw new Error(`${f.path}: ${bad} lines with wrong field count`);
      fieldInfo = ` fields=${n} (all lines)`;
    }
    const latin1Only = f.encoding === 'cp1252' ? [...text].every((c) => c.charCodeAt(0) <= 0xff) : undefined;
    const encInfo =
      f.encoding === 'cp1252'
        ? ` cp1252 (utf8-valid=${validUtf8}, pure-latin1=${latin1Only}, round-trips via cp1252 table)`
        : ` utf8${f.gz ? ' gzip (gunzips ok)' : ''}`;
    console.log(`  ${relative(ROOT, f.path)}: ${lines.length} lines, ${raw.length} bytes${f.gz ? ` (${bytes.length} unzipped)` : ''}${fieldInfo}${encInfo}`);
  }
  console.log('stats:');
  for (const s of stats) console.log('  ' + s);
}

interface ExtraStats {
  key: string;
  settlements: number;
  amountLines: number;
  refunds: number;
  returns: number;
  byDisposition: string;
  trafficDays: number;
  adsReports: number;
  adSpend: string;
}

function readme(rows: string[], extra: ExtraStats[]): string {
  const profitRows = extra.map(
    (e) => `| ${e.key} | ${e.settlements} | ${e.amountLines} | ${e.refunds} | ${e.returns} (${e.byDisposition}) | ${e.trafficDays} | ${e.adsReports} |`,
  );
  const spend = extra.map((e) => `- \`${e.key}\`: ${e.adSpend}`);
  return `# Demo data set: Acme Outdoor (US + DE)

Synthetic, deterministic seller data for \`mktdata demo\` and for tests. Generated by
\`scripts/generate-demo.ts\` (seeded PRNG, no clock): regenerate with \`npm run demo:generate\`;
the output is byte-identical on every run. Do not edit these files by hand (this README too is generated).

## Contents

- \`connections.json\`: two seller connections, \`us\` (Amazon.com, ATVPDKIKX0DER) and \`de\` (Amazon.de, A1PA6795UKMFR9).
- \`<key>/${REPORT_TYPE}/orders-<from>_<to>.tsv[.gz]\`: two SP-API all-orders flat-file reports per connection,
  covering 2026-08-01..2026-09-15 and 2026-09-10..2026-10-15 (purchase-date, UTC).
- \`<key>/cogs.csv\`: cost of goods per SKU with validity start dates.
- \`<key>/${SETTLEMENT_REPORT}/settlement-<start>_<end>-<settlement id>.tsv.gz\`: six settlement reports (flat file V2,
  24 columns, gzip) per connection, 14 days each from 2026-07-28 to 2026-10-20, covering every shipped order line.
- \`<key>/${RETURNS_REPORT}/returns-2026-08-01_2026-10-15.tsv\`: FBA customer returns of refunded FBA orders.
- \`<key>/${TRAFFIC_REPORT}/sales-and-traffic-<day>.json.gz\`: one-day sales and traffic reports (asinGranularity CHILD),
  ${ymd(TRAFFIC_FROM)}..${ymd(TRAFFIC_TO)}, one gzipped JSON document per day.
- \`<key>/ads.<report>/<report>-${ADS_LABEL}.json[.gz]\`: Ads API v3 report downloads (JSON arrays of flat rows) for the
  28 days ${ymd(ADS_FROM)}..${ymd(ADS_TO)}: \`spAdvertisedProduct\`, \`spTargeting\`, \`spSearchTerm\` (gzip), \`sdAdvertisedProduct\`,
  \`sbCampaigns\`, \`sbPurchasedProduct\`, and for \`us\` only \`stCampaigns\` (sponsored TV) and \`dspCampaign\`.

The snapshot is 2026-10-16 04:30 UTC: orders of 2026-10-15 are mostly not shipped yet (no sales, no settlement lines),
and traffic and ads end on 2026-10-14, the last day complete in both time zones at that time.

| connection | orders | lines (file 1 + file 2) | lines in both files | orders crossing local midnight | SKUs with COGS |
|---|---|---|---|---|---|
${rows.join('\n')}

| connection | settlements | amount lines | refunds | FBA returns (by disposition) | traffic days | ads reports |
|---|---|---|---|---|---|---|
${profitRows.join('\n')}

Ad spend over the 28 days, by report:
${spend.join('\n')}

## Quirks exercised

- **Versions (latest-version-wins):** the two files overlap on 2026-09-10..2026-09-15. Orders bought then appear in both;
  in the first file many are \`Pending\` (item-status \`Unshipped\` or empty) or \`Unshipped\` with empty prices, in the second
  they are \`Shipped\` with prices and a later \`last-updated-date\`, a few are \`Cancelled\`. Settled orders repeat unchanged.
- **Encodings:** US files are UTF-8, the second US file is gzip-compressed. DE files are **windows-1252**
  (umlauts, \`–\`, \`„“\`, and a \`€\` in a product name, so they are neither valid UTF-8 nor pure latin-1).
  Beware: Node 20.18.3+ \`TextDecoder('windows-1252')\` decodes as latin-1 (0x80 → U+0080, nodejs/node#60888).
  The DE returns report is windows-1252 too; settlements are plain ASCII; JSON documents are UTF-8.
- **Localized header (DE):** \`quantity-purchased\` instead of \`quantity\`, no \`cpf\`, an extra legacy \`url\` column at the end.
- **Time zones:** timestamps are UTC; many US orders fall 00:00–08:00 UTC (previous day in Los Angeles) and some DE orders
  22:00–24:00 UTC (next day in Berlin).
- **Money:** line totals (unit × quantity) with two decimals; empty for Pending/Cancelled lines and for multi-channel
  fulfillment lines (\`sales-channel\` = \`Non-Amazon\`). Promotion discounts are mostly negative but sometimes positive.
  US item-tax is sales tax (often 0.00); DE prices include 19 % VAT and item-tax is the VAT part, except a handful of
  shipped lines whose item-tax is empty. Business orders (\`is-business-order\` = true) carry a PO number and \`BusinessPrice\`.
- **Catalog:** two SKUs share one ASIN (\`ACM-MUG-12-BLK\` merchant-fulfilled, \`ACM-MUG-12-BLK-FBA\` via FBA) and both sell on
  several of the same days (some inside the ads window); a product name contains a double quote (\`Trail Mug 12" Steel\`);
  some orders contain a cancelled line next to shipped ones; order status \`Shipping\` marks partially shipped orders (DE).
- **Addresses:** US cities sometimes upper-case, states sometimes spelled out, ZIP+4 codes, ZIPs with leading zeros
  (keep postal codes as text); DE ship-state often empty.
- **COGS:** about 85 % of SKUs have a cost (the rest show \`cogs_present = false\`); about a quarter have two rows
  (2026-01-01 and a higher cost from 2026-09-01), so the cost changes mid-period; supplier names are optional.
- **Settlement format:** the first data line is the summary (settlement id, start, end, deposit date, total-amount, currency;
  every other column empty); later lines leave total-amount and currency empty. total-amount is the exact sum of the
  file's amounts (the build checks it). Amounts are signed, credit to the seller positive. US: \`2026-08-14 05:23:19 UTC\`
  timestamps and decimal points; DE: day-first \`14.08.2026 05:23:19 UTC\` timestamps and decimal commas (\`-12,34\`);
  posted-date is always the locale form \`14/08/26\`. quantity-purchased is on every line of an order item, on the
  Principal line only of a refund.
- **Settlement references:** order lines carry the order id, shipment id and a 14-digit order-item-code shared with their
  refund; refunds carry an \`amzn1:crow:\` adjustment id; FBAFees (AWD) lines carry an FBA shipment id such as
  \`FBA…\` in order-id and an empty marketplace-name; storage, subscription and reserve lines have no order id and no SKU.

## Profit rules exercised

How each file feeds \`mkt_profit_by_date\` (account) and \`mkt_profit_by_sku_and_date\` (per child ASIN and SKU):

- **Sales (orders):** total_sales = shipped item price + shipping − ship promotion (US Core / DE Core free-shipping promotions);
  B2B orders split total_sales_b2b/b2c and units; \`Unshipped\` lines give unshipped_sales; cancelled lines count nowhere.
- **Sales tax (orders, DE):** prices include VAT, so item-tax + shipping-tax of shipped lines is sales_tax; the DE lines with
  an empty item-tax count in sales_tax_missing_items. US sales tax is collected and withheld by Amazon (0 in profit).
- **Fees (settlements, rule 9):** order lines post 1–3 days after purchase and are dated on the order's local date:
  \`ItemFees/Commission\` (referral fee, 15 %, total_selling_fees), \`FBAPerUnitFulfillmentFee\` (fba_fees, FBA lines),
  \`DigitalServicesFee\` and \`ShippingChargeback\` (FBA keeps the buyer's shipping charge) as other fees,
  \`Promotion/Principal\` (item promotions) as promotion fees. Posting-dated: monthly \`Storage Fee\` and
  \`StorageRenewalBilling\` (fba_fees), \`Subscription Fee\` (other fee), \`FBAFees/AWD Storage Fee\` \`Base fee\` (−) and
  \`Discount on Fee\` (+) (awd_fees). Not fees: \`Tax\`/\`ShippingTax\`/\`GiftWrapTax\`, US
  \`ItemWithheldTax/MarketplaceFacilitatorTax-*\`, \`Promotion/Shipping\` (already out of total_sales),
  \`ServiceFee/Cost of Advertising\` (ads come from the ads reports), \`Current/Previous Reserve Amount\`.
- **Unknown order:** each connection has one order event (Principal, Commission, FBA fee, …) for an order bought on
  2026-07-30, before the orders files start: it is dated by its posting date (2026-08-01).
- **Uncategorized description:** \`other-transaction/other-transaction/Vine Enrollment Fee\` is not in
  \`seeds/settlement_amount_map.csv\`: it counts as an other fee and is the one expected build warning (one per connection).
- **Refunds (rule 6):** a few refunds per connection, posting-dated 5–18 days after purchase, some for one of several
  units: \`Refund/ItemPrice/Principal\`, \`Shipping\`, \`Tax\`, \`ShippingTax\` (−), US withheld tax back (+),
  \`Refund/ItemFees/Commission\` (+), \`RefundCommission\` (−, 20 % of the refunded fee, at most 5.00),
  \`DigitalServicesFee\` (+), \`Refund/Promotion/Shipping\` (+) and, as refund_other, \`Refund/Promotion/Principal\` and
  \`Refund/ItemFees/ShippingChargeback\`.
- **Returns (rules 6 and 7):** most refunded FBA lines come back a few hours to a day before the refund posts, with the
  refunded quantity; \`SELLABLE\` returns add their cost back to refund_cost, \`DEFECTIVE\`, \`CUSTOMER_DAMAGED\` and
  \`CARRIER_DAMAGED\` subtract it; return_units and return_cogs on the return date.
- **Inventory (rule 8):** \`FBA Inventory Reimbursement\` lines with SKU and quantity: \`WAREHOUSE_LOST\` and
  \`WAREHOUSE_LOST_MANUAL\` (+, lowering cogs_total via lost_damaged_by_mkt), \`MISSING_FROM_INBOUND\` (+) and a later
  \`MISSING_FROM_INBOUND_CLAWBACK\` (−, two of the three units turned up; missing_returns), \`CUSTOMER_RETURN\` (inventory_other,
  not in profit).
- **Ads:** ad_spend is SP + SB + SD + sponsored TV + DSP; sponsored_tv_ad_spend repeats the TV part; acos from SP sales7d, SB
  and SD sales and DSP sales14d. Per SKU: SP same-SKU and SD promoted-click results; SB cost is allocated to purchased ASINs
  by sales14d (the mugs & bottles campaign splits over two ASINs every day, one of them the two-SKU mug ASIN, so its
  part goes on to both mug SKUs by shipped sales); the headlamp SB campaign has days without purchased-product rows, whose
  cost stays at account level. Each connection has a test campaign that spends and never sells, and many SP rows have
  cost but no sales; spTargeting and spSearchTerm split the same ad-group days (search terms only where clicked), feeding
  the ad_target_* and ad_search_term_* summaries.
- **Traffic (rule 12):** every listed child ASIN every day with sessions ≥ B2B sessions, page views, browser/mobile splits,
  buy box and unit session percentages (0–100); ordered units and sales match the day's non-cancelled order lines
  (marketplace-local purchase date); parent ASINs group the tent, sleeping bag, backpack and rain jacket variations.
`;
}

main();
