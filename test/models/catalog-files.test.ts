import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { loadModels } from '../../src/models/load-models.ts';
import { catalogSources } from '../../src/catalog/catalog.ts';

/** Every catalog table, as its mart's .yml describes it. */
const tables = loadModels().filter((m) => m.config.catalog);
const common = [
  'marketplace_id',
  'marketplace_country_code',
  'marketplace_country_name',
  'seller_or_vendor_id',
  'seller_or_vendor_name',
  'marketplace_seller_id',
];

describe('catalog tables (the marts)', () => {
  it('builds every table of spec documents 001 and 002', () => {
    expect(tables.map((t) => t.name).sort()).toEqual(
      [
        'mkt_ads_performance_by_asin_and_date',
        'mkt_cogs',
        'mkt_order_items_with_cogs',
        'mkt_profit_by_date',
        'mkt_profit_by_sku_and_date',
        'mkt_returns',
        'mkt_sales_and_traffic_with_cogs',
        'mkt_settlements_with_cogs',
        'mkt_awd_inbound_shipment_line_items',
        'mkt_awd_inbound_shipments',
        'mkt_awd_outbound_orders',
        'mkt_awd_outbound_shipment_packages',
        'mkt_awd_outbound_shipments',
        'mkt_awd_replenishment_order_line_items',
        'mkt_awd_replenishment_orders',
        'mkt_fba_inbound_shipments',
        'mkt_fba_removal_orders',
        'mkt_fba_removal_recommended',
        'mkt_fba_removal_shipments',
        'mkt_fba_shipments',
        'mkt_fba_stranded_inventory',
        'mkt_item_offers',
        'mkt_listings_raw',
        'mkt_listings_with_cogs',
        'mkt_promotion_items',
        'mkt_promotions',
        'mkt_replenishment_metrics_by_date',
        'mkt_replenishment_metrics_by_sku_and_date',
        'mkt_replenishment_offers',
      ].sort(),
    );
  });

  describe.each(tables.map((p) => [p.name, p] as const))('%s', (name, table) => {
    const catalog = table.config.catalog!;

    it('has a catalog entry with the stable id sha256(mktdata:<type>:<table>)', () => {
      expect(catalog).toBeDefined();
      expect(name).toMatch(/^mkt_/);
      expect(catalog.id).toBe(createHash('sha256').update(`mktdata:${catalog.type}:${name}`).digest('hex'));
      expect(catalog.initialLoadProgress).toBeNull();
      expect(catalog.userManaged).toBe(name === 'mkt_cogs'); // unit costs are the user's own rows
    });

    it('starts its columns with the six common columns', () => {
      expect(table.config.columns.slice(0, 6).map((c) => c.name)).toEqual(common);
      const names = table.config.columns.map((c) => c.name);
      expect(new Set(names).size).toBe(names.length);
    });

    it('has a date column when it requires a date period', () => {
      expect(typeof catalog.requiresDatePeriod).toBe('boolean');
      if (catalog.requiresDatePeriod) expect(table.config.columns.map((c) => c.name)).toContain('date');
    });
  });
});

describe('catalogSources()', () => {
  it('lists exactly the tables of spec documents 001 and 002 plus the project tables', () => {
    const documents001 = [
      'mkt_profit_by_sku_and_date',
      'mkt_profit_by_date',
      'mkt_sales_and_traffic_with_cogs',
      'mkt_order_items_with_cogs',
      'mkt_listings_raw',
      'mkt_promotions',
      'mkt_promotion_items',
      'mkt_listings_with_cogs',
    ];
    const documents002 = [
      'mkt_awd_inbound_shipments',
      'mkt_awd_inbound_shipment_line_items',
      'mkt_awd_replenishment_orders',
      'mkt_awd_replenishment_order_line_items',
      'mkt_awd_outbound_orders',
      'mkt_awd_outbound_shipments',
      'mkt_awd_outbound_shipment_packages',
      'mkt_replenishment_metrics_by_date',
      'mkt_replenishment_metrics_by_sku_and_date',
      'mkt_replenishment_offers',
      'mkt_item_offers',
      'mkt_fba_inbound_shipments',
      'mkt_fba_shipments',
      'mkt_fba_removal_orders',
      'mkt_fba_removal_recommended',
      'mkt_fba_stranded_inventory',
      'mkt_fba_removal_shipments',
    ];
    const projectTables = [
      'mkt_settlements_with_cogs',
      'mkt_returns',
      'mkt_ads_performance_by_asin_and_date',
      'mkt_cogs',
    ];
    const expected = [...documents001, ...documents002, ...projectTables];
    expect(expected).toHaveLength(29);
    expect(
      catalogSources()
        .map((s) => s.tableName)
        .sort(),
    ).toEqual([...expected].sort());
  });
});

