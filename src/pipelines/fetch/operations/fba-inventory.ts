import { ConnectorError } from '../../../connectors/connector-error.ts';
import type { HandlerContext } from '../handler.ts';
import type { PageWriter } from './pages.ts';

interface InventoryPage {
  payload?: { inventorySummaries?: unknown[] };
  pagination?: { nextToken?: string };
}

/**
 * FBA Inventory getInventorySummaries for the connection's marketplace, every page: a page's nextToken lives 30
 * seconds, so pages are asked back to back, and the listing starts over once if a token expired on the way.
 */
export async function fetchFbaInventory(ctx: HandlerContext, pages: PageWriter): Promise<void> {
  const marketplaceId = ctx.connection.marketplaceId;
  for (let attempt = 1; ; attempt++) {
    try {
      let nextToken: string | undefined;
      do {
        const query: Record<string, string> = {
          details: 'true',
          granularityType: 'Marketplace',
          granularityId: marketplaceId,
          marketplaceIds: marketplaceId,
        };
        if (nextToken) query.nextToken = nextToken;
        const { body } = await ctx.sp!.request<InventoryPage>('getInventorySummaries', {
          method: 'GET',
          path: '/fba/inventory/v1/summaries',
          query,
        });
        pages.write(body, { operation: 'getInventorySummaries', query });
        nextToken = body.pagination?.nextToken;
      } while (nextToken);
      return;
    } catch (error) {
      if (
        !(error instanceof ConnectorError && error.kind === 'invalid-input' && /token/i.test(error.message)) ||
        attempt >= 2
      )
        throw error;
    }
  }
}
