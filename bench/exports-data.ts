// The exports benchmark's data: its exported table filled with generated order lines for two connections.
import { loadModels } from '../src/models/load-models.ts';
import type { Warehouse } from '../src/db/warehouse.ts';

/**
 * Rows of the exported table: 2M order lines at BENCH_SCALE=1, split over two connections and two
 * years.
 */
const scale = Number(process.env.BENCH_SCALE ?? 1);
export const exportRows = Math.round(2_000_000 * scale);
export const table = 'mkt_order_items_with_cogs';
export const lastDay = '2026-10-31';
const days = 730;
export const firstDay = new Date(Date.parse(`${lastDay}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
export const connections = [
  {
    id: '00000000-0000-4000-8000-0000000e0001',
    marketplaceId: 'ATVPDKIKX0DER',
    country: 'US',
    countryName: 'United States',
    timezone: 'America/Los_Angeles',
    currency: 'USD',
    salesChannel: 'Amazon.com',
    taxed: false,
  },
  {
    id: '00000000-0000-4000-8000-0000000e0002',
    marketplaceId: 'A1PA6795UKMFR9',
    country: 'DE',
    countryName: 'Germany',
    timezone: 'Europe/Berlin',
    currency: 'EUR',
    salesChannel: 'Amazon.de',
    taxed: true,
  },
];
/**
 * marts.mkt_order_items_with_cogs filled directly with SQL, with exactly the columns and types of its .yml:
 * half the rows per connection, purchase times spread evenly over the last two years, two lines per order.
 */
export async function generate(wh: Warehouse): Promise<void> {
  const model = loadModels().find((m) => m.id === `marts.${table}`);
  if (!model) throw new Error(`no model marts.${table}`);
  const columns = model.config.columns;
  await wh.sql.run('create schema if not exists marts');
  await wh.sql.run(`create table marts.${table} (${columns.map((c) => `"${c.name}" ${c.dataType}`).join(', ')})`);
  const perConnection = exportRows / connections.length;
  for (const [n, c] of connections.entries()) {
    const values: Record<string, string> = {
      marketplace_id: `'${c.marketplaceId}'`,
      marketplace_country_code: `'${c.country}'`,
      marketplace_country_name: `'${c.countryName}'`,
      seller_or_vendor_id: `'${c.id}'`,
      seller_or_vendor_name: `'Bench ${c.currency}'`,
      marketplace_seller_id: `'A2BENCHSELLER${n}'`,
      date: 'local_date',
      order_purchased_at_utc: 'purchased_at',
      mkt_order_id: 'order_id',
      mkt_order_item_id: `order_id || '/SKU-' || s`,
      child_asin: `'B0' || lpad((s // 2)::varchar, 8, '0')`,
      sku: `'SKU-' || s`,
      product_name: `'Bench product ' || s || if(s % 3 = 0, ', stainless steel, 500 ml', ' (pack of ' || (1 + s % 6) || ')')`,
      line_item_number: '1 + i % 2',
      merchant_order_id: `if(i % 10 = 0, 'M-' || o, null)`,
      mkt_order_updated_at: 'purchased_at + interval 1 day',
      mkt_order_status: `if(i % 20 = 0, 'Canceled', if(i % 20 = 1, 'Unshipped', 'Shipped'))`,
      fulfillment_channel: `if(i % 9 = 0, 'Merchant', 'Amazon')`,
      sales_channel: `'${c.salesChannel}'`,
      mkt_order_channel: `if(i % 4 = 0, 'MOBILEAPP', 'WEBSITE')`,
      ship_service_level: `if(i % 5 = 0, 'Expedited', 'Standard')`,
      item_status: `if(i % 20 = 0, 'Canceled', if(i % 20 = 1, 'Unshipped', 'Shipped'))`,
      quantity: 'q',
      item_price_value: 'price',
      item_price_currency: `'${c.currency}'`,
      item_tax_value: c.taxed ? 'round(price * 19 / 119, 2)' : '0',
      item_shipping_price_value: 'if(i % 7 = 0, 4.99, 0)',
      item_shipping_tax_value: c.taxed ? 'if(i % 7 = 0, 0.80, 0)' : '0',
      item_ship_promotion_discount_value: 'if(i % 7 = 0, 4.99, 0)',
      gift_wrap_price_value: 'if(i % 97 = 0, 3.99, null)',
      gift_wrap_tax_value: 'if(i % 97 = 0, 0, null)',
      address_city: `['Seattle', 'Austin', 'Berlin', 'München', 'Portland', 'Köln', 'Denver', 'Hamburg'][1 + (o * 31) % 8]`,
      address_state: `['WA', 'TX', 'BE', 'BY', 'OR', 'NW', 'CO', 'HH'][1 + (o * 31) % 8]`,
      address_country: `'${c.country}'`,
      address_postal_code: `lpad(((o * 37) % 99999)::varchar, 5, '0')`,
      order_is_business: 'o % 25 = 0',
      purchase_order_number: `if(o % 25 = 0, 'PO-' || o, null)`,
      cogs_item_value: 'if(s % 40 = 0, null, (3.50 + s % 10) * q)',
      cogs_shipping_value: 'if(s % 40 = 0, null, 0.40 * q)',
      cogs_total_value: 'if(s % 40 = 0, null, (3.90 + s % 10) * q)',
      cogs_present: 's % 40 <> 0',
      cogs_currency: `if(s % 40 = 0, null, '${c.currency}')`,
      item_supplier_name: `if(s % 40 = 0, null, 'Supplier ' || (s % 12))`,
      order_date: 'local_date',
    };
    const missing = columns.filter((col) => !(col.name in values)).map((col) => col.name);
    if (missing.length) throw new Error(`the generator has no value for ${table}.${missing.join(', ')}`);
    await wh.sql.run(`
      insert into marts.${table}
      with lines as (
        select
          i, i // 2 as o, (i * 7919) % 400 as s, 1 + i % 3 as q,
          ((5 + (i % 5000) / 100) * (1 + i % 3))::decimal(18,4) as price,
          timestamp '${lastDay} 12:00:00' - to_seconds(((${perConnection} - i) * ${days * 86400}) // ${perConnection}) as purchased_at,
          timezone('${c.timezone}', timezone('UTC', purchased_at))::date as local_date,
          printf('%03d-%07d-%07d', 100 + ${n} * 100 + (o % 100), (o * 7919) % 10000000, o % 10000000) as order_id
        from range(${perConnection}) as r(i)
      )
      select ${columns.map((col) => `(${values[col.name]})::${col.dataType} as "${col.name}"`).join(', ')}
      from lines`);
  }
  await wh.sql.run('checkpoint');
}