describe('column lists of spec documents 001 and 002, in order, `?` marking nullable', () => {
  const columns = (name: string) => {
    const table = tables.find((p) => p.name === name)!;
    return table.config.columns.slice(6).map((c) => `${c.name}${c.nullable ? '?' : ''}`);
  };

  it('mkt_listings_with_cogs (document 001)', () => {
    expect(columns('mkt_listings_with_cogs')).toEqual([
      'listing_id',
      'sku',
      'fnsku',
      'child_asin',
      'title_differentiation?',
      'listing_condition',
      'listing_name',
      'listing_price_value',
      'listing_estimated_per_item_referral_fee?',
      'listing_price_currency',
      'listing_current_quantity',
      'listing_pending_quantity',
      'fba_quantity_available',
      'fba_quantity_pending_removal',
      'fba_quantity_inbound',
      'fba_quantity_reserved',
      'fba_quantity_fc_transfer?',
      'fba_inventory_supply_at_fba?',
      'fba_has_stranded_inventory',
      'awd_total_inbound_quantity?',
      'awd_total_onhand_quantity?',
      'awd_available_distributable_quantity?',
      'awd_replenishment_quantity?',
      'awd_reserved_distributable_quantity?',
      'awd_next_expiration_at?',
      'awd_next_expiration_quantity?',
      'awd_expirations?',
      'listing_fulfillment_channel',
      'listing_open_date',
      'listing_status',
      'cogs_item_value?',
      'cogs_shipping_value?',
      'cogs_total_value?',
      'cogs_present',
      'cogs_currency?',
      'item_current_supplier_name?',
    ]);
  });

  it('mkt_awd_outbound_orders (document 002), with its status values', () => {
    expect(columns('mkt_awd_outbound_orders')).toEqual([
      'awd_outbound_order_id',
      'awd_outbound_order_status?',
      'awd_outbound_order_confirmed_on?',
      'awd_outbound_order_created_at_utc?',
      'awd_outbound_order_updated_at_utc?',
      'order_preferences?',
      'execution_errors?',
      'eligible_products_to_outbound?',
      'products_to_outbound?',
      'shipped_outbound_products?',
      'date',
    ]);
    const status = tables
      .find((p) => p.name === 'mkt_awd_outbound_orders')!
      .config.columns.find((c) => c.name === 'awd_outbound_order_status')!;
    expect(status.checks).toEqual([
      {
        accepted_values: {
          values: [
            'DRAFT',
            'VALIDATING',
            'ELIGIBLE',
            'INELIGIBLE',
            'CONFIRMED',
            'EXECUTING',
            'INVENTORY_OUTBOUND',
            'SUCCESS',
            'FAILURE',
          ],
          severity: 'error',
        },
      },
    ]);
  });

  it('mkt_fba_shipments (document 002), with its metadata', () => {
    expect(columns('mkt_fba_shipments')).toEqual([
      'date',
      'shipment_item_id',
      'mkt_order_id',
      'merchant_order_id?',
      'shipment_id',
      'mkt_order_item_id',
      'merchant_order_item_id?',
      'purchase_date?',
      'payments_date?',
      'shipment_date?',
      'reporting_date?',
      'buyer_email?',
      'buyer_name?',
      'buyer_phone_number?',
      'sku',
      'product_name',
      'quantity_shipped?',
      'currency?',
      'item_price?',
      'item_tax?',
      'shipping_price?',
      'shipping_tax?',
      'gift_wrap_price?',
      'gift_wrap_tax?',
      'ship_service_level?',
      'recipient_name?',
      'ship_address_1?',
      'ship_address_2?',
      'ship_address_3?',
      'ship_city?',
      'ship_state?',
      'ship_postal_code?',
      'ship_country?',
      'ship_phone_number?',
      'bill_address_1?',
      'bill_address_2?',
      'bill_address_3?',
      'bill_city?',
      'bill_state?',
      'bill_postal_code?',
      'bill_country?',
      'item_promotion_discount?',
      'ship_promotion_discount?',
      'carrier?',
      'fba_shipment_tracking_number?',
      'estimated_arrival_date?',
      'fulfillment_center_id?',
      'fulfillment_channel?',
      'sales_channel?',
    ]);
    expect(tables.find((p) => p.name === 'mkt_fba_shipments')!.config.catalog).toMatchObject({
      name: 'FBA Shipments',
      type: 'SELLER_CENTRAL',
      isPremium: true,
      containsPii: true,
      requiresDatePeriod: true,
      fetchPeriods: [
        { type: 'INITIAL', numberOfDays: 28 },
        { type: 'RECURRING_DAILY', numberOfDays: 21 },
      ],
      sources: ['GET_AMAZON_FULFILLED_SHIPMENTS_DATA_GENERAL'],
    });
  });
});
