import { invalidInput, SpError } from './sp-error.ts';
import { decodeToken, encodeToken } from './paging.ts';
import type { SpContext, SpRoute } from './sp-routes.ts';

/** A page size parameter within its documented bounds. */
function pageSize(value: string | undefined, fallback: number, max: number, name: string): number {
  const size = value === undefined ? fallback : Number(value);
  if (!Number.isInteger(size) || size < 1 || size > max) throw invalidInput(`${name} must be between 1 and ${max}.`);
  return size;
}

/**
 * An AWD list: `nextToken` in the query and at the top level of the answer, the same arguments repeated; the page
 * after the first is sometimes empty while more follow (docs/design/live-apis.md §3, §7).
 */
function awdPage(ctx: SpContext, key: string, records: Record<string, unknown>[], max: number, fallback: number) {
  const limit = pageSize(ctx.query.maxResults, fallback, max, 'maxResults');
  const scope = `awd/${key}/${ctx.seller.sellerId}/${limit}`;
  const token =
    ctx.query.nextToken === undefined
      ? { offset: 0, scope, issuedAt: ctx.at }
      : decodeToken(ctx.query.nextToken, scope);
  if (!token) throw invalidInput('The nextToken is invalid.');
  const { offset } = token;
  const emptyPage = offset === limit && records.length > limit && !token.empty;
  const items = emptyPage ? [] : records.slice(offset, offset + limit);
  const nextOffset = emptyPage ? offset : offset + limit;
  const more = nextOffset < records.length;
  const nextToken = more
    ? encodeToken({ offset: nextOffset, scope, issuedAt: ctx.at, ...(emptyPage ? { empty: true } : {}) })
    : undefined;
  return { status: 200, body: { [key]: items, ...(nextToken ? { nextToken } : {}) } };
}

/** An offset page of the Replenishment API: `pagination { limit, offset }` in, `pagination.totalResults` out. */
function offsetPage(ctx: SpContext, records: Record<string, unknown>[], max: number) {
  const pagination = (ctx.body as { pagination?: { limit?: number; offset?: number } } | undefined)?.pagination;
  const limit = pagination?.limit;
  const offset = pagination?.offset;
  if (
    !Number.isInteger(limit) ||
    limit! < 1 ||
    limit! > max ||
    !Number.isInteger(offset) ||
    offset! < 0 ||
    offset! > 9000
  )
    throw invalidInput(`pagination.limit (1..${max}) and pagination.offset (0..9000) are required.`);
  return {
    status: 200,
    body: { offers: records.slice(offset!, offset! + limit!), pagination: { totalResults: records.length } },
  };
}

/**
 * The replenishment filters every search must carry: a known program, the seller's marketplace, a time interval where
 * asked.
 */
function replenishmentFilters(
  ctx: SpContext,
  filters: Record<string, unknown> | undefined,
  needsInterval: boolean,
): void {
  if (!filters || filters.marketplaceId !== ctx.seller.marketplaceId)
    throw invalidInput("marketplaceId is required and must be the seller's.");
  if (!Array.isArray(filters.programTypes) || filters.programTypes.some((p) => p !== 'SUBSCRIBE_AND_SAVE'))
    throw invalidInput('programTypes must be [SUBSCRIBE_AND_SAVE].');
  const interval = filters.timeInterval as { startDate?: string; endDate?: string } | undefined;
  if (
    needsInterval &&
    (!interval ||
      Number.isNaN(Date.parse(interval.startDate ?? '')) ||
      Number.isNaN(Date.parse(interval.endDate ?? '')))
  )
    throw invalidInput('timeInterval with startDate and endDate is required.');
  if (needsInterval && !['PERFORMANCE', 'FORECAST'].includes(String(filters.timePeriodType)))
    throw invalidInput('timePeriodType must be PERFORMANCE or FORECAST.');
}

/** Fulfillment Inbound lists: `paginationToken` in, `pagination.nextToken` out. */
function inboundPage(ctx: SpContext, key: string, records: unknown[], max: number, fallback: number) {
  const size = pageSize(ctx.query.pageSize, fallback, max, 'pageSize');
  const scope = `inbound/${key}/${ctx.seller.sellerId}/${ctx.params.join('/')}/${size}`;
  const offset =
    ctx.query.paginationToken === undefined ? 0 : (decodeToken(ctx.query.paginationToken, scope)?.offset ?? -1);
  if (offset < 0) throw invalidInput('The paginationToken is invalid.');
  const next =
    offset + size < records.length ? encodeToken({ offset: offset + size, scope, issuedAt: ctx.at }) : undefined;
  return {
    status: 200,
    body: { [key]: records.slice(offset, offset + size), ...(next ? { pagination: { nextToken: next } } : {}) },
  };
}

const plans = (ctx: SpContext) => (ctx.seller.fba ? ctx.state.data.inboundPlans(ctx.seller, ctx.at) : []);
const plan = (ctx: SpContext) =>
  plans(ctx).find((p) => p.plan.inboundPlanId === ctx.params[0]) ??
  (() => {
    throw new SpError(404, 'NotFound', `Inbound plan ${ctx.params[0]} not found.`);
  })();
const summaryFields = [
  'inboundPlanId',
  'name',
  'status',
  'marketplaceIds',
  'sourceAddress',
  'createdAt',
  'lastUpdatedAt',
];

