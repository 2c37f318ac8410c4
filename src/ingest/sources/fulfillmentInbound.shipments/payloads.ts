import { z } from 'zod';

const object = z.record(z.string(), z.unknown());
const optionalText = z.string().optional();

/** An inbound plan as listInboundPlans (InboundPlanSummary) and getInboundPlan (InboundPlan) return it. */
export const planSchema = z
  .object({
    inboundPlanId: z.string().min(1),
    name: optionalText,
    status: optionalText,
    createdAt: optionalText,
    lastUpdatedAt: optionalText,
    marketplaceIds: z.array(z.string()).optional(),
    sourceAddress: object.optional(),
    shipments: z.array(z.object({ shipmentId: z.string(), status: optionalText }).passthrough()).optional(),
  })
  .passthrough();
export type Plan = z.infer<typeof planSchema>;

const window = z.object({ start: optionalText, end: optionalText }).passthrough();

/** A getShipment response (Shipment). `inboundPlanId` is a path parameter; the sandbox example echoes it. */
export const shipmentSchema = z
  .object({
    shipmentId: z.string().min(1),
    inboundPlanId: optionalText,
    name: optionalText,
    status: optionalText,
    shipmentConfirmationId: optionalText,
    amazonReferenceId: optionalText,
    placementOptionId: optionalText,
    destination: z
      .object({ destinationType: optionalText, warehouseId: optionalText, address: object.optional() })
      .passthrough()
      .optional(),
    source: z.object({ sourceType: optionalText, address: object.optional() }).passthrough().optional(),
    dates: z.object({ readyToShipWindow: window.optional() }).passthrough().optional(),
    selectedDeliveryWindow: z.object({ startDate: optionalText, endDate: optionalText }).passthrough().optional(),
  })
  .passthrough();
export type Shipment = z.infer<typeof shipmentSchema>;

/**
 * One entry of a listShipmentItems response (Item): asin, fnsku, msku, quantity, labelOwner and prepInstructions are
 * required upstream.
 */
export const itemSchema = z
  .object({
    msku: z.string().min(1),
    fnsku: z.string().min(1),
    asin: z.string().min(1),
    quantity: z.number().int().nonnegative(),
    labelOwner: z.string().min(1),
    expiration: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a YYYY-MM-DD date')
      .optional(),
    manufacturingLotCode: optionalText,
    prepInstructions: z.array(z.unknown()).optional(),
  })
  .passthrough();
export type Item = z.infer<typeof itemSchema>;

const itemsPage = z.object({ items: z.array(itemSchema) }).passthrough();
/** listShipmentItems pages: one response, or an array of them (a single page is read as a one-page array). */
const pages = z.preprocess(
  (value) => (value === undefined || Array.isArray(value) ? value : [value]),
  z.array(itemsPage),
);

/** A listInboundPlans response. */
export const planListSchema = z.object({ inboundPlans: z.array(planSchema) }).passthrough();

/**
 * What the connector stores for one plan (the project's envelope, docs/design/INGEST.md): the getInboundPlan response
 * and, per shipment, the getShipment response with its listShipmentItems response (one page or an array of pages).
 */
export const planBundleSchema = z
  .object({
    inboundPlan: planSchema,
    shipments: z.array(z.object({ shipment: shipmentSchema, items: pages.optional() }).passthrough()),
  })
  .passthrough();
export type PlanBundle = z.infer<typeof planBundleSchema>;
