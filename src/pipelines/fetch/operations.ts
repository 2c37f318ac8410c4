import type { FetchRequest } from './fetch-requests.ts';
import { landAll, type HandlerContext, type Outcome } from './handler.ts';
import { fetchAwdInboundShipments, fetchAwdList } from './operations/awd.ts';
import { fetchFbaInventory } from './operations/fba-inventory.ts';
import { fetchInboundPlans } from './operations/inbound.ts';
import { fetchItemOffers } from './operations/item-offers.ts';
import { fetchListingsItems } from './operations/listings-items.ts';
import { pageWriter, type PageWriter } from './operations/pages.ts';
import { fetchOfferPages, fetchSellingPartnerMetrics } from './operations/replenishment.ts';

type Fetcher = (ctx: HandlerContext, pages: PageWriter, request: FetchRequest) => Promise<string | null | void>;

/** The SP-API operations behind each operation source (docs/design/live-apis.md §3), by source name. */
const fetchers: Record<string, Fetcher> = {
  'fbaInventory.getInventorySummaries': (ctx, pages) => fetchFbaInventory(ctx, pages),
  'listingsItems.searchListingsItems': (ctx, pages) => fetchListingsItems(ctx, pages),
  'productPricing.getItemOffers': (ctx, pages) => fetchItemOffers(ctx, pages),
  'awd.listInventory': (ctx, pages) => fetchAwdList(ctx, pages, 'listInventory'),
  'awd.listOutbounds': (ctx, pages) => fetchAwdList(ctx, pages, 'listOutbounds'),
  'awd.listReplenishmentOrders': (ctx, pages) => fetchAwdList(ctx, pages, 'listReplenishmentOrders'),
  'awd.getInboundShipment': (ctx, pages) => fetchAwdInboundShipments(ctx, pages),
  'replenishment.getSellingPartnerMetrics': fetchSellingPartnerMetrics,
  'replenishment.listOfferMetrics': (ctx, pages, request) => fetchOfferPages(ctx, pages, request, 'listOfferMetrics'),
  'replenishment.listOffers': (ctx, pages, request) => fetchOfferPages(ctx, pages, request, 'listOffers'),
  'fulfillmentInbound.shipments': (ctx, pages) => fetchInboundPlans(ctx, pages),
};

/** Sources that read what other sources of the same connection land first (offers are asked for listed ASINs). */
export const runsLast = new Set(['productPricing.getItemOffers']);

/** An operation source: its answers paged through, each kept as one document, and landed together at the end. */
export async function fetchOperation(ctx: HandlerContext, request: FetchRequest): Promise<Outcome> {
  const fetcher = fetchers[request.source];
  if (!fetcher) throw new Error(`no upstream operation for ${request.source}`);
  await ctx.update({
    status: 'requested',
    attempts: request.attempts + 1,
    requestedAt: new Date(ctx.clock.now()).toISOString(),
  });
  const pages = pageWriter(ctx, request);
  const note = await fetcher(ctx, pages, request);
  if (pages.files.length === 0) return { status: 'empty', reason: note || 'the operation answered nothing' };
  return landAll(ctx, pages.files);
}
