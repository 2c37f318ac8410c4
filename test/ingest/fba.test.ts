import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Warehouse } from '../../src/db/warehouse.ts';
import {
  fulfilledShipmentsHeader as shipmentsHeader,
  recommendedRemovalsHeader,
  removalOrdersHeader,
  strandedInventoryHeader,
  tsv,
} from '../helpers/fba-reports.ts';
import { land, makeHome, rows, US, DE } from '../helpers/home.ts';

const sample = fileURLToPath(
  new URL(
    '../../fixtures/upstream-samples/fulfillmentInbound_2024-03-20.listInboundPlans.example.json',
    import.meta.url,
  ),
);

const shipped = {
  'amazon-order-id': '111-0000001-0000001',
  'shipment-id': 'DsHt1kq2B',
  'shipment-item-id': 'DQ3lN1zJ1',
  'amazon-order-item-id': '11111111111111',
  'shipment-date': '2026-03-01T07:30:00+00:00',
  sku: 'ACM-TENT-2P-GRN',
  'product-name': 'Acme Ridgeline 2-Person Backpacking Tent, Green',
  'quantity-shipped': '1',
  currency: 'USD',
  'item-price': '199.99',
};

describe('ingest FBA reports (flat files)', () => {
  let wh: Warehouse;
  let dir: string;
  beforeEach(async () => ({ wh, dir } = await makeHome()));
  afterEach(async () => wh.close());

  it('maps the fulfilled shipments header by name, in any order, and keeps unknown columns as JSON', async () => {
    // The tax-invoicing variant adds columns; here one extra column, and the header order is shuffled.
    const header = [...shipmentsHeader].reverse().concat('vat-registration-number');
    const file = tsv(dir, 'shipments.tsv', header, [
      {
        ...shipped,
        'item-promotion-discount': '-5,00',
        'buyer-email': 'abc@marketplace.amazon.de',
        'vat-registration-number': 'DE123',
      },
    ]);
    expect(await land(wh, 'GET_AMAZON_FULFILLED_SHIPMENTS_DATA_GENERAL', DE, file)).toMatchObject({
      status: 'landed',
      rows: 1,
    });
    const got = await rows(
      wh,
      `select amazon_order_id, shipment_item_id, quantity_shipped, item_price, item_promotion_discount, buyer_email,
      shipment_date::varchar as shipment_date, _extra, _line_number, _marketplace_id from raw.get_amazon_fulfilled_shipments_data_general`,
    );
    expect(got).toEqual([
      {
        amazon_order_id: '111-0000001-0000001',
        shipment_item_id: 'DQ3lN1zJ1',
        quantity_shipped: '1',
        item_price: '199.9900',
        item_promotion_discount: '-5.0000',
        buyer_email: 'abc@marketplace.amazon.de',
        shipment_date: '2026-03-01 07:30:00+00',
        _extra: '{"vat-registration-number":"DE123"}',
        _line_number: '2',
        _marketplace_id: DE.marketplaceId,
      },
    ]);
  });

  it('refuses a fulfilled shipments file with a bad date whole, naming the line and the column', async () => {
    const file = tsv(dir, 'bad.tsv', shipmentsHeader, [
      shipped,
      { ...shipped, 'shipment-item-id': 'DQ3lN1zJ2', 'shipment-date': 'yesterday' },
    ]);
    const result = await land(wh, 'GET_AMAZON_FULFILLED_SHIPMENTS_DATA_GENERAL', US, file);
    expect(result).toMatchObject({
      status: 'refused',
      line: 3,
      reason: 'shipment-date: yesterday is not a valid timestamp',
    });
    expect(await rows(wh, 'select count(*)::int as n from raw.get_amazon_fulfilled_shipments_data_general')).toEqual([
      { n: 0 },
    ]);
  });

  it('refuses a fulfilled shipments file without a shipment item id column', async () => {
    const file = tsv(
      dir,
      'no-item-id.tsv',
      shipmentsHeader.filter((h) => h !== 'shipment-item-id'),
      [shipped],
    );
    const result = await land(wh, 'GET_AMAZON_FULFILLED_SHIPMENTS_DATA_GENERAL', US, file);
    expect(result).toMatchObject({ status: 'refused', line: 1 });
    expect((result as { reason: string }).reason).toMatch(
      /^missing column\(s\) shipment-item-id; the header has: amazon-order-id/,
    );
  });

  it('reads the removal order detail report, with and without order-source', async () => {
    const header = removalOrdersHeader.filter((h) => h !== 'order-source');
    const line = {
      'request-date': '2026-03-01T06:00:00+00:00',
      'order-id': 'R-1',
      'order-type': 'Return',
      'order-status': 'Completed',
      'last-updated-date': '2026-03-05T18:00:00+00:00',
      sku: 'ACM-TENT-2P-GRN',
      fnsku: 'X0080T9W7T',
      disposition: 'Sellable',
      'requested-quantity': '5',
      'shipped-quantity': '4',
      'cancelled-quantity': '1',
      'disposed-quantity': '0',
      'in-process-quantity': '0',
      'removal-fee': '2.16',
      currency: 'USD',
    };
    await land(wh, 'GET_FBA_FULFILLMENT_REMOVAL_ORDER_DETAIL_DATA', US, tsv(dir, 'a.tsv', header, [line]));
    await land(
      wh,
      'GET_FBA_FULFILLMENT_REMOVAL_ORDER_DETAIL_DATA',
      US,
      tsv(
        dir,
        'b.tsv',
        [...header, 'order-source'],
        [{ ...line, 'order-id': 'R-2', 'order-source': 'Seller-initiated Manual Removal' }],
      ),
    );
    expect(
      await rows(
        wh,
        `select order_id, order_source, requested_quantity, shipped_quantity, removal_fee, _extra from raw.get_fba_fulfillment_removal_order_detail_data order by order_id`,
      ),
    ).toEqual([
      {
        order_id: 'R-1',
        order_source: null,
        requested_quantity: '5',
        shipped_quantity: '4',
        removal_fee: '2.1600',
        _extra: null,
      },
      {
        order_id: 'R-2',
        order_source: 'Seller-initiated Manual Removal',
        requested_quantity: '5',
        shipped_quantity: '4',
        removal_fee: '2.1600',
        _extra: null,
      },
    ]);
  });

  it('reads the removal shipment header as the help page writes it (removal-date, quantity shipped)', async () => {
    const header = [
      'removal-date',
      'order-id',
      'shipment-date',
      'sku',
      'fnsku',
      'disposition',
      'quantity shipped',
      'carrier',
      'tracking-number',
      'removal-order-type',
    ];
    const file = tsv(dir, 'shipments.tsv', header, [
      {
        'removal-date': '2026-03-01T06:00:00+00:00',
        'order-id': 'R-1',
        'shipment-date': '2026-03-04T20:00:00+00:00',
        sku: 'ACM-TENT-2P-GRN',
        fnsku: 'X0080T9W7T',
        disposition: 'Sellable',
        'quantity shipped': '3',
        carrier: 'UPS',
        'tracking-number': '1Z0000000000000001',
        'removal-order-type': 'Return',
      },
    ]);
    expect(await land(wh, 'GET_FBA_FULFILLMENT_REMOVAL_SHIPMENT_DETAIL_DATA', US, file)).toMatchObject({
      status: 'landed',
      rows: 1,
    });
    expect(
      await rows(
        wh,
        `select request_date::varchar as request_date, shipped_quantity, tracking_number from raw.get_fba_fulfillment_removal_shipment_detail_data`,
      ),
    ).toEqual([
      { request_date: '2026-03-01 06:00:00+00', shipped_quantity: '3', tracking_number: '1Z0000000000000001' },
    ]);
  });

  it('reads the recommended removal age bucket written sellable-365+-days', async () => {
    const file = tsv(dir, 'recommended.tsv', recommendedRemovalsHeader, [
      {
        'snapshot-date': '2026-03-10T07:00:00+00:00',
        sku: 'ACM-TENT-2P-GRN',
        fnsku: 'X0080T9W7T',
        asin: 'B08FCHRZNY',
        'product-name': 'Tent',
        condition: 'New',
        'sellable-quantity': '40',
        'sellable-365+-days': '7',
        'sellable-removal-quantity': '7',
      },
    ]);
    await land(wh, 'GET_FBA_RECOMMENDED_REMOVAL_DATA', US, file);
    expect(
      await rows(
        wh,
        `select sellable_quantity, sellable_365_plus_days, sellable_271_365_days, _extra from raw.get_fba_recommended_removal_data`,
      ),
    ).toEqual([{ sellable_quantity: '40', sellable_365_plus_days: '7', sellable_271_365_days: null, _extra: null }]);
  });

  it('reads the stranded inventory header with its capitalized column and keeps the newer program column', async () => {
    const header = [...strandedInventoryHeader, 'program'];
    const file = tsv(dir, 'stranded.tsv', header, [
      {
        'Date-to-take-auto-removal': '2026-04-15T12:00:00+00:00',
        asin: 'B08FCHRZNY',
        sku: 'ACM-TENT-2P-GRN',
        fnsku: 'X0080T9W7T',
        'product-name': 'Tent',
        'fulfillable-qty': '3',
        'your-price': '199.99',
        program: 'FBA',
      },
    ]);
    await land(wh, 'GET_STRANDED_INVENTORY_UI_DATA', US, file);
    expect(
      await rows(
        wh,
        `select date_to_take_auto_removal::varchar as removal, fulfillable_qty, your_price, _extra from raw.get_stranded_inventory_ui_data`,
      ),
    ).toEqual([
      { removal: '2026-04-15 12:00:00+00', fulfillable_qty: '3', your_price: '199.9900', _extra: '{"program":"FBA"}' },
    ]);
  });
});

