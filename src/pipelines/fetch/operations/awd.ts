import type { HandlerContext } from '../handler.ts';
import type { PageWriter } from './pages.ts';

interface AwdPage {
  nextToken?: string;
  shipments?: { shipmentId: string }[];
}

/**
 * Every page of an AWD list operation: the same arguments again with the answer's top-level nextToken (pages may be
 * empty).
 */
async function eachPage(
  ctx: HandlerContext,
  operation: string,
  path: string,
  query: Record<string, string>,
  onPage: (page: AwdPage) => Promise<void>,
): Promise<void> {
  let nextToken: string | undefined;
  do {
    const { body } = await ctx.sp!.request<AwdPage>(operation, {
      method: 'GET',
      path,
      query: nextToken ? { ...query, nextToken } : query,
    });
    await onPage(body);
    nextToken = body.nextToken;
  } while (nextToken);
}

/** AWD listInventory, listOutbounds or listReplenishmentOrders: every page as one document. */
export async function fetchAwdList(
  ctx: HandlerContext,
  pages: PageWriter,
  operation: 'listInventory' | 'listOutbounds' | 'listReplenishmentOrders',
): Promise<void> {
  const paths = {
    listInventory: ['/awd/2024-05-09/inventory', { details: 'SHOW', maxResults: '200' }],
    listOutbounds: ['/awd/2024-05-09/outboundOrders', { maxResults: '100' }],
    listReplenishmentOrders: ['/awd/2024-05-09/replenishmentOrders', { maxResults: '100' }],
  } as const;
  const [path, query] = paths[operation];
  await eachPage(ctx, operation, path, { ...query }, async (page) => {
    pages.write(page, { operation, query });
  });
}

/** AWD inbound shipments: listed, then each read whole with its SKU quantities (one document per shipment). */
export async function fetchAwdInboundShipments(ctx: HandlerContext, pages: PageWriter): Promise<void> {
  const ids: string[] = [];
  await eachPage(
    ctx,
    'listInboundShipments',
    '/awd/2024-05-09/inboundShipments',
    { maxResults: '200', sortBy: 'UPDATED_AT' },
    async (page) => {
      ids.push(...(page.shipments ?? []).map((s) => s.shipmentId));
    },
  );
  for (const shipmentId of ids) {
    const { body } = await ctx.sp!.request('getInboundShipment', {
      method: 'GET',
      path: `/awd/2024-05-09/inboundShipments/${encodeURIComponent(shipmentId)}`,
      query: { skuQuantities: 'SHOW' },
    });
    pages.write(body, { operation: 'getInboundShipment', shipmentId });
  }
}
