import type { z } from 'zod';
import type { FlatColumn } from '../../flat-file.ts';
import { inboundShipment, inventorySummary, outboundOrder, replenishmentOrder } from './schemas.ts';

const text = (name: string, required?: FlatColumn['required']): FlatColumn => ({
  name,
  type: 'text',
  ...(required ? { required } : {}),
});
const timestamp = (name: string): FlatColumn => ({ name, type: 'timestamp' });
const integer = (name: string): FlatColumn => ({ name, type: 'integer' });
/** A nested object or array, landed as its JSON text; staging casts it to JSON. */
const json = (name: string): FlatColumn => ({ name, type: 'text' });

/** An AWD API operation as mktdata lands it: one raw row per record of its response. */
export interface AwdOperation {
  /** Key of the response's record array; null when the response is the record itself. */
  listKey: string | null;
  schema: z.ZodType;
  /** The record's top-level fields; every other field lands in `_extra`. */
  columns: FlatColumn[];
}

const addresses = [json('destinationAddress'), json('originAddress')];
const times = [timestamp('createdAt'), timestamp('updatedAt')];

/** The AWD API 2024-05-09 operations mktdata reads (upstream-formats f3), by operation name. */
export const awdOperations: Record<string, AwdOperation> = {
  getInboundShipment: {
    listKey: null,
    schema: inboundShipment,
    columns: [
      text('shipmentId', 'value'),
      text('orderId'),
      text('externalReferenceId'),
      text('shipmentStatus'),
      json('carrierCode'),
      text('trackingId'),
      timestamp('shipBy'),
      text('destinationRegion'),
      text('warehouseReferenceId'),
      ...addresses,
      json('shipmentContainerQuantities'),
      json('shipmentSkuQuantities'),
      json('receivedQuantity'),
      ...times,
    ],
  },
  listOutbounds: {
    listKey: 'outboundOrders',
    schema: outboundOrder,
    columns: [
      text('orderId', 'value'),
      text('orderStatus'),
      timestamp('confirmedOn'),
      ...times,
      json('orderPreferences'),
      json('executionErrors'),
      json('eligibleProductsToOutbound'),
      json('productsToOutbound'),
      json('shippedOutboundProducts'),
      json('eligiblePackagesToOutbound'),
      json('packagesToOutbound'),
      json('shippedOutboundPackages'),
      json('outboundShipments'),
    ],
  },
  listReplenishmentOrders: {
    listKey: 'orders',
    schema: replenishmentOrder,
    columns: [
      text('orderId', 'value'),
      text('status'),
      timestamp('confirmedOn'),
      ...times,
      json('distributionIneligibleReasons'),
      json('eligibleProducts'),
      json('products'),
      json('shippedProducts'),
      json('outboundShipments'),
    ],
  },
  listInventory: {
    listKey: 'inventory',
    schema: inventorySummary,
    columns: [
      text('sku', 'value'),
      integer('totalOnhandQuantity'),
      integer('totalInboundQuantity'),
      json('inventoryDetails'),
      json('expirationDetails'),
    ],
  },
};
