// The webhooks bench's events (bench/webhooks.ts): 2,000 orders in 5 versions each, recorded in batches of 500 as 20
// landed All Orders files would record them, each an MKT_ORDER_UPDATE with the raw lines it came from.
import { summaryContext, type ConnectionContext, type NewEvent } from '../src/webhooks/outbox.ts';

export const ORDERS = 2_000;
/** Versions (events) per order: each order is in this many batches, one event in each. */
export const VERSIONS = 5;
export const BATCH = 500;
export const EVENTS = ORDERS * VERSIONS;
export const BATCHES = EVENTS / BATCH;
/** Batches in a row that hold different orders: batch b holds the orders of group b % GROUPS, at version b / GROUPS. */
const GROUPS = ORDERS / BATCH;

const statuses = ['Pending', 'Unshipped', 'Unshipped', 'Shipped', 'Shipped'] as const;
const orderId = (k: number) =>
  `113-${String(4_000_000 + k).padStart(7, '0')}-${String((k * 7_919) % 10_000_000).padStart(7, '0')}`;
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** The All Orders file line of one order line, as `details.raw` carries it (the raw table's columns). */
function rawLine(
  id: string,
  purchased: string,
  updated: string,
  status: string,
  sku: string,
  asin: string,
  quantity: number,
  price: number,
) {
  return {
    amazon_order_id: id,
    merchant_order_id: null,
    purchase_date: purchased,
    last_updated_date: updated,
    order_status: status,
    fulfillment_channel: 'Amazon',
    sales_channel: 'Amazon.com',
    order_channel: null,
    ship_service_level: 'Expedited',
    product_name: `Bench product ${sku} – stainless steel, 2 pack`,
    sku,
    asin,
    item_status: status === 'Shipped' ? 'Shipped' : 'Unshipped',
    quantity,
    currency: 'USD',
    item_price: price,
    item_tax: 0,
    shipping_price: 4.99,
    shipping_tax: 0,
    gift_wrap_price: null,
    gift_wrap_tax: null,
    item_promotion_discount: null,
    ship_promotion_discount: null,
    ship_city: 'SEATTLE',
    ship_state: 'WA',
    ship_postal_code: '98109-1234',
    ship_country: 'US',
    promotion_ids: null,
    cpf: null,
    is_business_order: 'false',
    purchase_order_number: null,
    price_designation: null,
  };
}

/** The events of batch `b`: version b / GROUPS of the 500 orders of group b % GROUPS, an MKT_ORDER_UPDATE each. */
export function batchEvents(connection: ConnectionContext, b: number, base: number): NewEvent[] {
  const context = summaryContext(connection);
  const group = b % GROUPS;
  const version = Math.floor(b / GROUPS);
  const events: NewEvent[] = [];
  for (let i = 0; i < BATCH; i++) {
    const k = group * BATCH + i;
    const id = orderId(k);
    const purchased = iso(base + k * 1_000);
    const updated = iso(base + k * 1_000 + (version + 1) * 3_600_000);
    const status = statuses[version]!;
    const quantity = version >= 2 ? 2 : 1;
    const items = [
      { sku: `SKU-${k}-A`, childAsin: `B0${String(k).padStart(8, '0')}`, quantity, itemPriceValue: 19.99 * quantity },
      { sku: `SKU-${k}-B`, childAsin: `B1${String(k).padStart(8, '0')}`, quantity: 1, itemPriceValue: 7.5 },
    ];
    events.push({
      organizationId: connection.organization_id,
      connectionId: connection.id,
      messageType: 'MKT_ORDER_UPDATE',
      summary: {
        ...context,
        mktOrderId: id,
        orderPurchasedAtUtc: purchased,
        mktOrderStatus: status,
        fulfillmentChannel: 'AFN',
        orderItems: items,
      },
      details: {
        raw: items.map((item) =>
          rawLine(id, purchased, updated, status, item.sku, item.childAsin, item.quantity, item.itemPriceValue),
        ),
      },
      occurredAt: updated,
      orderingKey: id,
    });
  }
  return events;
}
