import { awdSource, text, integer, json } from '../../families/awd.ts';
import { inventorySummary } from '../../families/awd-schemas.ts';

/** AWD inventory by SKU (listInventory): on hand, inbound, and the details by location and expiry. */
export const source = awdSource('listInventory', {
  listKey: 'inventory',
  schema: inventorySummary,
  columns: [
    text('sku', 'value'),
    integer('totalOnhandQuantity'),
    integer('totalInboundQuantity'),
    json('inventoryDetails'),
    json('expirationDetails'),
  ],
});
