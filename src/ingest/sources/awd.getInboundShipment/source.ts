import { awdSource, text, timestamp, json, addresses, times } from '../../families/awd.ts';
import { inboundShipment } from '../../families/awd-schemas.ts';

/** AWD inbound shipments: one getInboundShipment response per shipment, the shipment itself. */
export const source = awdSource('getInboundShipment', {
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
});
