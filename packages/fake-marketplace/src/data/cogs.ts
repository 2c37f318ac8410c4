import { ASINS, listedIn, unitCents } from './catalog.ts';
import { Rng } from './random.ts';
import { addDays, type FakeSeller } from './sellers.ts';

const SUPPLIERS = {
  US: ['Pacific Gear Manufacturing', 'Shenzhen Trailworks Co. Ltd.', 'Cascade Textiles Inc.', ''],
  DE: ['Müller Outdoor GmbH', 'Ningbo Camping Products Co. Ltd.', 'Alpentex Vertriebs GmbH', ''],
};

/** Up to four decimals, no trailing zeros beyond two. */
const cost = (v: number) => v.toFixed(4).replace(/0{1,2}$/, '');

/**
 * The seller's unit costs as the CSV `mktdata cogs import` takes (CogsUpsertRequest rows): about 85 % of its SKUs
 * (the two mug SKUs of one ASIN always), a quarter with a price rise four months after opening.
 */
export function cogsCsv(seller: FakeSeller): string {
  const rng = new Rng([seller.seed, 'cogs']);
  const products = listedIn(seller.currency);
  const shuffled = products
    .map((p) => ({ p, k: rng.float() }))
    .sort((a, b) => a.k - b.k)
    .map((x) => x.p);
  const isMug = (sku: string) => sku.startsWith('ACM-MUG-12-BLK');
  const noCost = new Set(shuffled.filter((p) => !isMug(p.sku)).slice(0, Math.round(products.length * 0.15)));
  const twoRows = new Set(shuffled.filter((p) => !noCost.has(p)).slice(-Math.round(products.length * 0.25)));
  const rows = ['asin,sku,costCurrency,fromDate,costItemValue,costItemShippingValue,itemSupplierName'];
  const first = addDays(seller.openedOn, -30);
  for (const p of products) {
    if (noCost.has(p)) continue;
    const unit = unitCents(p, seller.currency) / 100;
    const item = Math.round(unit * (0.3 + rng.float() * 0.15) * 10000) / 10000;
    const shipping = Math.round((0.4 + rng.float() * 2.2) * 10000) / 10000;
    const supplier = rng.pick(SUPPLIERS[seller.countryCode]);
    const row = (from: string, value: number) =>
      [ASINS.get(p.sku)!, p.sku, seller.currency, from, cost(value), cost(shipping), supplier].join(',');
    rows.push(row(first, item));
    if (twoRows.has(p))
      rows.push(row(addDays(seller.openedOn, 120), Math.round(item * (1.04 + rng.float() * 0.08) * 10000) / 10000));
  }
  return `${rows.join('\n')}\n`;
}
