import { awdSource, text, timestamp, json, times } from '../../families/awd.ts';
import { replenishmentOrder } from '../../families/awd-schemas.ts';

/** AWD replenishment orders (listReplenishmentOrders). */
export const source = awdSource('listReplenishmentOrders', {
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
});
