import type { Source } from '../../source.ts';
import { source as fulfilledShipments } from '../GET_AMAZON_FULFILLED_SHIPMENTS_DATA_GENERAL/source.ts';
import { source as removalOrders } from '../GET_FBA_FULFILLMENT_REMOVAL_ORDER_DETAIL_DATA/source.ts';
import { source as removalShipments } from '../GET_FBA_FULFILLMENT_REMOVAL_SHIPMENT_DETAIL_DATA/source.ts';
import { source as recommendedRemovals } from '../GET_FBA_RECOMMENDED_REMOVAL_DATA/source.ts';
import { source as strandedInventory } from '../GET_STRANDED_INVENTORY_UI_DATA/source.ts';
import { source as inboundShipments } from '../fulfillmentInbound.shipments/source.ts';

/** The FBA sources (docs/design/INGEST.md): inbound shipments, fulfilled shipments, removals and stranded inventory. */
export const fbaSources: Source[] = [
  inboundShipments,
  fulfilledShipments,
  removalOrders,
  removalShipments,
  recommendedRemovals,
  strandedInventory,
];
