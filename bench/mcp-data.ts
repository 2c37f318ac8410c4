// The MCP benchmark's two-year home: marts.mkt_profit_by_sku_and_date filled with SQL for two connections.
import { loadModels } from '../src/models/load-models.ts';
import type { Warehouse } from '../src/db/warehouse.ts';

export const profitTable = 'mkt_profit_by_sku_and_date';
export const lastDay = '2026-10-31';
const days = 730;
/** SKUs sold per connection and day: a mid-sized seller (~220k rows a connection over two years). */
const skus = 300;
export const profitConnections = [
  { id: '00000000-0000-4000-8000-0000000f0001', marketplaceId: 'ATVPDKIKX0DER', country: 'US', currency: 'USD' },
  { id: '00000000-0000-4000-8000-0000000f0002', marketplaceId: 'A1PA6795UKMFR9', country: 'DE', currency: 'EUR' },
];
export const profitRows = profitConnections.length * days * skus;

/** The value of each column of a row (`d`: days before lastDay, `s`: the SKU's number), by name, else by type. */
function valueOf(name: string, dataType: string, c: (typeof profitConnections)[number]): string {
  const named: Record<string, string> = {
    marketplace_id: `'${c.marketplaceId}'`,
    marketplace_country_code: `'${c.country}'`,
    seller_or_vendor_id: `'${c.id}'`,
    date: `date '${lastDay}' - d::integer`,
    child_asin: `'B0' || lpad(s::varchar, 8, '0')`,
    parent_asin: `'B1' || lpad((s // 4)::varchar, 8, '0')`,
    sku: `'SKU-' || s`,
    currency: `'${c.currency}'`,
    profit: '((d * 7 + s * 13) % 5000 - 1000) / 100',
    total_sales: '((d * 11 + s * 17) % 9000) / 100',
  };
  if (named[name]) return named[name];
  if (dataType.startsWith('DECIMAL') || dataType === 'DOUBLE') return '((d + s) % 700) / 100';
  if (dataType === 'BIGINT' || dataType === 'INTEGER') return '(d + s) % 9';
  if (dataType === 'BOOLEAN') return 's % 40 <> 0';
  if (dataType === 'DATE') return `date '${lastDay}' - d::integer`;
  return `'bench ${name}'`;
}

/** Two years of daily rows per SKU for each connection, in the mart the snapshot publishes. */
export async function generateProfit(wh: Warehouse): Promise<void> {
  const model = loadModels().find((m) => m.id === `marts.${profitTable}`);
  if (!model) throw new Error(`no model marts.${profitTable}`);
  const columns = model.config.columns;
  await wh.sql.run('create schema if not exists marts');
  await wh.sql.run(`create table marts.${profitTable} (${columns.map((c) => `"${c.name}" ${c.dataType}`).join(', ')})`);
  for (const c of profitConnections) {
    const select = columns.map((col) => `(${valueOf(col.name, col.dataType, c)})::${col.dataType} as "${col.name}"`);
    await wh.sql.run(`
      insert into marts.${profitTable}
      select ${select.join(', ')}
      from range(${days}) as days(d), range(${skus}) as skus(s)
      order by d desc, s`);
  }
  await wh.sql.run('checkpoint');
}
