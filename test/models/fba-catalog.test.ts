import { describe, expect, it } from 'vitest';
import { loadModels } from '../../src/models/load-models.ts';

const marts = new Map(
  loadModels()
    .filter((m) => m.schema === 'marts')
    .map((m) => [m.name, m]),
);
const mart = (name: string) => {
  const model = marts.get(name);
  if (!model) throw new Error(`no mart ${name}`);
  return model;
};
/** Columns after the six common ones, `?` marking nullable, and their catalog types' first letters. */
const columns = (name: string) =>
  mart(name)
    .config.columns.slice(6)
    .map((c) => `${c.name}${c.nullable ? '?' : ''}`)
    .join(' ');
const types = (name: string) =>
  mart(name)
    .config.columns.slice(6)
    .map((c) => c.type[0])
    .join('');
const address = (prefix: string) =>
  [
    'name',
    'address_line1',
    'address_line2',
    'city',
    'company_name',
    'country_code',
    'district_or_county',
    'email',
    'phone_number',
    'postal_code',
    'state_or_province_code',
  ]
    .map((p) => `${prefix}_${p}?`)
    .join(' ');
const defaults = {
  type: 'SELLER_CENTRAL',
  userManaged: false,
  defaultDataset: false,
  enabled: true,
  rowCountBilling: true,
  initialLoadProgress: null,
};

// Spec document 002, "Other marketplace tables": the column lists in order (C first), then the metadata.
describe('FBA catalog tables of spec document 002', () => {
  it('mkt_fba_inbound_shipments', () => {
    expect(columns('mkt_fba_inbound_shipments')).toBe(
      `inbound_plan_id fba_inbound_shipment_id seller_sku fnsku child_asin quantity expiration? label_owner manufacturing_lot_code? prep_instructions shipment_name? fba_inbound_shipment_status shipment_confirmation_id? mkt_reference_id? destination_warehouse_id? destination_type? ${address('destination_address')} ${address('source_address')} ready_to_ship_window_start? ready_to_ship_window_end? selected_delivery_window_start? selected_delivery_window_end? placement_option_id? plan_name? plan_status? plan_created_at? plan_last_updated_at? last_seen_at`,
    );
    expect(types('mkt_fba_inbound_shipments')).toBe(`TTTTTNDTTJTTTTTT${'T'.repeat(22)}DDDDTTTDDD`);
    expect(mart('mkt_fba_inbound_shipments').config.catalog).toMatchObject({
      ...defaults,
      isPremium: false,
      containsPii: false,
      requiresDatePeriod: false,
      fetchPeriods: [{ type: 'CONTINUOUS' }],
      sources: ['fulfillmentInbound.shipments'],
    });
  });

  it('mkt_fba_shipments', () => {
    expect(columns('mkt_fba_shipments')).toBe(
      'date shipment_item_id mkt_order_id merchant_order_id? shipment_id mkt_order_item_id merchant_order_item_id? purchase_date? payments_date? shipment_date? reporting_date? buyer_email? buyer_name? buyer_phone_number? sku product_name quantity_shipped? currency? item_price? item_tax? shipping_price? shipping_tax? gift_wrap_price? gift_wrap_tax? ship_service_level? recipient_name? ship_address_1? ship_address_2? ship_address_3? ship_city? ship_state? ship_postal_code? ship_country? ship_phone_number? bill_address_1? bill_address_2? bill_address_3? bill_city? bill_state? bill_postal_code? bill_country? item_promotion_discount? ship_promotion_discount? carrier? fba_shipment_tracking_number? estimated_arrival_date? fulfillment_center_id? fulfillment_channel? sales_channel?',
    );
    expect(types('mkt_fba_shipments')).toBe(`DTTTTTTDDDDTTTTTNTNNNNNNTT${'T'.repeat(15)}NNTTDTTT`);
    expect(mart('mkt_fba_shipments').config.catalog).toMatchObject({
      ...defaults,
      name: 'FBA Shipments',
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

  it('mkt_fba_removal_orders', () => {
    expect(columns('mkt_fba_removal_orders')).toBe(
      'date request_date? fba_removal_order_id sku fnsku disposition? last_updated_date? fba_removal_order_source? fba_removal_order_type? service_speed? fba_removal_order_status? requested_quantity? cancelled_quantity? disposed_quantity? shipped_quantity? in_process_quantity? removal_fee? currency?',
    );
    expect(types('mkt_fba_removal_orders')).toBe('DDTTTTDTTTTNNNNNNT');
    expect(mart('mkt_fba_removal_orders').config.catalog).toMatchObject({
      ...defaults,
      isPremium: false,
      containsPii: false,
      requiresDatePeriod: true,
      fetchPeriods: [
        { type: 'INITIAL', numberOfDays: 730 },
        { type: 'RECURRING_DAILY', numberOfDays: 30 },
      ],
      relatedActions: [{ type: 'MKT_FBA_REMOVAL_ORDERS_ADD', relation: 'writes' }],
    });
  });

  it('mkt_fba_removal_recommended', () => {
    expect(columns('mkt_fba_removal_recommended')).toBe(
      'date snapshot_date? sku fnsku child_asin product_name condition? sellable_quantity? sellable_121_180_days? sellable_181_270_days? sellable_271_365_days? sellable_365_plus_days? sellable_removal_quantity? unsellable_quantity? unsellable_0_7_days? unsellable_8_60_days? unsellable_61_90_days?',
    );
    expect(types('mkt_fba_removal_recommended')).toBe(`DDTTTTT${'N'.repeat(10)}`);
    expect(mart('mkt_fba_removal_recommended').config.catalog).toMatchObject({
      ...defaults,
      isPremium: false,
      containsPii: false,
      requiresDatePeriod: true,
      fetchPeriods: [
        { type: 'INITIAL', numberOfDays: 1 },
        { type: 'RECURRING_DAILY', numberOfDays: 1 },
      ],
    });
  });

  it('mkt_fba_stranded_inventory', () => {
    expect(columns('mkt_fba_stranded_inventory')).toBe(
      'sku fnsku child_asin primary_action? date_stranded? date_to_take_auto_removal? status_primary? status_secondary? error_message? stranded_reason? product_name condition? fulfilled_by? fulfillable_qty? your_price? unfulfillable_qty? reserved_quantity? inbound_shipped_qty?',
    );
    expect(types('mkt_fba_stranded_inventory')).toBe('TTTTDDTTTTTTTNNNNN');
    expect(mart('mkt_fba_stranded_inventory').config.catalog).toMatchObject({
      ...defaults,
      isPremium: false,
      containsPii: false,
      requiresDatePeriod: false,
      fetchPeriods: [
        { type: 'INITIAL', numberOfDays: 1 },
        { type: 'RECURRING_DAILY', numberOfDays: 1 },
      ],
    });
  });

  it('mkt_fba_removal_shipments: the common columns first (the rest is not shown in the spec)', () => {
    expect(
      mart('mkt_fba_removal_shipments')
        .config.columns.slice(0, 6)
        .map((c) => c.name),
    ).toEqual([
      'marketplace_id',
      'marketplace_country_code',
      'marketplace_country_name',
      'seller_or_vendor_id',
      'seller_or_vendor_name',
      'marketplace_seller_id',
    ]);
    expect(mart('mkt_fba_removal_shipments').config.catalog).toMatchObject({
      ...defaults,
      name: 'FBA Removal Shipments',
      sources: ['GET_FBA_FULFILLMENT_REMOVAL_SHIPMENT_DETAIL_DATA'],
    });
  });
});
