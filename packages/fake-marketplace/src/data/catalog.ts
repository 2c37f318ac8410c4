import { Rng } from './random.ts';

/** Which fulfillment channel a product is restricted to, if any. */
export type Only = 'Amazon' | 'Merchant' | undefined;

/** A product of the fake sellers' catalog (one brand, Acme Outdoor, sold in the US and in Germany). */
export interface Product {
  sku: string;
  /** US product name (undefined: not listed on the US marketplace). */
  us?: string;
  /** German product name (undefined: not listed on the DE marketplace). */
  de?: string;
  /** Unit price in US cents. */
  usd?: number;
  /** Unit price in euro cents, VAT included. */
  eur?: number;
  /** Relative popularity. */
  pop: number;
  only?: Only;
}

export const PRODUCTS: readonly Product[] = [
  {
    sku: 'ACM-TENT-2P-GRN',
    us: 'Acme Ridgeline 2-Person Backpacking Tent, Green',
    de: 'Acme Ridgeline 2-Personen Trekkingzelt, Grün',
    usd: 18999,
    eur: 19999,
    pop: 6,
  },
  {
    sku: 'ACM-TENT-2P-ORG',
    us: 'Acme Ridgeline 2-Person Backpacking Tent, Orange',
    de: 'Acme Ridgeline 2-Personen Trekkingzelt, Orange',
    usd: 18999,
    eur: 19999,
    pop: 3,
  },
  {
    sku: 'ACM-TENT-4P-GRN',
    us: 'Acme Basecamp 4-Person Dome Tent',
    de: 'Acme Basecamp 4-Personen Kuppelzelt',
    usd: 27900,
    eur: 28900,
    pop: 3,
  },
  {
    sku: 'ACM-BAG-0F-REG',
    us: 'Acme Summit 0°F Sleeping Bag, Regular',
    de: 'Acme Summit Schlafsack -18 °C, Regular',
    usd: 14995,
    eur: 15995,
    pop: 4,
  },
  {
    sku: 'ACM-BAG-0F-LNG',
    us: 'Acme Summit 0°F Sleeping Bag, Long',
    de: 'Acme Summit Schlafsack -18 °C, Long',
    usd: 16495,
    eur: 17495,
    pop: 2,
  },
  {
    sku: 'ACM-BAG-KIDS-BLU',
    us: 'Acme Kids Sleeping Bag "Starry Night", Blue',
    de: 'Kinderschlafsack „Sternenhimmel“, Blau',
    usd: 5999,
    eur: 5499,
    pop: 4,
  },
  {
    sku: 'ACM-PAD-SELF-R',
    us: 'Acme Self-Inflating Sleeping Pad',
    de: 'Acme selbstaufblasende Isomatte',
    usd: 6999,
    eur: 6499,
    pop: 5,
  },
  {
    sku: 'ACM-PAD-FOAM',
    us: 'Acme Closed-Cell Foam Pad',
    de: 'Acme Schaumstoff-Isomatte',
    usd: 3499,
    eur: 2999,
    pop: 3,
  },
  {
    sku: 'ACM-PACK-40L-GRY',
    us: 'Acme Trailhead 40L Hiking Backpack, Gray',
    de: 'Acme Trailhead 40 L Wanderrucksack, Grau',
    usd: 11900,
    eur: 12490,
    pop: 6,
  },
  {
    sku: 'ACM-PACK-65L-GRY',
    us: 'Acme Trailhead 65L Hiking Backpack, Gray',
    de: 'Acme Trailhead 65 L Trekkingrucksack, Grau',
    usd: 19900,
    eur: 20900,
    pop: 3,
  },
  {
    sku: 'ACM-PACK-KIDS-GRN',
    us: 'Acme Kids Hiking Backpack – Green',
    de: 'Wanderrucksack für Kinder – Grün',
    usd: 3999,
    eur: 3495,
    pop: 6,
  },
  {
    sku: 'ACM-PACK-DAY-BLK',
    us: 'Acme 22L Daypack, Black',
    de: 'Acme Tagesrucksack 22 L, Schwarz',
    usd: 4999,
    eur: 4995,
    pop: 7,
  },
  {
    sku: 'ACM-MUG-12-BLK',
    us: 'Trail Mug 12" Steel, Black',
    de: 'Trail Mug 12" Edelstahl, Schwarz',
    usd: 1999,
    eur: 1799,
    pop: 8,
    only: 'Merchant',
  },
  {
    sku: 'ACM-MUG-12-BLK-FBA',
    us: 'Trail Mug 12" Steel, Black',
    de: 'Trail Mug 12" Edelstahl, Schwarz',
    usd: 1999,
    eur: 1799,
    pop: 9,
    only: 'Amazon',
  },
  {
    sku: 'ACM-MUG-16-RED',
    us: 'Acme Insulated Trail Mug 16 oz, Red',
    de: 'Acme Thermobecher 0,5 l, Rot',
    usd: 2499,
    eur: 2299,
    pop: 6,
  },
  {
    sku: 'ACM-BOTTLE-1L-WHT',
    us: 'Acme Insulated Water Bottle 1L, White',
    de: 'Acme Isolierflasche 1 l, Weiß',
    usd: 2999,
    eur: 2799,
    pop: 8,
  },
  {
    sku: 'ACM-BOTTLE-2PK',
    us: 'Acme Water Bottle 2-Pack',
    de: 'Trinkflaschen Spar-Set (2 Stück) – unter 30 €',
    usd: 4499,
    eur: 2990,
    pop: 5,
  },
  {
    sku: 'ACM-STOVE-CAN',
    us: 'Acme Canister Camp Stove',
    de: 'Acme Gaskocher für Schraubkartuschen',
    usd: 5499,
    eur: 4999,
    pop: 4,
  },
  {
    sku: 'ACM-STOVE-2B',
    us: 'Acme Two-Burner Propane Stove',
    de: 'Acme Zweiflammiger Campingkocher',
    usd: 12999,
    eur: 11900,
    pop: 2,
  },
  {
    sku: 'ACM-POT-SET-3',
    us: 'Acme Nesting Cook Set, 3 pcs',
    de: 'Acme Kochgeschirr-Set, 3-teilig',
    usd: 3999,
    eur: 3699,
    pop: 4,
  },
  {
    sku: 'ACM-LAMP-HEAD-300',
    us: 'Acme 300 Lumen Headlamp',
    de: 'Acme Stirnlampe 300 Lumen',
    usd: 2499,
    eur: 2299,
    pop: 8,
  },
  { sku: 'ACM-LAMP-LANT', us: 'Acme LED Camping Lantern', de: 'Acme LED-Campinglaterne', usd: 3299, eur: 2999, pop: 5 },
  {
    sku: 'ACM-CHAIR-FOLD',
    us: 'Acme Folding Camp Chair',
    de: 'Acme faltbarer Campingstuhl',
    usd: 5999,
    eur: 5499,
    pop: 5,
  },
  {
    sku: 'ACM-TABLE-ALU',
    us: 'Acme Aluminum Roll-Up Table',
    de: 'Acme Aluminium-Rolltisch',
    usd: 8999,
    eur: 8499,
    pop: 2,
  },
  {
    sku: 'ACM-HAMMOCK-DBL',
    us: 'Acme Double Hammock w/ Straps',
    de: 'Acme Doppel-Hängematte mit Gurten',
    usd: 4499,
    eur: 3999,
    pop: 4,
  },
  {
    sku: 'ACM-POLE-CARB-PR',
    us: 'Acme Carbon Trekking Poles (Pair)',
    de: 'Acme Carbon-Trekkingstöcke (Paar)',
    usd: 7999,
    eur: 7495,
    pop: 4,
  },
  {
    sku: 'ACM-JACKET-RAIN-M',
    us: "Acme Stormline Rain Jacket, Men's M",
    de: 'Acme Stormline Regenjacke Herren, M',
    usd: 12900,
    eur: 11900,
    pop: 3,
  },
  {
    sku: 'ACM-JACKET-RAIN-W',
    us: "Acme Stormline Rain Jacket, Women's S",
    de: 'Acme Stormline Regenjacke Damen, S',
    usd: 12900,
    eur: 11900,
    pop: 3,
  },
  {
    sku: 'ACM-SOCK-MER-3PK',
    us: 'Acme Merino Hiking Socks, 3-Pack',
    de: 'Acme Merino-Wandersocken, 3er-Pack',
    usd: 2799,
    eur: 2499,
    pop: 7,
  },
  { sku: 'ACM-GLOVE-FLC', us: 'Acme Fleece Gloves', de: 'Acme Fleece-Handschuhe', usd: 1999, eur: 1799, pop: 3 },
  {
    sku: 'ACM-FILTER-SQZ',
    us: 'Acme Squeeze Water Filter',
    de: 'Acme Wasserfilter zum Quetschen',
    usd: 3699,
    eur: 3499,
    pop: 5,
  },
  {
    sku: 'ACM-FIRST-AID',
    us: 'Acme Trail First Aid Kit, 120 pcs',
    de: 'Acme Erste-Hilfe-Set Outdoor, 120-teilig',
    usd: 2999,
    eur: 2699,
    pop: 5,
  },
  { sku: 'ACM-KNIFE-FOLD', us: 'Acme Folding Pocket Knife', de: 'Acme Klappmesser', usd: 3499, eur: 3299, pop: 3 },
  { sku: 'ACM-COMPASS', us: 'Acme Baseplate Compass', de: 'Acme Kartenkompass', usd: 1699, eur: 1599, pop: 3 },
  {
    sku: 'ACM-TARP-3X3',
    us: "Acme Ultralight Tarp 10'x10'",
    de: 'Acme Ultraleicht-Tarp 3 × 3 m',
    usd: 6999,
    eur: 6499,
    pop: 2,
  },
  {
    sku: 'ACM-STAKE-ALU-10',
    us: 'Acme Aluminum Tent Stakes, 10-Pack',
    de: 'Acme Alu-Heringe, 10 Stück',
    usd: 1499,
    eur: 1299,
    pop: 5,
  },
  {
    sku: 'ACM-TOWEL-MF-L',
    us: 'Acme Microfiber Trek Towel, L',
    de: 'Acme Mikrofaser-Reisehandtuch, L',
    usd: 2199,
    eur: 1999,
    pop: 4,
  },
  { sku: 'ACM-GAITER-PR', us: 'Acme Trail Gaiters (Pair)', de: 'Acme Gamaschen (Paar)', usd: 3299, eur: 2999, pop: 2 },
  { sku: 'ACM-COOLER-25Q', us: 'Acme 25 Qt Hard Cooler', usd: 14999, pop: 2 },
  { sku: 'ACM-BEAR-CAN', us: 'Acme Bear-Resistant Food Canister', usd: 7995, pop: 2 },
  { sku: 'ACM-SEAT-PAD-DE', de: 'Acme faltbares Sitzkissen', eur: 1499, pop: 3 },
  { sku: 'ACM-WINDSCREEN-DE', de: 'Acme Windschutz für Gaskocher', eur: 1999, pop: 2 },
];

