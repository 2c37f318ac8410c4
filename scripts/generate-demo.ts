/**
 * Deterministic demo-data generator for mktdata.
 *
 * Writes fixtures/demo/: two seller connections (Acme Outdoor US / DE), each with two overlapping
 * GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL report files and one COGS CSV, plus
 * connections.json and README.md. Output is byte-identical on every run: all randomness comes from
 * seeded mulberry32 streams, all timestamps are derived from fixed constants (no Date.now(),
 * no Math.random()).
 *
 * Run: `npm run demo:generate` (or `npx tsx scripts/generate-demo.ts`).
 * Node built-ins only.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
  { sku: 'ACM-MUG-12-BLK', us: 'Trail Mug 12" Steel, Black', de: 'Trail Mug 12" Edelstahl, Schwarz', usd: 1999, eur: 1799, pop: 4, only: 'Merchant' },
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
    } else if (in1) {
      file1.push(...rowsFor(m, o, versionAt(o, SNAPSHOT1, rng)));
    } else if (in2) {
      file2.push(...rowsFor(m, o, versionAt(o, SNAPSHOT2, rng)));
    }
  }
  return { file1, file2, orders, overlapOrders, overlapLines, changedLines, cancelledInSecond };
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
// Main
// ---------------------------------------------------------------------------------------------

const localDate = (ms: number, timeZone: string): string =>
  new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(ms));

function main(): void {
  rmSync(OUT, { recursive: true, force: true });
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
    );
    readmeStats.push(
      `| ${key} | ${r.orders.length} | ${r.file1.length} + ${r.file2.length} | ${r.overlapLines} (${r.changedLines} changed) | ${crossing} | ${cogs.covered}/${cogs.total} (${cogs.twoRow} two-row) |`,
    );
  }

  write('README.md', readme(readmeStats), 'utf8');

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
    if (f.encoding === 'cp1252' && validUtf8) throw new Error(`${f.path}: expected NOT valid UTF-8`);
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

function readme(rows: string[]): string {
  return `# Demo data set: Acme Outdoor (US + DE)

Synthetic, deterministic seller data for \`mktdata demo\` and for tests. Generated by
\`scripts/generate-demo.ts\` (seeded PRNG, no clock): regenerate with \`npm run demo:generate\`;
the output is byte-identical on every run. Do not edit these files by hand (this README too is generated).

## Contents

- \`connections.json\`: two seller connections, \`us\` (Amazon.com, ATVPDKIKX0DER) and \`de\` (Amazon.de, A1PA6795UKMFR9).
- \`<key>/${REPORT_TYPE}/orders-<from>_<to>.tsv[.gz]\`: two SP-API all-orders flat-file reports per connection,
  covering 2026-08-01..2026-09-15 and 2026-09-10..2026-10-15 (purchase-date, UTC).
- \`<key>/cogs.csv\`: cost of goods per SKU with validity start dates.

| connection | orders | lines (file 1 + file 2) | lines in both files | orders crossing local midnight | SKUs with COGS |
|---|---|---|---|---|---|
${rows.join('\n')}

## Quirks exercised

- **Versions (latest-version-wins):** the two files overlap on 2026-09-10..2026-09-15. Orders bought then appear in both;
  in the first file many are \`Pending\` (item-status \`Unshipped\` or empty) or \`Unshipped\` with empty prices, in the second
  they are \`Shipped\` with prices and a later \`last-updated-date\`, a few are \`Cancelled\`. Settled orders repeat unchanged.
- **Encodings:** US files are UTF-8, the second US file is gzip-compressed. DE files are **windows-1252**
  (umlauts, \`–\`, \`„“\`, and a \`€\` in a product name, so they are neither valid UTF-8 nor pure latin-1).
  Beware: Node 20.18.3+ \`TextDecoder('windows-1252')\` decodes as latin-1 (0x80 → U+0080, nodejs/node#60888).
- **Localized header (DE):** \`quantity-purchased\` instead of \`quantity\`, no \`cpf\`, an extra legacy \`url\` column at the end.
- **Time zones:** timestamps are UTC; many US orders fall 00:00–08:00 UTC (previous day in Los Angeles) and some DE orders
  22:00–24:00 UTC (next day in Berlin).
- **Money:** line totals (unit × quantity) with two decimals; empty for Pending/Cancelled lines and for multi-channel
  fulfillment lines (\`sales-channel\` = \`Non-Amazon\`). Promotion discounts are mostly negative but sometimes positive.
  US item-tax is sales tax (often 0.00); DE prices include 19 % VAT and item-tax is the VAT part, except a handful of
  shipped lines whose item-tax is empty. Business orders (\`is-business-order\` = true) carry a PO number and \`BusinessPrice\`.
- **Catalog:** two SKUs share one ASIN (\`ACM-MUG-12-BLK\` merchant-fulfilled, \`ACM-MUG-12-BLK-FBA\` via FBA); a product name
  contains a double quote (\`Trail Mug 12" Steel\`); some orders contain a cancelled line next to shipped ones; order status
  \`Shipping\` marks partially shipped orders.
- **Addresses:** US cities sometimes upper-case, states sometimes spelled out, ZIP+4 codes, ZIPs with leading zeros
  (keep postal codes as text); DE ship-state often empty.
- **COGS:** about 85 % of SKUs have a cost (the rest show \`cogs_present = false\`); about a quarter have two rows
  (2026-01-01 and a higher cost from 2026-09-01), so the cost changes mid-period; supplier names are optional.
`;
}

main();