/** AWD 2024-05-09, Replenishment 2022-11-07 and Fulfillment Inbound 2024-03-20 operations. */
export function supplyRoutes(): SpRoute[] {
  const awd = (ctx: SpContext) => (ctx.seller.awd ? ctx.state.data : null);
  const replenishment = '/replenishment/2022-11-07';
  const inbound = '/inbound/fba/2024-03-20/inboundPlans';
  return [
    {
      method: 'GET',
      pattern: /^\/awd\/2024-05-09\/inventory$/,
      operation: 'listInventory',
      handler: (ctx) =>
        awdPage(
          ctx,
          'inventory',
          (awd(ctx)?.awdInventory(ctx.seller, ctx.at) ?? []).map((r) =>
            ctx.query.details === 'SHOW' ? r : { ...r, inventoryDetails: undefined },
          ),
          200,
          25,
        ),
    },
    {
      method: 'GET',
      pattern: /^\/awd\/2024-05-09\/inboundShipments$/,
      operation: 'listInboundShipments',
      handler: (ctx) =>
        awdPage(
          ctx,
          'shipments',
          (awd(ctx)?.awdInboundShipments(ctx.seller, ctx.at) ?? []).map((s) => ({
            orderId: s.orderId,
            shipmentId: s.shipmentId,
            shipmentStatus: s.shipmentStatus,
            createdAt: s.createdAt,
            updatedAt: s.updatedAt,
            externalReferenceId: s.externalReferenceId,
          })),
          200,
          25,
        ),
    },
    {
      method: 'GET',
      pattern: /^\/awd\/2024-05-09\/inboundShipments\/([^/]+)$/,
      operation: 'getInboundShipment',
      handler: (ctx) => {
        const shipment = awd(ctx)
          ?.awdInboundShipments(ctx.seller, ctx.at)
          .find((s) => s.shipmentId === ctx.params[0]);
        if (!shipment) throw new SpError(404, 'NotFound', `Shipment ${ctx.params[0]} not found.`);
        return {
          status: 200,
          body: ctx.query.skuQuantities === 'SHOW' ? shipment : { ...shipment, shipmentSkuQuantities: undefined },
        };
      },
    },
    {
      method: 'GET',
      pattern: /^\/awd\/2024-05-09\/outboundOrders$/,
      operation: 'listOutbounds',
      handler: (ctx) => awdPage(ctx, 'outboundOrders', awd(ctx)?.awdOutboundOrders(ctx.seller, ctx.at) ?? [], 100, 25),
    },
    {
      method: 'GET',
      pattern: /^\/awd\/2024-05-09\/replenishmentOrders$/,
      operation: 'listReplenishmentOrders',
      handler: (ctx) => awdPage(ctx, 'orders', awd(ctx)?.awdReplenishmentOrders(ctx.seller, ctx.at) ?? [], 100, 25),
    },
    {
      method: 'POST',
      pattern: new RegExp(`^${replenishment}/sellingPartners/metrics/search$`),
      operation: 'getSellingPartnerMetrics',
      handler: (ctx) => {
        const body = ctx.body as Record<string, unknown> | undefined;
        replenishmentFilters(ctx, body, true);
        return { status: 200, body: { metrics: ctx.state.data.replenishmentMetrics(ctx.seller, body!, ctx.at) } };
      },
    },
    {
      method: 'POST',
      pattern: new RegExp(`^${replenishment}/offers/metrics/search$`),
      operation: 'listOfferMetrics',
      handler: (ctx) => {
        const body = ctx.body as { filters?: Record<string, unknown> } | undefined;
        replenishmentFilters(ctx, body?.filters, true);
        return offsetPage(
          ctx,
          ctx.state.data.replenishmentOfferMetrics(ctx.seller, body as Record<string, unknown>, ctx.at),
          500,
        );
      },
    },
    {
      method: 'POST',
      pattern: new RegExp(`^${replenishment}/offers/search$`),
      operation: 'listOffers',
      handler: (ctx) => {
        const body = ctx.body as { filters?: Record<string, unknown> } | undefined;
        replenishmentFilters(ctx, body?.filters, false);
        return offsetPage(
          ctx,
          ctx.state.data.replenishmentOffers(ctx.seller, body as Record<string, unknown>, ctx.at),
          100,
        );
      },
    },
    {
      method: 'GET',
      pattern: new RegExp(`^${inbound}$`),
      operation: 'listInboundPlans',
      handler: (ctx) =>
        inboundPage(
          ctx,
          'inboundPlans',
          plans(ctx).map((p) => Object.fromEntries(summaryFields.map((f) => [f, p.plan[f]]))),
          30,
          10,
        ),
    },
    {
      method: 'GET',
      pattern: new RegExp(`^${inbound}/([^/]+)$`),
      operation: 'getInboundPlan',
      handler: (ctx) => ({ status: 200, body: plan(ctx).plan }),
    },
    {
      method: 'GET',
      pattern: new RegExp(`^${inbound}/([^/]+)/shipments/([^/]+)$`),
      operation: 'getShipment',
      handler: (ctx) => {
        const found = plan(ctx).shipments.find((s) => s.shipment.shipmentId === ctx.params[1]);
        if (!found) throw new SpError(404, 'NotFound', `Shipment ${ctx.params[1]} not found.`);
        return { status: 200, body: found.shipment };
      },
    },
    {
      method: 'GET',
      pattern: new RegExp(`^${inbound}/([^/]+)/shipments/([^/]+)/items$`),
      operation: 'listShipmentItems',
      handler: (ctx) =>
        inboundPage(
          ctx,
          'items',
          plan(ctx).shipments.find((s) => s.shipment.shipmentId === ctx.params[1])?.items ?? [],
          1000,
          10,
        ),
    },
  ];
}