/** Deterministic ASINs: 'B0' + 8 characters; the two mug SKUs share one ASIN (one merchant-fulfilled, one FBA). */
function assignAsins(): Map<string, string> {
  const rng = new Rng(0xa51a);
  const alphabet = '0123456789ABCDEFGHJKLMNPQRSTUVWXYZ'.split('');
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
      for (let i = 0; i < 8; i++) asin += rng.pick(alphabet);
    } while (used.has(asin));
    used.add(asin);
    asins.set(p.sku, asin);
  }
  return asins;
}

/** ASIN by SKU. */
export const ASINS: ReadonlyMap<string, string> = assignAsins();

/** Variation families: their children share a parent ASIN; other products are their own parent. */
export const FAMILIES: readonly (readonly string[])[] = [
  ['ACM-TENT-2P-GRN', 'ACM-TENT-2P-ORG'],
  ['ACM-BAG-0F-REG', 'ACM-BAG-0F-LNG'],
  ['ACM-PACK-40L-GRY', 'ACM-PACK-65L-GRY'],
  ['ACM-JACKET-RAIN-M', 'ACM-JACKET-RAIN-W'],
];

/** Parent ASIN by child ASIN, for the variation families only. */
export const PARENT_ASINS: ReadonlyMap<string, string> = (() => {
  const rng = new Rng(0xfa4e47);
  const parents = new Map<string, string>();
  for (const family of FAMILIES) {
    const parent = `B0${rng.id(8)}`;
    for (const sku of family) parents.set(ASINS.get(sku)!, parent);
  }
  return parents;
})();

