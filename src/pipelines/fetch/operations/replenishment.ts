import type { FetchRequest } from '../fetch-requests.ts';
import type { HandlerContext } from '../handler.ts';
import type { PageWriter } from './pages.ts';

const programTypes = ['SUBSCRIBE_AND_SAVE'];

/** The request's window as the Replenishment API's timeInterval (whole days, UTC). */
function timeInterval(request: FetchRequest) {
  if (request.from === null || request.to === null)
    throw new Error(`replenishment metrics need a window: ${request.id}`);
  return { startDate: `${request.from}T00:00:00Z`, endDate: `${request.to}T23:59:59Z` };
}

/** getSellingPartnerMetrics: the seller's Subscribe and Save performance by day over the window, one document. */
export async function fetchSellingPartnerMetrics(
  ctx: HandlerContext,
  pages: PageWriter,
  request: FetchRequest,
): Promise<void> {
  const body = {
    timeInterval: timeInterval(request),
    timePeriodType: 'PERFORMANCE',
    programTypes,
    marketplaceId: ctx.connection.marketplaceId,
    aggregationFrequency: 'DAY',
  };
  const { body: answer } = await ctx.sp!.request('getSellingPartnerMetrics', {
    method: 'POST',
    path: '/replenishment/2022-11-07/sellingPartners/metrics/search',
    body,
  });
  pages.write(answer, { operation: 'getSellingPartnerMetrics', body });
}

/** listOfferMetrics (by day over the window) or listOffers: every page by offset until totalResults. */
export async function fetchOfferPages(
  ctx: HandlerContext,
  pages: PageWriter,
  request: FetchRequest,
  operation: 'listOfferMetrics' | 'listOffers',
): Promise<void> {
  const limit = operation === 'listOfferMetrics' ? 500 : 100;
  const filters =
    operation === 'listOfferMetrics'
      ? {
          timeInterval: timeInterval(request),
          timePeriodType: 'PERFORMANCE',
          programTypes,
          marketplaceId: ctx.connection.marketplaceId,
          aggregationFrequency: 'DAY',
        }
      : { programTypes, marketplaceId: ctx.connection.marketplaceId };
  const path =
    operation === 'listOfferMetrics'
      ? '/replenishment/2022-11-07/offers/metrics/search'
      : '/replenishment/2022-11-07/offers/search';
  // The API pages by offset, at most 9,000 deep.
  for (let offset = 0; offset <= 9000; offset += limit) {
    const body = { pagination: { limit, offset }, filters };
    const { body: answer } = await ctx.sp!.request<{ offers?: unknown[]; pagination?: { totalResults?: number } }>(
      operation,
      { method: 'POST', path, body },
    );
    pages.write(answer, { operation, body });
    if (offset + limit >= (answer.pagination?.totalResults ?? 0)) return;
  }
}
