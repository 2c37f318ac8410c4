import { operationFetch } from '../../fetch-spec.ts';
import type { Source } from '../../source.ts';
import { z } from 'zod';
import type { FlatColumn } from '../../flat-file.ts';
import { jsonSource, type JsonRecord } from '../../json-records.ts';
import { RefusedFile } from '../../source.ts';

/**
 * The included data sets of a listings item, kept as the JSON the API returns. Catalog-style sets
 * (`classifications`, `dimensions`, `identifiers`, `images`, `salesRanks`) land when a payload carries them.
 */
const jsonFields = [
  'summaries',
  'attributes',
  'issues',
  'offers',
  'fulfillmentAvailability',
  'procurement',
  'relationships',
  'productTypes',
  'classifications',
  'dimensions',
  'identifiers',
  'images',
  'salesRanks',
];

const columns: FlatColumn[] = [
  { name: 'sku', type: 'text', required: 'value' },
  ...jsonFields.map((name): FlatColumn => ({ name, type: 'text' })),
];

const item = z
  .object({ sku: z.string() })
  .catchall(z.unknown())
  .superRefine((value, ctx) => {
    for (const field of jsonFields) {
      const v = value[field];
      if (v !== undefined && v !== null && typeof v !== 'object')
        ctx.addIssue({ code: 'custom', path: [field], message: 'expected an array or object' });
    }
  });
const searchResults = z.object({ items: z.array(z.unknown()) }).passthrough();

/**
 * Listings Items API 2021-08-01: a searchListingsItems page (`{numberOfResults, pagination, items}`) or a
 * getListingsItem answer (one item). Each item is one record.
 */
function records(document: unknown): JsonRecord[] {
  const page = searchResults.safeParse(document);
  const items = page.success ? page.data.items : [document];
  return items.map((entry, i) => {
    const parsed = item.safeParse(entry);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const where = page.success ? `record ${i + 1}: ` : 'not a listings item or searchListingsItems response: ';
      throw new RefusedFile(page.success ? i + 1 : null, `${where}${issue.path.join('.') || 'item'}: ${issue.message}`);
    }
    return parsed.data;
  });
}

/** Listings items: every page as delivered, one row per item with its data sets as JSON. */
export const source: Source = {
  ...jsonSource('listingsItems.searchListingsItems', 'raw.listings_items_search_listings_items', columns, records),
  fetch: operationFetch('listingsItems.searchListingsItems', 'none'),
};
