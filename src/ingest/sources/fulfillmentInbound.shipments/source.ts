import { operationFetch } from '../../fetch-spec.ts';
import type { Source } from '../../source.ts';
import type { z } from 'zod';
import { jsonSource, type JsonRecord } from '../../json-records.ts';
import { RefusedFile } from '../../source.ts';
import { columns } from './format.ts';
import {
  planBundleSchema,
  planListSchema,
  planSchema,
  type Item,
  type Plan,
  type PlanBundle,
  type Shipment,
} from './payloads.ts';

/** Fields of an upstream object that have no raw column of their own, kept in `_extra` under `<prefix>.<field>`. */
function extras(prefix: string, value: Record<string, unknown>, mapped: string[]): JsonRecord {
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !mapped.includes(key))
      .map(([key, v]) => [`${prefix}.${key}`, v]),
  );
}

const json = (value: unknown) => (value === undefined || value === null ? null : JSON.stringify(value));

/** `2024-01-01T00:00Z` (the API's minute-precision form) gets its seconds, so DuckDB reads it. */
const timestamp = (value: string | undefined) =>
  value?.replace(/^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2})(Z|[+-]\d{2}:?\d{2})$/, '$1:00$2');

function planRecord(plan: Plan): JsonRecord {
  return {
    record_type: 'plan',
    inbound_plan_id: plan.inboundPlanId,
    plan_name: plan.name,
    plan_status: plan.status,
    plan_created_at: timestamp(plan.createdAt),
    plan_last_updated_at: timestamp(plan.lastUpdatedAt),
    plan_marketplace_ids: json(plan.marketplaceIds),
    ...extras('plan', plan, [
      'inboundPlanId',
      'name',
      'status',
      'createdAt',
      'lastUpdatedAt',
      'marketplaceIds',
      'sourceAddress',
    ]),
    source_address: json(plan.sourceAddress),
  };
}

const shipmentFields = [
  'shipmentId',
  'inboundPlanId',
  'name',
  'status',
  'shipmentConfirmationId',
  'amazonReferenceId',
  'placementOptionId',
];

/** The shipment's ship-from address is the plan's source address unless the shipment names its own. */
function shipmentRecord(shipment: Shipment, plan: Plan, status: string): JsonRecord {
  return {
    record_type: 'shipment',
    inbound_plan_id: plan.inboundPlanId,
    shipment_id: shipment.shipmentId,
    shipment_name: shipment.name,
    shipment_status: status,
    shipment_confirmation_id: shipment.shipmentConfirmationId,
    amazon_reference_id: shipment.amazonReferenceId,
    placement_option_id: shipment.placementOptionId,
    destination_type: shipment.destination?.destinationType,
    destination_warehouse_id: shipment.destination?.warehouseId,
    destination_address: json(shipment.destination?.address),
    source_type: shipment.source?.sourceType,
    source_address: json(shipment.source?.address ?? plan.sourceAddress),
    ready_to_ship_window_start: timestamp(shipment.dates?.readyToShipWindow?.start),
    ready_to_ship_window_end: timestamp(shipment.dates?.readyToShipWindow?.end),
    selected_delivery_window_start: timestamp(shipment.selectedDeliveryWindow?.startDate),
    selected_delivery_window_end: timestamp(shipment.selectedDeliveryWindow?.endDate),
    ...extras('shipment', shipment, shipmentFields),
  };
}

function itemRecord(item: Item, shipment: Shipment, plan: Plan): JsonRecord {
  return {
    record_type: 'item',
    inbound_plan_id: plan.inboundPlanId,
    shipment_id: shipment.shipmentId,
    msku: item.msku,
    fnsku: item.fnsku,
    asin: item.asin,
    quantity: item.quantity,
    expiration: item.expiration,
    label_owner: item.labelOwner,
    manufacturing_lot_code: item.manufacturingLotCode,
    // A missing list means no prep instructions.
    prep_instructions: json(item.prepInstructions ?? []),
    ...extras('item', item, [
      'msku',
      'fnsku',
      'asin',
      'quantity',
      'expiration',
      'labelOwner',
      'manufacturingLotCode',
      'prepInstructions',
    ]),
  };
}

/** A plan with its shipments and their items: one plan record, then per shipment its record and its item records. */
function bundleRecords({ inboundPlan: plan, shipments }: PlanBundle, where: string): JsonRecord[] {
  const records = [planRecord(plan)];
  shipments.forEach(({ shipment, items }, i) => {
    const at = `${where}shipments[${i}].shipment`;
    if (shipment.inboundPlanId && shipment.inboundPlanId !== plan.inboundPlanId) {
      throw new RefusedFile(
        null,
        `${at}: inboundPlanId ${shipment.inboundPlanId} is not the bundle's plan ${plan.inboundPlanId}`,
      );
    }
    const status = shipment.status ?? plan.shipments?.find((s) => s.shipmentId === shipment.shipmentId)?.status;
    if (!status)
      throw new RefusedFile(
        null,
        `${at}: shipment ${shipment.shipmentId} has no status, neither in getShipment nor in the plan's shipments`,
      );
    records.push(shipmentRecord(shipment, plan, status));
    for (const page of items ?? []) records.push(...page.items.map((item) => itemRecord(item, shipment, plan)));
  });
  return records;
}

function parse<T>(schema: z.ZodType<T>, document: unknown, what: string, where: string): T {
  const parsed = schema.safeParse(document);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new RefusedFile(null, `not a valid ${what}: ${where}${issue.path.join('.') || 'document'}: ${issue.message}`);
}

/** The records of one document: a listInboundPlans or getInboundPlan response, or a plan bundle. */
function documentRecords(document: unknown, where: string): JsonRecord[] {
  const keys =
    document !== null && typeof document === 'object' && !Array.isArray(document) ? Object.keys(document) : [];
  if (keys.includes('inboundPlans'))
    return parse(planListSchema, document, 'listInboundPlans response', where).inboundPlans.map(planRecord);
  if (keys.includes('inboundPlan'))
    return bundleRecords(parse(planBundleSchema, document, 'plan bundle', where), where);
  if (keys.includes('inboundPlanId'))
    return [planRecord(parse(planSchema, document, 'getInboundPlan response', where))];
  throw new RefusedFile(
    null,
    `${where || 'the document'} is not a Fulfillment Inbound 2024-03-20 payload: expected a listInboundPlans response ({inboundPlans}), a getInboundPlan response ({inboundPlanId, …}) or a plan bundle ({inboundPlan, shipments: [{shipment, items}]})`,
  );
}

/** A file holds one document or a JSON array of documents. */
function records(document: unknown): JsonRecord[] {
  return Array.isArray(document)
    ? document.flatMap((d, i) => documentRecords(d, `[${i}].`))
    : documentRecords(document, '');
}

/**
 * FBA inbound plans, shipments and shipment items (Fulfillment Inbound API 2024-03-20) as the connector saves them:
 * plan list pages, single plans, or one bundle per plan with its getShipment and listShipmentItems responses.
 */
export const source: Source = {
  ...jsonSource('fulfillmentInbound.shipments', 'raw.fulfillment_inbound_shipments', columns, records),
  fetch: operationFetch('fulfillmentInbound.shipments', 'none'),
};
