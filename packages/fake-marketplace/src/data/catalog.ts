import { PRODUCTS, type Product } from './products.ts';
import { Rng } from './random.ts';

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
