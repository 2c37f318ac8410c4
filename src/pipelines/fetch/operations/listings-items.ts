import type { HandlerContext } from '../handler.ts';
import { csv, type PageWriter } from './pages.ts';

interface ListingsPage {
  numberOfResults?: number;
  items?: unknown[];
  pagination?: { nextToken?: string };
}

const includedData = [
  'summaries',
  'attributes',
  'issues',
  'offers',
  'fulfillmentAvailability',
  'procurement',
  'relationships',
  'productTypes',
];

/**
 * Listings Items searchListingsItems for the seller in its marketplace, 20 items a page. Only the first 1,000 items
 * of a search can be paged through: past that, the merchant listings report (fetched beside it) still has every SKU.
 */
export async function fetchListingsItems(ctx: HandlerContext, pages: PageWriter): Promise<void> {
  const sellerId = ctx.connection.sellingPartnerId;
  if (!sellerId)
    throw new Error(
      'the connection has no selling partner id: store it with `mktdata connections credentials --selling-partner-id`',
    );
  let pageToken: string | undefined;
  do {
    const query: Record<string, string> = {
      marketplaceIds: ctx.connection.marketplaceId,
      includedData: csv(includedData),
      pageSize: '20',
    };
    if (pageToken) query.pageToken = pageToken;
    const { body } = await ctx.sp!.request<ListingsPage>('searchListingsItems', {
      method: 'GET',
      path: `/listings/2021-08-01/items/${encodeURIComponent(sellerId)}`,
      query,
    });
    pages.write(body, { operation: 'searchListingsItems', query });
    pageToken = body.pagination?.nextToken;
  } while (pageToken);
}