describe('ingest fulfillmentInbound.shipments', () => {
  let wh: Warehouse;
  let dir: string;
  beforeEach(async () => ({ wh, dir } = await makeHome()));
  afterEach(async () => wh.close());

  const write = (name: string, document: unknown) => {
    const path = join(dir, name);
    writeFileSync(path, JSON.stringify(document));
    return path;
  };

  it('lands the real listInboundPlans sample as one plan record per plan', async () => {
    expect(await land(wh, 'fulfillmentInbound.shipments', US, sample)).toMatchObject({ status: 'landed', rows: 2 });
    const got = await rows(
      wh,
      `select record_type, inbound_plan_id, plan_name, plan_status, plan_created_at::varchar as created, plan_marketplace_ids,
      source_address ->> 'city' as city, shipment_id, _extra, _line_number from raw.fulfillment_inbound_shipments order by _line_number`,
    );
    expect(got).toEqual([
      {
        record_type: 'plan',
        inbound_plan_id: 'wf1234abcd-1234-abcd-5678-1234abcd5678',
        plan_name: 'FBA (03/08/2023, 01:15 PM)',
        plan_status: 'ACTIVE',
        created: '2023-03-08 13:15:30+00',
        plan_marketplace_ids: '["A2EUQ1WTGCTBG2"]',
        city: 'Toronto',
        shipment_id: null,
        _extra: null,
        _line_number: '1',
      },
      {
        record_type: 'plan',
        inbound_plan_id: 'wf2234abcd-1234-abcd-5678-1234abcd5678',
        plan_name: 'FBA (03/08/2023, 01:15 PM)',
        plan_status: 'ACTIVE',
        created: '2023-03-08 13:15:30+00',
        plan_marketplace_ids: '["A2EUQ1WTGCTBG2"]',
        city: 'Ann Arbor',
        shipment_id: null,
        _extra: null,
        _line_number: '2',
      },
    ]);
  });

  it('lands a plan bundle as plan, shipment and item records, keeping unknown fields', async () => {
    const file = write('bundle.json', {
      inboundPlan: {
        inboundPlanId: 'wf-1',
        status: 'ACTIVE',
        marketplaceIds: ['ATVPDKIKX0DER'],
        packingOptions: [],
        shipments: [{ shipmentId: 'sh-2', status: 'WORKING' }],
      },
      shipments: [
        {
          shipment: {
            shipmentId: 'sh-1',
            status: 'SHIPPED',
            placementOptionId: 'pl-1',
            destination: { destinationType: 'AMAZON_WAREHOUSE', warehouseId: 'ONT8' },
            trackingDetails: { spdTrackingDetail: {} },
            dates: { readyToShipWindow: { start: '2026-03-05T07:30Z' } },
          },
          items: [
            {
              items: [
                {
                  msku: 'ACM-TENT-2P-GRN',
                  fnsku: 'X0080T9W7T',
                  asin: 'B08FCHRZNY',
                  quantity: 12,
                  labelOwner: 'SELLER',
                  prepInstructions: [],
                  fnskuLabel: 'x',
                },
              ],
              pagination: { nextToken: 't' },
            },
            {
              items: [
                {
                  msku: 'ACM-MUG-12-BLK-FBA',
                  fnsku: 'X00BXG95U5',
                  asin: 'B05JYC0Q2J',
                  quantity: 24,
                  labelOwner: 'AMAZON',
                  expiration: '2027-01-31',
                  prepInstructions: [{ prepType: 'ITEM_POLYBAGGING', prepOwner: 'AMAZON' }],
                },
              ],
            },
          ],
        },
        // No status in getShipment: the plan's shipment summary gives it; no items response yet.
        {
          shipment: {
            shipmentId: 'sh-2',
            placementOptionId: 'pl-1',
            destination: { destinationType: 'AMAZON_OPTIMIZED' },
          },
        },
      ],
    });
    expect(await land(wh, 'fulfillmentInbound.shipments', US, file)).toMatchObject({ status: 'landed', rows: 5 });
    const landed = await rows(
      wh,
      `select record_type, inbound_plan_id, shipment_id, shipment_status, destination_warehouse_id, ready_to_ship_window_start::varchar as rts,
      msku, quantity, expiration::varchar as expiration, prep_instructions, _extra from raw.fulfillment_inbound_shipments order by _line_number`,
    );
    // _extra compared as parsed JSON: its key order is not part of the contract.
    const got = landed.map((r) => ({ ...r, _extra: r._extra === null ? null : JSON.parse(String(r._extra)) }));
    expect(got).toEqual([
      {
        record_type: 'plan',
        inbound_plan_id: 'wf-1',
        shipment_id: null,
        shipment_status: null,
        destination_warehouse_id: null,
        rts: null,
        msku: null,
        quantity: null,
        expiration: null,
        prep_instructions: null,
        _extra: { 'plan.packingOptions': [], 'plan.shipments': [{ shipmentId: 'sh-2', status: 'WORKING' }] },
      },
      {
        record_type: 'shipment',
        inbound_plan_id: 'wf-1',
        shipment_id: 'sh-1',
        shipment_status: 'SHIPPED',
        destination_warehouse_id: 'ONT8',
        rts: '2026-03-05 07:30:00+00',
        msku: null,
        quantity: null,
        expiration: null,
        prep_instructions: null,
        _extra: {
          'shipment.destination': { destinationType: 'AMAZON_WAREHOUSE', warehouseId: 'ONT8' },
          'shipment.trackingDetails': { spdTrackingDetail: {} },
          'shipment.dates': { readyToShipWindow: { start: '2026-03-05T07:30Z' } },
        },
      },
      {
        record_type: 'item',
        inbound_plan_id: 'wf-1',
        shipment_id: 'sh-1',
        shipment_status: null,
        destination_warehouse_id: null,
        rts: null,
        msku: 'ACM-TENT-2P-GRN',
        quantity: '12',
        expiration: null,
        prep_instructions: '[]',
        _extra: { 'item.fnskuLabel': 'x' },
      },
      {
        record_type: 'item',
        inbound_plan_id: 'wf-1',
        shipment_id: 'sh-1',
        shipment_status: null,
        destination_warehouse_id: null,
        rts: null,
        msku: 'ACM-MUG-12-BLK-FBA',
        quantity: '24',
        expiration: '2027-01-31',
        prep_instructions: '[{"prepType":"ITEM_POLYBAGGING","prepOwner":"AMAZON"}]',
        _extra: null,
      },
      {
        record_type: 'shipment',
        inbound_plan_id: 'wf-1',
        shipment_id: 'sh-2',
        shipment_status: 'WORKING',
        destination_warehouse_id: null,
        rts: null,
        msku: null,
        quantity: null,
        expiration: null,
        prep_instructions: null,
        _extra: { 'shipment.destination': { destinationType: 'AMAZON_OPTIMIZED' } },
      },
    ]);
  });

  it('refuses a bundle whose item lacks a required field, naming where', async () => {
    const file = write('bad.json', {
      inboundPlan: { inboundPlanId: 'wf-1' },
      shipments: [
        {
          shipment: { shipmentId: 'sh-1', status: 'WORKING' },
          items: { items: [{ msku: 'A', fnsku: 'X', asin: 'B', quantity: '3', labelOwner: 'SELLER' }] },
        },
      ],
    });
    const result = await land(wh, 'fulfillmentInbound.shipments', US, file);
    expect(result).toMatchObject({ status: 'refused', line: null });
    expect((result as { reason: string }).reason).toMatch(
      /^not a valid plan bundle: shipments\.0\.items\.0\.items\.0\.quantity: Invalid input: expected number, received string$/,
    );
    expect(await rows(wh, 'select count(*)::int as n from raw.fulfillment_inbound_shipments')).toEqual([{ n: 0 }]);
  });

  it('refuses a shipment without a status and a document of another API', async () => {
    const noStatus = write('no-status.json', {
      inboundPlan: { inboundPlanId: 'wf-1' },
      shipments: [{ shipment: { shipmentId: 'sh-9' } }],
    });
    expect(await land(wh, 'fulfillmentInbound.shipments', US, noStatus)).toMatchObject({
      status: 'refused',
      reason: "shipments[0].shipment: shipment sh-9 has no status, neither in getShipment nor in the plan's shipments",
    });
    const other = write('other.json', { shipments: [{ shipmentId: 'sh-1' }] });
    const result = await land(wh, 'fulfillmentInbound.shipments', US, other);
    expect((result as { reason: string }).reason).toMatch(
      /^the document is not a Fulfillment Inbound 2024-03-20 payload/,
    );
  });
});
