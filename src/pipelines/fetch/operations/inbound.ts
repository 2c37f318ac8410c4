import type { HandlerContext } from '../handler.ts';
import type { PageWriter } from './pages.ts';

const base = '/inbound/fba/2024-03-20/inboundPlans';

interface Paged {
  pagination?: { nextToken?: string };
}

/** Every page of a Fulfillment Inbound list: `paginationToken` in the request, `pagination.nextToken` in the answer. */
async function allPages<T extends Paged>(
  ctx: HandlerContext,
  operation: string,
  path: string,
  query: Record<string, string>,
): Promise<T[]> {
  const pages: T[] = [];
  let token: string | undefined;
  do {
    const { body } = await ctx.sp!.request<T>(operation, {
      method: 'GET',
      path,
      query: token ? { ...query, paginationToken: token } : query,
    });
    pages.push(body);
    token = body.pagination?.nextToken;
  } while (token);
  return pages;
}

/**
 * FBA inbound plans with their shipments and shipment items: one document per plan, the project's bundle
 * (`{inboundPlan, shipments: [{shipment, items}]}`, src/ingest/sources/fulfillmentInbound.shipments/payloads.ts).
 */
export async function fetchInboundPlans(ctx: HandlerContext, pages: PageWriter): Promise<void> {
  const lists = await allPages<Paged & { inboundPlans?: { inboundPlanId: string }[] }>(ctx, 'listInboundPlans', base, {
    pageSize: '30',
    sortBy: 'LAST_UPDATED_TIME',
    sortOrder: 'DESC',
  });
  for (const summary of lists.flatMap((l) => l.inboundPlans ?? [])) {
    const planPath = `${base}/${encodeURIComponent(summary.inboundPlanId)}`;
    const { body: inboundPlan } = await ctx.sp!.request<{ shipments?: { shipmentId: string }[] }>('getInboundPlan', {
      method: 'GET',
      path: planPath,
    });
    const shipments = [];
    for (const { shipmentId } of inboundPlan.shipments ?? []) {
      const shipmentPath = `${planPath}/shipments/${encodeURIComponent(shipmentId)}`;
      const { body: shipment } = await ctx.sp!.request('getShipment', { method: 'GET', path: shipmentPath });
      const items = await allPages(ctx, 'listShipmentItems', `${shipmentPath}/items`, { pageSize: '1000' });
      shipments.push({ shipment, items });
    }
    pages.write({ inboundPlan, shipments }, { operation: 'getInboundPlan', inboundPlanId: summary.inboundPlanId });
  }
}
