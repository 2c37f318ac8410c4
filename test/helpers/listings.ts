import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import iconv from 'iconv-lite';

/** The 29 documented columns of the All Listings report (upstream-formats f1). */
export const listingsHeader =
  'item-name item-description listing-id seller-sku price quantity open-date image-url item-is-marketplace product-id-type zshop-shipping-fee item-note item-condition zshop-category1 zshop-browse-path zshop-storefront-feature asin1 asin2 asin3 will-ship-internationally expedited-shipping zshop-boldface product-id bid-for-featured-placement add-delete pending-quantity fulfillment-channel merchant-shipping-group status'.split(
    ' ',
  );

/** A tab-separated file from a header and lines of named fields (missing fields empty), UTF-8 or cp1252. */
export function writeTsv(
  dir: string,
  name: string,
  header: string[],
  lines: Partial<Record<string, string>>[],
  options: { cp1252?: boolean } = {},
): string {
  const text = [header.join('\t'), ...lines.map((l) => header.map((h) => l[h] ?? '').join('\t'))].join('\n') + '\n';
  const path = join(dir, name);
  writeFileSync(path, options.cp1252 ? iconv.encode(text, 'cp1252') : text);
  return path;
}
