import { awdSource, text, timestamp, json, times } from '../../families/awd.ts';
import { outboundOrder } from '../../families/awd-schemas.ts';

/** AWD outbound orders (listOutbounds): their shipments and packages ride along as JSON. */
export const source = awdSource('listOutbounds', {
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
});