const BY_SKU = new Map(PRODUCTS.map((p) => [p.sku, p]));

/** The product of a SKU. */
export function product(sku: string): Product {
  const p = BY_SKU.get(sku);
  if (!p) throw new Error(`unknown SKU ${sku}`);
  return p;
}

/** Products listed on the US (`usd`) or German (`eur`) marketplace. */
export const listedIn = (currency: 'USD' | 'EUR'): Product[] =>
  PRODUCTS.filter((p) => (currency === 'USD' ? p.us !== undefined : p.de !== undefined));

/** Unit price in cents in that currency. */
export const unitCents = (p: Product, currency: 'USD' | 'EUR'): number => (currency === 'USD' ? p.usd : p.eur)!;

/** Product name on that marketplace. */
export const productName = (p: Product, currency: 'USD' | 'EUR'): string => (currency === 'USD' ? p.us : p.de)!;

const OVERSIZE = new Set([
  'ACM-TENT-4P-GRN',
  'ACM-COOLER-25Q',
  'ACM-TABLE-ALU',
  'ACM-STOVE-2B',
  'ACM-CHAIR-FOLD',
  'ACM-PACK-65L-GRY',
]);

/** Whether the product ships as oversize (FBA fees, storage). */
export const isOversize = (p: Product): boolean => OVERSIZE.has(p.sku);

/** FBA per-unit fulfillment fee in cents, by price band and a few oversize SKUs. */
export function fbaFeeCents(p: Product, currency: 'USD' | 'EUR'): number {
  const isUs = currency === 'USD';
  const price = unitCents(p, currency);
  if (OVERSIZE.has(p.sku)) return isUs ? (price > 15000 ? 1295 : 968) : price > 15000 ? 990 : 780;
  if (price < 2000) return isUs ? 322 : 270;
  if (price < 4000) return isUs ? 389 : 325;
  if (price < 8000) return isUs ? 476 : 410;
  return isUs ? 587 : 520;
}

/** FNSKU of a SKU (X00 + 7 characters, fixed per SKU). */
export const fnskuOf = (sku: string): string => `X00${new Rng(['fnsku', sku]).id(7)}`;
