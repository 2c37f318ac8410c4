import type { FlatColumn } from '../../flat-file.ts';

const text = (name: string): FlatColumn => ({ name, type: 'text' });
const timestamp = (name: string): FlatColumn => ({ name, type: 'timestamp' });

/**
 * Raw columns of `fulfillmentInbound.shipments` (Fulfillment Inbound API 2024-03-20). One raw row per record:
 * `plan` (an inbound plan from listInboundPlans or getInboundPlan), `shipment` (a getShipment response) or
 * `item` (one entry of listShipmentItems). A shipment and its items always come from the same file, so the
 * latest file that holds a shipment is its current content. Addresses and prep instructions stay JSON text.
 */
export const columns: FlatColumn[] = [
  { name: 'record_type', type: 'text', required: 'value' },
  { name: 'inbound_plan_id', type: 'text', required: 'value' },
  text('plan_name'),
  text('plan_status'),
  timestamp('plan_created_at'),
  timestamp('plan_last_updated_at'),
  text('plan_marketplace_ids'),
  text('shipment_id'),
  text('shipment_name'),
  text('shipment_status'),
  text('shipment_confirmation_id'),
  text('amazon_reference_id'),
  text('placement_option_id'),
  text('destination_type'),
  text('destination_warehouse_id'),
  text('destination_address'),
  text('source_type'),
  text('source_address'),
  timestamp('ready_to_ship_window_start'),
  timestamp('ready_to_ship_window_end'),
  timestamp('selected_delivery_window_start'),
  timestamp('selected_delivery_window_end'),
  text('msku'),
  text('fnsku'),
  text('asin'),
  { name: 'quantity', type: 'integer' },
  { name: 'expiration', type: 'date' },
  text('label_owner'),
  text('manufacturing_lot_code'),
  text('prep_instructions'),
];
