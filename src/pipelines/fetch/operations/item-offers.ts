import type { HandlerContext } from '../handler.ts';
import type { PageWriter } from './pages.ts';

interface BatchAnswer {
  responses?: { status?: { statusCode?: number }; body?: unknown; request?: { Asin?: string } }[];
}

/** The connection's ASINs from its landed listings (the merchant listings report and the listings items). */
async function sellerAsins(ctx: HandlerContext): Promise<string[]> {
  const queries = [
    `select distinct asin1 as asin from raw.get_merchant_listings_all_data where _connection_id = $id and asin1 is not null`,
    `select distinct json_extract_string(summaries, '$[0].asin') as asin from raw.listings_items_search_listings_items where _connection_id = $id`,
  ];
  const asins = new Set<string>();
  for (const query of queries) {
    const reader = await ctx.wh.sql.runAndReadAll(query, { id: ctx.connection.id }).catch(() => null);
    for (const [asin] of (reader?.getRowsJson() ?? []) as string[][])
      if (asin && /^[A-Z0-9]{10}$/.test(asin)) asins.add(asin);
  }
  return [...asins].sort();
}

/**
 * Competitive offers of every ASIN the seller lists, through getItemOffersBatch (20 distinct ASINs a request: a
 * repeated ASIN fails the whole batch); each entry answered 200 is kept as one getItemOffers document, the others
 * are counted and named in the error.
 */
export async function fetchItemOffers(ctx: HandlerContext, pages: PageWriter): Promise<string | null> {
  const asins = await sellerAsins(ctx);
  const failed: string[] = [];
  for (let i = 0; i < asins.length; i += 20) {
    const requests = asins.slice(i, i + 20).map((asin) => ({
      uri: `/products/pricing/v0/items/${asin}/offers`,
      method: 'GET',
      MarketplaceId: ctx.connection.marketplaceId,
      ItemCondition: 'New',
      CustomerType: 'Consumer',
    }));
    const { body } = await ctx.sp!.request<BatchAnswer>('getItemOffersBatch', {
      method: 'POST',
      path: '/batches/products/pricing/v0/itemOffers',
      body: { requests },
    });
    for (const [index, entry] of (body.responses ?? []).entries()) {
      const asin = entry.request?.Asin ?? requests[index]!.uri.split('/')[5]!;
      if (entry.status?.statusCode === 200 && entry.body)
        pages.write(entry.body, { operation: 'getItemOffersBatch', asin });
      else failed.push(asin);
    }
  }
  return failed.length > 0
    ? `${failed.length} of ${asins.length} ASINs had no offers answer: ${failed.slice(0, 5).join(', ')}`
    : null;
}
