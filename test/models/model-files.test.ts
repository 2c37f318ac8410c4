import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { DuckDBInstance } from '@duckdb/node-api';
import { loadModels } from '../../src/models/load-models.ts';
import { columnDdl, tableMatches } from '../../src/models/tables.ts';

const models = loadModels();

describe('model files', () => {
  it('orders every model after the models it reads', () => {
    const seen = new Set<string>();
    for (const model of models) {
      for (const dep of model.deps) expect(seen.has(dep), `${model.id} reads ${dep}`).toBe(true);
      seen.add(model.id);
    }
  });

  describe.each(models.map((m) => [m.id, m] as const))('%s', (_id, model) => {
    it('starts with a one-line purpose and grain comment', () => {
      if (model.kind === 'sql') expect(model.sql.split('\n')[0]).toMatch(/^-- .+/);
    });

    it('names its incremental window columns among its columns, or keys a staging model by raw columns it reads', () => {
      if (model.config.window) {
        const names = model.config.columns.map((c) => c.name);
        expect(names).toContain(model.config.window.date_column);
        expect(names).toContain(model.config.window.connection_column);
      }
      const increment = model.config.increment;
      if (increment) {
        expect(model.schema).toBe('staging');
        expect(model.sql).toContain(increment.reads ?? increment.raw);
        for (const column of increment.key) expect(model.sql).toMatch(new RegExp(`\\b${column}\\b`));
        // A model keyed on another's rows: that one replaces the same keys of the same raw table.
        if (increment.reads)
          expect(models.find((m) => m.id === increment.reads)?.config.increment).toMatchObject({
            raw: increment.raw,
            key: increment.reads_key,
          });
      }
    });

    it('has a full catalog entry with a stable 64-hex id when it is a mart', () => {
      if (model.schema !== 'marts') return;
      const catalog = model.config.catalog!;
      expect(catalog).toBeDefined();
      const expected = createHash('sha256').update(`mktdata:${catalog.type}:${model.name}`).digest('hex');
      expect(catalog.id).toBe(expected);
      expect(model.name).toMatch(/^mkt_/);
      expect(model.config.columns.slice(0, 6).map((c) => c.name)).toEqual([
        'marketplace_id',
        'marketplace_country_code',
        'marketplace_country_name',
        'seller_or_vendor_id',
        'seller_or_vendor_name',
        'marketplace_seller_id',
      ]);
      expect(catalog.requiresDatePeriod).toBe(model.config.columns.some((c) => c.name === 'date'));
    });
  });
});

// A windowed model's table whose columns differ from its .yml is rebuilt whole at every run (run-incremental.ts), so
// each .yml names its types as DuckDB names them back (TIMESTAMP WITH TIME ZONE, not TIMESTAMPTZ).
it('names the types of every windowed model as DuckDB names them back', async () => {
  const db = await DuckDBInstance.create(':memory:');
  const sql = await db.connect();
  for (const model of models.filter((m) => m.config.window)) {
    await sql.run(`create or replace table t (${columnDdl(model)})`);
    expect(await tableMatches(sql, { ...model, id: 't' }), model.id).toBe(true);
  }
  sql.closeSync();
});

describe('mkt_order_items_with_cogs catalog entry', () => {
  const model = models.find((m) => m.name === 'mkt_order_items_with_cogs')!;

  it('lists exactly the columns of spec document 001, in its order, with its nullability', () => {
    // Spec 001, "mkt_order_items_with_cogs": C; then these, `?` marking nullable ones.
    const spec =
      'date order_purchased_at_utc mkt_order_id mkt_order_item_id child_asin? sku product_name? line_item_number merchant_order_id? mkt_order_updated_at? mkt_order_status fulfillment_channel sales_channel? mkt_order_channel ship_service_level? item_status? quantity item_price_value? item_price_currency? item_tax_value? item_shipping_price_value? item_shipping_tax_value? item_ship_promotion_discount_value? gift_wrap_price_value? gift_wrap_tax_value? address_city? address_state? address_country? address_postal_code order_is_business purchase_order_number? cogs_item_value? cogs_shipping_value? cogs_total_value? cogs_present cogs_currency? item_supplier_name? order_date';
    const columns = model.config.columns.slice(6);
    expect(columns.map((c) => `${c.name}${c.nullable ? '?' : ''}`).join(' ')).toBe(spec);
    const types = 'D D T T T T T N T D T T T T T T N N T N N N N N N T T T T L T N N N L T T D';
    expect(columns.map((c) => c.type[0]).join(' ')).toBe(types.replace(/L/g, 'L'));
  });

  it('carries the metadata of spec document 001', () => {
    expect(model.config.catalog).toMatchObject({
      name: 'Order Line Items',
      isPremium: false,
      defaultDataset: true,
      requiresDatePeriod: true,
      containsPii: false,
      enabled: true,
      rowCountBilling: true,
      fetchPeriods: [
        { type: 'INITIAL', numberOfDays: 730 },
        { type: 'RECURRING_DAILY', numberOfDays: 28 },
      ],
      dataAvailability: { type: 'REAL_TIME', refreshAt: '10am, 1pm, 4pm, 7pm' },
      searchAliases: ['orders', 'order lines', 'line items', 'units sold'],
    });
  });
});
