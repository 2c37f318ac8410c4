import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Warehouse } from '../../src/db/warehouse.ts';
import { runModels } from '../../src/models/run-models.ts';
import { land, makeHome, rows, US } from '../helpers/home.ts';
import { writeJson } from '../helpers/profit.ts';

const sample = (name: string) =>
  fileURLToPath(new URL(`../../fixtures/upstream-samples/awd_2024-05-09.${name}.example.json`, import.meta.url));

const context = {
  marketplace_id: 'ATVPDKIKX0DER',
  marketplace_country_code: 'US',
  marketplace_country_name: 'United States',
  seller_or_vendor_id: US.id,
  seller_or_vendor_name: 'Test US',
  marketplace_seller_id: 'SELLERUS',
};
const awdFacility = {
  name: 'AWD IUSD',
  addressLine1: '4200 Logistics Way',
  city: 'Stockton',
  county: 'San Joaquin',
  stateOrRegion: 'CA',
  postalCode: '95206',
  countryCode: 'US',
};
const seller = {
  name: 'Acme Outdoor',
  addressLine1: '12 Harbor Rd',
  addressLine2: 'Unit 4',
  city: 'Oakland',
  stateOrRegion: 'CA',
  postalCode: '94607',
  countryCode: 'US',
  phoneNumber: '+15105550100',
};
const fbaCenter = {
  name: 'Amazon ONT8',
  addressLine1: '24300 Nandina Ave',
  city: 'Moreno Valley',
  stateOrRegion: 'CA',
  postalCode: '92551',
  countryCode: 'US',
};
const products = (...items: [string, number][]) => items.map(([sku, quantity]) => ({ sku, quantity }));
const cases = (count: number, ...items: [string, number][]) => ({
  count,
  distributionPackage: {
    type: 'CASE',
    contents: { products: products(...items) },
    measurements: { weight: { weight: 9.5, unitOfMeasurement: 'KILOGRAMS' } },
  },
});
/** Mart JSON columns come back as text: compare them parsed. */
const parsed = (row: Record<string, unknown>, ...columns: string[]) => ({
  ...row,
  ...Object.fromEntries(columns.map((c) => [c, row[c] === null ? null : JSON.parse(String(row[c]))])),
});

describe('AWD tables (awd.* sources → marts.mkt_awd_*)', () => {
  let wh: Warehouse;
  let dir: string;
  beforeEach(async () => {
    ({ wh, dir } = await makeHome());
    vi.useFakeTimers({ toFake: ['Date'] });
  });
  afterEach(async () => {
    vi.useRealTimers();
    await wh.close();
  });

  /** Lands a response as if fetched at `at` (the landing time is the last-seen time). */
  const landAt = async (at: string, source: string, name: string, document: unknown) => {
    vi.setSystemTime(new Date(at));
    expect(await land(wh, source, US, writeJson(dir, name, document))).toMatchObject({ status: 'landed' });
  };
  const build = async (...tables: string[]) => {
    const results = await runModels(wh, { select: tables.map((t) => `marts.${t}`) });
    expect(results.filter((r) => r.status !== 'success' || r.findings.length > 0)).toEqual([]);
  };

  describe('inbound shipments (awd.getInboundShipment)', () => {
    const base = {
      shipmentId: 'SHIP-IN-1',
      orderId: 'INB-ORDER-1',
      externalReferenceId: 'PO-778',
      carrierCode: { carrierCodeType: 'SCAC', carrierCodeValue: 'UPSN' },
      trackingId: '1Z999AA10123456784',
      shipBy: '2026-09-03T00:00:00Z',
      destinationRegion: 'us-west',
      warehouseReferenceId: 'WH-REF-7',
      destinationAddress: awdFacility,
      originAddress: seller,
      createdAt: '2026-09-01T03:30:00Z',
      shipmentContainerQuantities: [cases(3, ['ACM-TENT-2P-GRN', 4]), cases(2, ['ACM-MUG-12-BLK', 24])],
    };
    // Fetched on 2 September: three SKU lines expected, nothing received.
    const inTransit = {
      ...base,
      shipmentStatus: 'IN_TRANSIT',
      updatedAt: '2026-09-02T10:00:00Z',
      receivedQuantity: [],
      shipmentSkuQuantities: [
        { sku: 'ACM-TENT-2P-GRN', expectedQuantity: { quantity: 12, unitOfMeasurement: 'PRODUCT_UNITS' } },
        { sku: 'ACM-MUG-12-BLK', expectedQuantity: { quantity: 48, unitOfMeasurement: 'PRODUCT_UNITS' } },
        {
          sku: 'ACM-STAKE-ALU-10',
          expectedQuantity: { quantity: 10, unitOfMeasurement: 'PRODUCT_UNITS' },
          receivedQuantity: null,
        },
      ],
    };
    // Fetched again on 6 September (05:00 UTC = 5 September in Los Angeles): receiving, two lines, the mugs counted in
    // cases (sandbox spelling CASE).
    const receiving = {
      ...base,
      shipmentStatus: 'RECEIVING',
      updatedAt: '2026-09-05T16:00:00Z',
      receivedQuantity: [{ quantity: 1, unitOfMeasurement: 'CASE' }],
      shipmentSkuQuantities: [
        {
          sku: 'ACM-TENT-2P-GRN',
          expectedQuantity: { quantity: 12, unitOfMeasurement: 'PRODUCT_UNITS' },
          receivedQuantity: { quantity: 8, unitOfMeasurement: 'PRODUCT_UNITS' },
        },
        {
          sku: 'ACM-MUG-12-BLK',
          expectedQuantity: { quantity: 2, unitOfMeasurement: 'CASE' },
          receivedQuantity: { quantity: 1, unitOfMeasurement: 'CASE' },
        },
      ],
    };

    it('keeps the latest version of a shipment with its address parts, UTC times and the local creation date', async () => {
      await landAt('2026-09-02T12:00:00Z', 'awd.getInboundShipment', 'ship-in-1-a.json', inTransit);
      await landAt('2026-09-06T05:00:00Z', 'awd.getInboundShipment', 'ship-in-1-b.json', receiving);
      await build('mkt_awd_inbound_shipments');
      const got = await rows(wh, `select * from marts.mkt_awd_inbound_shipments`);
      expect(got.map((r) => parsed(r, 'shipment_container_quantities', 'received_quantity'))).toEqual([
        {
          ...context,
          awd_inbound_shipment_id: 'SHIP-IN-1',
          awd_inbound_order_id: 'INB-ORDER-1',
          external_reference_id: 'PO-778',
          awd_inbound_shipment_status: 'RECEIVING',
          carrier_code_type: 'SCAC',
          carrier_code_value: 'UPSN',
          awd_inbound_shipment_tracking_id: '1Z999AA10123456784',
          ship_by: '2026-09-03 00:00:00',
          destination_region: 'us-west',
          warehouse_reference_id: 'WH-REF-7',
          shipment_container_quantities: base.shipmentContainerQuantities,
          // CASE (sandbox spelling) is named as the enum names it.
          received_quantity: [{ quantity: 1, unitOfMeasurement: 'CASES' }],
          destination_address_name: 'AWD IUSD',
          destination_address_address_line1: '4200 Logistics Way',
          destination_address_address_line2: null,
          destination_address_address_line3: null,
          destination_address_city: 'Stockton',
          destination_address_county: 'San Joaquin',
          destination_address_district: null,
          destination_address_state_or_region: 'CA',
          destination_address_postal_code: '95206',
          destination_address_country_code: 'US',
          destination_address_phone_number: null,
          origin_address_name: 'Acme Outdoor',
          origin_address_address_line1: '12 Harbor Rd',
          origin_address_address_line2: 'Unit 4',
          origin_address_address_line3: null,
          origin_address_city: 'Oakland',
          origin_address_county: null,
          origin_address_district: null,
          origin_address_state_or_region: 'CA',
          origin_address_postal_code: '94607',
          origin_address_country_code: 'US',
          origin_address_phone_number: '+15105550100',
          created_at: '2026-09-01 03:30:00',
          updated_at: '2026-09-05 16:00:00',
          last_seen_at: '2026-09-06 05:00:00',
          // 03:30 UTC on 1 September is 20:30 on 31 August in Los Angeles.
          date: '2026-08-31',
        },
      ]);
    });

    it('builds a shipment whose status is not in the API enum, with a warning', async () => {
      await landAt('2026-09-02T12:00:00Z', 'awd.getInboundShipment', 'ship-in-1-lost.json', {
        ...inTransit,
        shipmentStatus: 'LOST_IN_TRANSIT',
      });
      const [result] = (await runModels(wh, { select: ['marts.mkt_awd_inbound_shipments'] })).filter(
        (r) => r.model === 'marts.mkt_awd_inbound_shipments',
      );
      expect(result).toMatchObject({
        status: 'success',
        rows: 1,
        findings: [{ name: 'awd_inbound_shipment_status accepted_values', severity: 'warn', badRows: 1 }],
      });
    });

    it('keeps each SKU line by position with its last-seen time, also a line that a later version dropped', async () => {
      await landAt('2026-09-02T12:00:00Z', 'awd.getInboundShipment', 'ship-in-1-a.json', inTransit);
      await landAt('2026-09-06T05:00:00Z', 'awd.getInboundShipment', 'ship-in-1-b.json', receiving);
      await build('mkt_awd_inbound_shipment_line_items');
      const got = await rows(
        wh,
        `select * exclude (${Object.keys(context).join(', ')}) from marts.mkt_awd_inbound_shipment_line_items order by line_item_no`,
      );
      expect(got.map((r) => parsed(r, 'expected_quantity', 'received_quantity'))).toEqual([
        {
          awd_inbound_shipment_id: 'SHIP-IN-1',
          line_item_no: '1.0000',
          sku: 'ACM-TENT-2P-GRN',
          expected_quantity: { quantity: 12, unitOfMeasurement: 'PRODUCT_UNITS' },
          received_quantity: { quantity: 8, unitOfMeasurement: 'PRODUCT_UNITS' },
          line_item_data: null,
          last_seen_at: '2026-09-06 05:00:00',
          date: '2026-09-05',
        },
        {
          awd_inbound_shipment_id: 'SHIP-IN-1',
          line_item_no: '2.0000',
          sku: 'ACM-MUG-12-BLK',
          expected_quantity: { quantity: 2, unitOfMeasurement: 'CASES' },
          received_quantity: { quantity: 1, unitOfMeasurement: 'CASES' },
          line_item_data: null,
          last_seen_at: '2026-09-06 05:00:00',
          date: '2026-09-05',
        },
        // Only the first response listed the stakes: the line keeps that response's values and landing (05:00 in Los
        // Angeles on 2 September).
        {
          awd_inbound_shipment_id: 'SHIP-IN-1',
          line_item_no: '3.0000',
          sku: 'ACM-STAKE-ALU-10',
          expected_quantity: { quantity: 10, unitOfMeasurement: 'PRODUCT_UNITS' },
          received_quantity: null,
          line_item_data: null,
          last_seen_at: '2026-09-02 12:00:00',
          date: '2026-09-02',
        },
      ]);
    });
  });

  describe('outbound orders, shipments and packages (awd.listOutbounds)', () => {
    // OUT-1 moves 8 cases of 4 tents and 8 mixed cases of 6 bottles and 6 filters: 32 + 96 = 128 units requested.
    const out1 = {
      orderId: 'OUT-1',
      orderStatus: 'INVENTORY_OUTBOUND',
      createdAt: '2026-09-10T06:00:00Z',
      updatedAt: '2026-09-12T18:00:00Z',
      confirmedOn: '2026-09-10T15:00:00Z',
      orderPreferences: [{ orderPreference: 'PARTIAL_ORDER', orderPreferenceValue: 'SET' }],
      executionErrors: [],
      eligibleProductsToOutbound: products(['ACM-TENT-2P-GRN', 40], ['ACM-BOTTLE-1L-WHT', 60], ['ACM-FILTER-SQZ', 60]),
      productsToOutbound: products(['ACM-TENT-2P-GRN', 32], ['ACM-BOTTLE-1L-WHT', 48], ['ACM-FILTER-SQZ', 48]),
      shippedOutboundProducts: products(['ACM-TENT-2P-GRN', 16]),
      eligiblePackagesToOutbound: [
        cases(10, ['ACM-TENT-2P-GRN', 4]),
        cases(10, ['ACM-BOTTLE-1L-WHT', 6], ['ACM-FILTER-SQZ', 6]),
      ],
      packagesToOutbound: [cases(8, ['ACM-TENT-2P-GRN', 4]), cases(8, ['ACM-BOTTLE-1L-WHT', 6], ['ACM-FILTER-SQZ', 6])],
      shippedOutboundPackages: [cases(4, ['ACM-TENT-2P-GRN', 4])],
      outboundShipments: [
        {
          shipmentId: 'OUT-1-S1',
          orderId: 'OUT-1',
          shipmentStatus: 'IN_TRANSIT',
          createdAt: '2026-09-11T20:00:00Z',
          updatedAt: '2026-09-12T18:00:00Z',
          destinationAddress: fbaCenter,
          originAddress: awdFacility,
          shipmentProductQuantities: products(['ACM-TENT-2P-GRN', 16]),
          shipmentPackageQuantities: [cases(4, ['ACM-TENT-2P-GRN', 4])],
        },
        {
          // No orderId on the shipment: the enclosing order's id applies.
          shipmentId: 'OUT-1-S2',
          shipmentStatus: 'CREATED',
          createdAt: '2026-09-12T07:30:00Z',
          destinationAddress: fbaCenter,
          originAddress: awdFacility,
          shipmentProductQuantities: products(
            ['ACM-TENT-2P-GRN', 16],
            ['ACM-BOTTLE-1L-WHT', 48],
            ['ACM-FILTER-SQZ', 48],
          ),
          shipmentPackageQuantities: [
            cases(4, ['ACM-TENT-2P-GRN', 4]),
            cases(8, ['ACM-BOTTLE-1L-WHT', 6], ['ACM-FILTER-SQZ', 6]),
          ],
        },
      ],
    };
    // OUT-2 failed validation; it asks for one pallet of ten cases of coolers, and omits the lists it has no data for.
    const pallet = {
      count: 1,
      distributionPackage: {
        type: 'PALLET',
        contents: { packages: [cases(10, ['ACM-COOLER-25Q', 5])] },
        measurements: {
          weight: { weight: 310, unitOfMeasurement: 'KILOGRAMS' },
          dimensions: { length: 120, width: 100, height: 150, unitOfMeasurement: 'CENTIMETERS' },
        },
      },
    };
    const out2 = {
      orderId: 'OUT-2',
      orderStatus: 'INELIGIBLE',
      createdAt: '2026-09-14T12:00:00Z',
      executionErrors: [
        {
          failureCode: 'INSUFFICIENT_INVENTORY',
          failureReasons: ['Requested 50 units, 20 available'],
          sku: 'ACM-COOLER-25Q',
        },
      ],
      productsToOutbound: products(['ACM-COOLER-25Q', 50]),
      packagesToOutbound: [pallet],
      outboundShipments: [],
    };
    // An older version of OUT-1, landed later (a backfill): confirmed, S1 just created.
    const out1Older = {
      ...out1,
      orderStatus: 'CONFIRMED',
      updatedAt: '2026-09-11T20:00:00Z',
      shippedOutboundProducts: [],
      shippedOutboundPackages: [],
      outboundShipments: [
        { ...out1.outboundShipments[0], shipmentStatus: 'CREATED', updatedAt: '2026-09-11T20:00:00Z' },
      ],
    };
    const landOrders = async () => {
      await landAt('2026-09-15T12:00:00Z', 'awd.listOutbounds', 'outbounds-a.json', { outboundOrders: [out1, out2] });
      await landAt('2026-09-16T12:00:00Z', 'awd.listOutbounds', 'outbounds-b.json', {
        outboundOrders: [out1Older],
        nextToken: 'next',
      });
    };

    it('keeps the version with the greatest updatedAt of each order and its three product stages apart', async () => {
      await landOrders();
      await build('mkt_awd_outbound_orders');
      const json = [
        'order_preferences',
        'execution_errors',
        'eligible_products_to_outbound',
        'products_to_outbound',
        'shipped_outbound_products',
      ];
      const got = await rows(wh, `select * from marts.mkt_awd_outbound_orders order by awd_outbound_order_id`);
      expect(got.map((r) => parsed(r, ...json))).toEqual([
        {
          ...context,
          awd_outbound_order_id: 'OUT-1',
          awd_outbound_order_status: 'INVENTORY_OUTBOUND',
          awd_outbound_order_confirmed_on: '2026-09-10 15:00:00',
          awd_outbound_order_created_at_utc: '2026-09-10 06:00:00',
          awd_outbound_order_updated_at_utc: '2026-09-12 18:00:00',
          order_preferences: [{ orderPreference: 'PARTIAL_ORDER', orderPreferenceValue: 'SET' }],
          execution_errors: [],
          eligible_products_to_outbound: out1.eligibleProductsToOutbound,
          products_to_outbound: out1.productsToOutbound,
          shipped_outbound_products: [{ sku: 'ACM-TENT-2P-GRN', quantity: 16 }],
          // 06:00 UTC on 10 September is 23:00 on 9 September in Los Angeles.
          date: '2026-09-09',
        },
        {
          ...context,
          awd_outbound_order_id: 'OUT-2',
          awd_outbound_order_status: 'INELIGIBLE',
          awd_outbound_order_confirmed_on: null,
          awd_outbound_order_created_at_utc: '2026-09-14 12:00:00',
          awd_outbound_order_updated_at_utc: null,
          order_preferences: null,
          execution_errors: out2.executionErrors,
          eligible_products_to_outbound: null,
          products_to_outbound: [{ sku: 'ACM-COOLER-25Q', quantity: 50 }],
          shipped_outbound_products: null,
          date: '2026-09-14',
        },
      ]);
      // The stages are not added: per SKU, eligible 40 ≥ requested 32 ≥ shipped 16 tents.
      const stages = await rows(
        wh,
        `
        select stage, sum((p ->> 'quantity')::int)::int as tents
        from (
          select 'eligible' as stage, unnest(eligible_products_to_outbound::json[]) as p from marts.mkt_awd_outbound_orders
          union all select 'requested', unnest(products_to_outbound::json[]) from marts.mkt_awd_outbound_orders
          union all select 'shipped', unnest(shipped_outbound_products::json[]) from marts.mkt_awd_outbound_orders
        ) where p ->> 'sku' = 'ACM-TENT-2P-GRN' group by stage order by stage`,
      );
      expect(stages).toEqual([
        { stage: 'eligible', tents: 40 },
        { stage: 'requested', tents: 32 },
        { stage: 'shipped', tents: 16 },
      ]);
    });

    it('lists each shipment once, at its latest version, with its order id, addresses and local creation date', async () => {
      await landOrders();
      await build('mkt_awd_outbound_shipments');
      const got = await rows(
        wh,
        `select * exclude (${Object.keys(context).join(', ')}) from marts.mkt_awd_outbound_shipments order by awd_outbound_shipment_id`,
      );
      const fba = {
        destination_address_name: 'Amazon ONT8',
        destination_address_address_line1: '24300 Nandina Ave',
        destination_address_address_line2: null,
        destination_address_address_line3: null,
        destination_address_city: 'Moreno Valley',
        destination_address_county: null,
        destination_address_district: null,
        destination_address_state_or_region: 'CA',
        destination_address_postal_code: '92551',
        destination_address_country_code: 'US',
        destination_address_phone_number: null,
        origin_address_name: 'AWD IUSD',
        origin_address_address_line1: '4200 Logistics Way',
        origin_address_address_line2: null,
        origin_address_address_line3: null,
        origin_address_city: 'Stockton',
        origin_address_county: 'San Joaquin',
        origin_address_district: null,
        origin_address_state_or_region: 'CA',
        origin_address_postal_code: '95206',
        origin_address_country_code: 'US',
        origin_address_phone_number: null,
      };
      expect(got.map((r) => parsed(r, 'shipment_product_quantities'))).toEqual([
        {
          awd_outbound_shipment_id: 'OUT-1-S1',
          awd_outbound_order_id: 'OUT-1',
          awd_outbound_shipment_status: 'IN_TRANSIT',
          shipment_product_quantities: [{ sku: 'ACM-TENT-2P-GRN', quantity: 16 }],
          ...fba,
          awd_outbound_shipment_created_at_utc: '2026-09-11 20:00:00',
          awd_outbound_shipment_updated_at_utc: '2026-09-12 18:00:00',
          date: '2026-09-11',
        },
        {
          awd_outbound_shipment_id: 'OUT-1-S2',
          awd_outbound_order_id: 'OUT-1',
          awd_outbound_shipment_status: 'CREATED',
          shipment_product_quantities: out1.outboundShipments[1]!.shipmentProductQuantities,
          ...fba,
          // 07:30 UTC on 12 September is 00:30 the same day in Los Angeles.
          awd_outbound_shipment_created_at_utc: '2026-09-12 07:30:00',
          awd_outbound_shipment_updated_at_utc: null,
          date: '2026-09-12',
        },
      ]);
    });

    it('gives one row per package configuration and source, __EMPTY__ for order-level lists, units only within a source', async () => {
      await landOrders();
      await build('mkt_awd_outbound_shipment_packages');
      const got = await rows(
        wh,
        `
        select awd_outbound_order_id, awd_outbound_shipment_id, package_source, line_item_no::int as line_item_no, count, package_type, contents,
               measurements, line_item_data, date
        from marts.mkt_awd_outbound_shipment_packages order by all`,
      );
      const tents = { products: [{ sku: 'ACM-TENT-2P-GRN', quantity: 4 }] };
      const mixed = {
        products: [
          { sku: 'ACM-BOTTLE-1L-WHT', quantity: 6 },
          { sku: 'ACM-FILTER-SQZ', quantity: 6 },
        ],
      };
      const weight = { weight: { weight: 9.5, unitOfMeasurement: 'KILOGRAMS' } };
      const row = (
        order: string,
        shipment: string,
        source: string,
        line: number,
        count: string,
        type: string,
        contents: unknown,
        measurements: unknown,
        date: string,
      ) => ({
        awd_outbound_order_id: order,
        awd_outbound_shipment_id: shipment,
        package_source: source,
        line_item_no: line,
        count,
        package_type: type,
        contents,
        measurements,
        line_item_data: null,
        date,
      });
      expect(got.map((r) => parsed(r, 'contents', 'measurements'))).toEqual([
        row('OUT-1', 'OUT-1-S1', 'shipment_package_quantities', 1, '4.0000', 'CASE', tents, weight, '2026-09-11'),
        row('OUT-1', 'OUT-1-S2', 'shipment_package_quantities', 1, '4.0000', 'CASE', tents, weight, '2026-09-12'),
        row('OUT-1', 'OUT-1-S2', 'shipment_package_quantities', 2, '8.0000', 'CASE', mixed, weight, '2026-09-12'),
        // Order-level rows are dated by the order's creation (9 September in Los Angeles) and come from its latest
        // version.
        row('OUT-1', '__EMPTY__', 'eligible_packages_to_outbound', 1, '10.0000', 'CASE', tents, weight, '2026-09-09'),
        row('OUT-1', '__EMPTY__', 'eligible_packages_to_outbound', 2, '10.0000', 'CASE', mixed, weight, '2026-09-09'),
        row('OUT-1', '__EMPTY__', 'packages_to_outbound', 1, '8.0000', 'CASE', tents, weight, '2026-09-09'),
        row('OUT-1', '__EMPTY__', 'packages_to_outbound', 2, '8.0000', 'CASE', mixed, weight, '2026-09-09'),
        row('OUT-1', '__EMPTY__', 'shipped_outbound_packages', 1, '4.0000', 'CASE', tents, weight, '2026-09-09'),
        row(
          'OUT-2',
          '__EMPTY__',
          'packages_to_outbound',
          1,
          '1.0000',
          'PALLET',
          pallet.distributionPackage.contents,
          pallet.distributionPackage.measurements,
          '2026-09-14',
        ),
      ]);
      // Units of CASE rows = count × the case's product quantities, summed within one source:
      // eligible 10×4 + 10×12 = 160, requested 8×4 + 8×12 = 128, shipped 4×4 = 16, shipments 4×4 + 4×4 + 8×12 = 128.
      const units = await rows(
        wh,
        `
        select package_source, sum(count)::int as cases,
               sum(count * list_sum(list_transform((contents -> 'products')::json[], lambda p: (p ->> 'quantity')::int)))::int as units
        from marts.mkt_awd_outbound_shipment_packages where package_type = 'CASE' group by all order by all`,
      );
      expect(units).toEqual([
        { package_source: 'eligible_packages_to_outbound', cases: 20, units: 160 },
        { package_source: 'packages_to_outbound', cases: 16, units: 128 },
        { package_source: 'shipment_package_quantities', cases: 16, units: 128 },
        { package_source: 'shipped_outbound_packages', cases: 4, units: 16 },
      ]);
      // The intermediate model carries the same rule as case_units; a pallet nests packages and has none.
      const caseUnits = await rows(
        wh,
        `select package_source, package_type, sum(case_units)::int as units
        from intermediate.int_awd_outbound_packages_unioned group by all order by all`,
      );
      expect(caseUnits).toEqual([
        { package_source: 'eligible_packages_to_outbound', package_type: 'CASE', units: 160 },
        { package_source: 'packages_to_outbound', package_type: 'CASE', units: 128 },
        { package_source: 'packages_to_outbound', package_type: 'PALLET', units: null },
        { package_source: 'shipment_package_quantities', package_type: 'CASE', units: 128 },
        { package_source: 'shipped_outbound_packages', package_type: 'CASE', units: 16 },
      ]);
    });
  });

  describe('replenishment orders (awd.listReplenishmentOrders)', () => {
    const lot = [{ name: 'lotNumber', value: 'L-42' }];
    const repl1 = {
      orderId: 'REPL-1',
      status: 'INVENTORY_OUTBOUND',
      createdAt: '2026-10-01T16:00:00Z',
      confirmedOn: '2026-10-01T17:00:00Z',
      updatedAt: '2026-10-03T09:00:00Z',
      eligibleProducts: [
        { sku: 'ACM-TENT-2P-GRN', quantity: 24 },
        { sku: 'ACM-LAMP-HEAD-300', quantity: 100, attributes: lot },
      ],
      products: [
        { sku: 'ACM-TENT-2P-GRN', quantity: 20 },
        { sku: 'ACM-LAMP-HEAD-300', quantity: 100, attributes: lot },
      ],
      shippedProducts: [{ sku: 'ACM-TENT-2P-GRN', quantity: 20 }],
      outboundShipments: [
        {
          shipmentId: 'FBA-REPL-1-A',
          orderId: 'REPL-1',
          shipmentStatus: 'IN_TRANSIT',
          createdAt: '2026-10-02T08:00:00Z',
          updatedAt: '2026-10-03T09:00:00Z',
        },
      ],
      distributionIneligibleReasons: [],
    };
    const repl2 = {
      orderId: 'REPL-2',
      status: 'INELIGIBLE',
      createdAt: '2026-10-02T05:00:00Z',
      products: [{ sku: 'ACM-COOLER-25Q', quantity: 30 }],
      outboundShipments: [],
      distributionIneligibleReasons: [
        {
          failureCode: 'INSUFFICIENT_INVENTORY',
          failureReasons: ['Only 20 units available', 'Minimum not met'],
          sku: 'ACM-COOLER-25Q',
        },
      ],
    };
    const landOrders = () =>
      landAt('2026-10-03T12:00:00Z', 'awd.listReplenishmentOrders', 'replenishment.json', { orders: [repl1, repl2] });

    it('builds one row per order with UTC times, the local creation date and when it was last seen', async () => {
      await landOrders();
      await build('mkt_awd_replenishment_orders');
      const got = await rows(
        wh,
        `select * from marts.mkt_awd_replenishment_orders order by awd_replenishment_order_id`,
      );
      expect(got.map((r) => parsed(r, 'distribution_ineligible_reasons', 'outbound_shipments'))).toEqual([
        {
          ...context,
          awd_replenishment_order_id: 'REPL-1',
          awd_replenishment_order_status: 'INVENTORY_OUTBOUND',
          confirmed_on: '2026-10-01 17:00:00',
          created_at: '2026-10-01 16:00:00',
          updated_at: '2026-10-03 09:00:00',
          distribution_ineligible_reasons: [],
          outbound_shipments: repl1.outboundShipments,
          last_seen_at: '2026-10-03 12:00:00',
          date: '2026-10-01',
        },
        {
          ...context,
          awd_replenishment_order_id: 'REPL-2',
          awd_replenishment_order_status: 'INELIGIBLE',
          confirmed_on: null,
          created_at: '2026-10-02 05:00:00',
          updated_at: null,
          distribution_ineligible_reasons: repl2.distributionIneligibleReasons,
          outbound_shipments: [],
          // 05:00 UTC on 2 October is 22:00 on 1 October in Los Angeles.
          last_seen_at: '2026-10-03 12:00:00',
          date: '2026-10-01',
        },
      ]);
    });

    it('itemizes the product stages, shipments and ineligibility reasons of each order by source and position', async () => {
      await landOrders();
      await build('mkt_awd_replenishment_order_line_items');
      const got = await rows(
        wh,
        `select * exclude (${Object.keys(context).join(', ')}) from marts.mkt_awd_replenishment_order_line_items order by all`,
      );
      const line = (order: string, source: string, no: number, fields: Record<string, unknown>) => ({
        awd_replenishment_order_id: order,
        line_item_source: source,
        line_item_no: `${no}.0000`,
        sku: null,
        quantity: null,
        awd_replenishment_shipment_id: null,
        awd_replenishment_shipment_status: null,
        failure_code: null,
        failure_reasons: null,
        attributes: null,
        line_item_data: null,
        last_seen_at: '2026-10-03 12:00:00',
        order_updated_at: order === 'REPL-1' ? '2026-10-03 09:00:00' : null,
        date: '2026-10-03',
        ...fields,
      });
      expect(got.map((r) => parsed(r, 'failure_reasons', 'attributes'))).toEqual([
        line('REPL-1', 'eligible_products', 1, { sku: 'ACM-TENT-2P-GRN', quantity: '24.0000' }),
        // Product attributes stay in staging: in the table, attributes is filled by warehouse integrations only (spec
        // document 002).
        line('REPL-1', 'eligible_products', 2, { sku: 'ACM-LAMP-HEAD-300', quantity: '100.0000' }),
        line('REPL-1', 'outbound_shipments', 1, {
          awd_replenishment_shipment_id: 'FBA-REPL-1-A',
          awd_replenishment_shipment_status: 'IN_TRANSIT',
        }),
        line('REPL-1', 'products', 1, { sku: 'ACM-TENT-2P-GRN', quantity: '20.0000' }),
        line('REPL-1', 'products', 2, { sku: 'ACM-LAMP-HEAD-300', quantity: '100.0000' }),
        line('REPL-1', 'shipped_products', 1, { sku: 'ACM-TENT-2P-GRN', quantity: '20.0000' }),
        line('REPL-2', 'distribution_ineligible_reasons', 1, {
          sku: 'ACM-COOLER-25Q',
          failure_code: 'INSUFFICIENT_INVENTORY',
          failure_reasons: ['Only 20 units available', 'Minimum not met'],
        }),
        line('REPL-2', 'products', 1, { sku: 'ACM-COOLER-25Q', quantity: '30.0000' }),
      ]);
      const staged = await rows(
        wh,
        `select line_item_source, attributes from staging.stg_mkt__awd_replenishment_order_line_items
        where attributes is not null order by all`,
      );
      expect(staged.map((r) => parsed(r, 'attributes'))).toEqual([
        { line_item_source: 'eligible_products', attributes: lot },
        { line_item_source: 'products', attributes: lot },
      ]);
      // Filtered by stage, never added: REPL-1 has 124 units eligible, 120 requested and 20 shipped.
      const stages = await rows(
        wh,
        `select line_item_source, sum(quantity)::int as units from marts.mkt_awd_replenishment_order_line_items
        where awd_replenishment_order_id = 'REPL-1' and quantity is not null group by all order by all`,
      );
      expect(stages).toEqual([
        { line_item_source: 'eligible_products', units: 124 },
        { line_item_source: 'products', units: 120 },
        { line_item_source: 'shipped_products', units: 20 },
      ]);
    });
  });

  describe('AWD inventory (awd.listInventory → staging.stg_mkt__awd_inventory)', () => {
    it('keeps the latest reported row of each SKU with its earliest expiration', async () => {
      await landAt('2026-10-01T12:00:00Z', 'awd.listInventory', 'inventory-1.json', {
        inventory: [
          {
            sku: 'ACM-TENT-2P-GRN',
            totalOnhandQuantity: 120,
            totalInboundQuantity: 40,
            inventoryDetails: {
              availableDistributableQuantity: 100,
              reservedDistributableQuantity: 20,
              replenishmentQuantity: 16,
            },
          },
          {
            sku: 'ACM-FILTER-SQZ',
            totalOnhandQuantity: 50,
            totalInboundQuantity: 0,
            inventoryDetails: {
              availableDistributableQuantity: 42,
              reservedDistributableQuantity: 8,
              replenishmentQuantity: 0,
            },
            expirationDetails: [
              { expiration: '2027-03-01T00:00:00Z', onhandQuantity: 30 },
              { expiration: '2026-12-01T00:00:00Z', onhandQuantity: 12 },
              { expiration: '2026-12-01T00:00:00Z', onhandQuantity: 8 },
            ],
          },
        ],
      });
      // A later snapshot (requested with details=HIDE) reports the tents again, without inventoryDetails.
      await landAt('2026-10-02T12:00:00Z', 'awd.listInventory', 'inventory-2.json', {
        inventory: [{ sku: 'ACM-TENT-2P-GRN', totalOnhandQuantity: 96, totalInboundQuantity: 40 }],
      });
      const results = await runModels(wh, { select: ['staging.stg_mkt__awd_inventory'] });
      expect(results.map((r) => `${r.model} ${r.status}`)).toEqual(['staging.stg_mkt__awd_inventory success']);
      const got = await rows(
        wh,
        `select * exclude (connection_id, marketplace_id, file_id, line_number) from staging.stg_mkt__awd_inventory order by sku`,
      );
      expect(got.map((r) => parsed(r, 'expirations'))).toEqual([
        {
          sku: 'ACM-FILTER-SQZ',
          total_onhand_quantity: '50.0000',
          total_inbound_quantity: '0.0000',
          available_distributable_quantity: '42.0000',
          reserved_distributable_quantity: '8.0000',
          reserved_quantity: '8.0000',
          replenishment_quantity: '0.0000',
          // The earliest of the three expirations, held by two entries: 12 + 8 units.
          next_expiration_at: '2026-12-01 00:00:00+00',
          next_expiration_quantity: '20.0000',
          expirations: [
            { expiration: '2027-03-01T00:00:00Z', onhandQuantity: 30 },
            { expiration: '2026-12-01T00:00:00Z', onhandQuantity: 12 },
            { expiration: '2026-12-01T00:00:00Z', onhandQuantity: 8 },
          ],
          last_seen_at: '2026-10-01 12:00:00+00',
        },
        {
          sku: 'ACM-TENT-2P-GRN',
          total_onhand_quantity: '96.0000',
          total_inbound_quantity: '40.0000',
          available_distributable_quantity: null,
          reserved_distributable_quantity: null,
          reserved_quantity: null,
          replenishment_quantity: null,
          next_expiration_at: null,
          next_expiration_quantity: null,
          expirations: null,
          last_seen_at: '2026-10-02 12:00:00+00',
        },
      ]);
    });
  });

  it('fills every AWD table from the bundled demo files without check findings', async () => {
    vi.setSystemTime(new Date('2026-10-16T04:30:00Z'));
    const demo = fileURLToPath(new URL('../../fixtures/demo/us/', import.meta.url));
    for (const source of [
      'awd.getInboundShipment',
      'awd.listOutbounds',
      'awd.listReplenishmentOrders',
      'awd.listInventory',
    ]) {
      for (const file of readdirSync(join(demo, source)))
        expect(await land(wh, source, US, join(demo, source, file))).toMatchObject({ status: 'landed' });
    }
    const tables = [
      'mkt_awd_inbound_shipments',
      'mkt_awd_inbound_shipment_line_items',
      'mkt_awd_outbound_orders',
      'mkt_awd_outbound_shipments',
      'mkt_awd_outbound_shipment_packages',
      'mkt_awd_replenishment_orders',
      'mkt_awd_replenishment_order_line_items',
    ];
    await build(...tables);
    for (const table of tables)
      expect((await rows(wh, `select count(*)::int as n from marts.${table}`))[0]!.n, table).toBeGreaterThan(0);
    await runModels(wh, { select: ['staging.stg_mkt__awd_inventory'] });
    expect((await rows(wh, `select count(*)::int as n from staging.stg_mkt__awd_inventory`))[0]!.n).toBe(6);
  });

  it('builds the AWD API sandbox samples into their tables', async () => {
    vi.setSystemTime(new Date('2026-10-16T04:30:00Z'));
    for (const [source, name] of [
      ['awd.getInboundShipment', 'getInboundShipment'],
      ['awd.listOutbounds', 'listOutbounds'],
      ['awd.listReplenishmentOrders', 'listReplenishmentOrders'],
      ['awd.listInventory', 'listInventory'],
    ] as const) {
      expect(await land(wh, source, US, sample(name))).toMatchObject({ status: 'landed' });
    }
    await build(
      'mkt_awd_inbound_shipments',
      'mkt_awd_inbound_shipment_line_items',
      'mkt_awd_outbound_orders',
      'mkt_awd_outbound_shipments',
      'mkt_awd_outbound_shipment_packages',
      'mkt_awd_replenishment_orders',
      'mkt_awd_replenishment_order_line_items',
    );
    const counts = await rows(
      wh,
      `
      select 'inbound' as t, count(*)::int as n from marts.mkt_awd_inbound_shipments
      union all select 'inbound lines', count(*)::int from marts.mkt_awd_inbound_shipment_line_items
      union all select 'outbound', count(*)::int from marts.mkt_awd_outbound_orders
      union all select 'outbound shipments', count(*)::int from marts.mkt_awd_outbound_shipments
      union all select 'packages', count(*)::int from marts.mkt_awd_outbound_shipment_packages
      union all select 'replenishment', count(*)::int from marts.mkt_awd_replenishment_orders
      union all select 'replenishment lines', count(*)::int from marts.mkt_awd_replenishment_order_line_items`,
    );
    // The sandbox's outbound and replenishment orders have only empty lists.
    expect(counts).toEqual([
      { t: 'inbound', n: 1 },
      { t: 'inbound lines', n: 1 },
      { t: 'outbound', n: 1 },
      { t: 'outbound shipments', n: 0 },
      { t: 'packages', n: 0 },
      { t: 'replenishment', n: 1 },
      { t: 'replenishment lines', n: 0 },
    ]);
    expect(
      await rows(
        wh,
        `select awd_inbound_shipment_id, awd_inbound_shipment_status, date from marts.mkt_awd_inbound_shipments`,
      ),
    ).toEqual([
      // 12:12 UTC on 7 June 2023 is the same day in Los Angeles.
      { awd_inbound_shipment_id: 'TestShipmentId', awd_inbound_shipment_status: 'CREATED', date: '2023-06-07' },
    ]);
    expect(
      await rows(wh, `select sku, expected_quantity, date from marts.mkt_awd_inbound_shipment_line_items`),
    ).toEqual([
      // Landed 04:30 UTC on 16 October 2026: 15 October in Los Angeles.
      { sku: 'testPen', expected_quantity: '{"quantity":2,"unitOfMeasurement":"CASES"}', date: '2026-10-15' },
    ]);
    // The sample order has no createdAt: it is dated by its first landing.
    expect(
      await rows(
        wh,
        `select awd_outbound_order_id, awd_outbound_order_status, products_to_outbound, date from marts.mkt_awd_outbound_orders`,
      ),
    ).toEqual([
      {
        awd_outbound_order_id: 'TEST_ORDER_ID',
        awd_outbound_order_status: 'SUCCESS',
        products_to_outbound: '[]',
        date: '2026-10-15',
      },
    ]);
    expect(
      await rows(
        wh,
        `select awd_replenishment_order_id, awd_replenishment_order_status, confirmed_on, date from marts.mkt_awd_replenishment_orders`,
      ),
    ).toEqual([
      {
        awd_replenishment_order_id: 'TEST_ORDER_ID',
        awd_replenishment_order_status: 'SUCCESS',
        confirmed_on: '2024-08-11 23:20:50.52',
        date: '2024-08-10',
      },
    ]);
    await runModels(wh, { select: ['staging.stg_mkt__awd_inventory'] });
    expect(
      await rows(
        wh,
        `select sku, total_onhand_quantity, total_inbound_quantity, next_expiration_at, next_expiration_quantity from staging.stg_mkt__awd_inventory order by sku`,
      ),
    ).toEqual([
      {
        sku: '100TestSKU1Pen',
        total_onhand_quantity: '20.0000',
        total_inbound_quantity: '10.0000',
        next_expiration_at: '2027-01-12 10:00:00+00',
        next_expiration_quantity: '10.0000',
      },
      {
        sku: '2U-BKEX-VW4D',
        total_onhand_quantity: '20.0000',
        total_inbound_quantity: '5.0000',
        next_expiration_at: '2027-01-12 10:00:00+00',
        next_expiration_quantity: '20.0000',
      },
    ]);
  });
});
