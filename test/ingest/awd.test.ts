import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import type { Warehouse } from '../../src/db/warehouse.ts';
import { land, makeHome, rows, US } from '../helpers/home.ts';
import { writeJson } from '../helpers/profit.ts';

const sample = (name: string) =>
  fileURLToPath(new URL(`../../fixtures/upstream-samples/awd_2024-05-09.${name}.example.json`, import.meta.url));
const count = async (wh: Warehouse, table: string) => (await rows(wh, `select count(*)::int as n from ${table}`))[0]?.n;

describe('ingest awd.* (AWD API 2024-05-09 responses)', () => {
  let wh: Warehouse;
  let dir: string;
  beforeEach(async () => ({ wh, dir } = await makeHome()));
  afterEach(async () => wh.close());

  it('lands the sandbox getInboundShipment response as one row, nested objects as JSON text', async () => {
    expect(await land(wh, 'awd.getInboundShipment', US, sample('getInboundShipment'))).toMatchObject({
      status: 'landed',
      rows: 1,
    });
    const [row] = await rows(
      wh,
      `select shipment_id, order_id, shipment_status, timezone('UTC', created_at)::varchar as created_utc,
        json_extract_string(destination_address, '$.name') as destination_name, json_array_length(shipment_sku_quantities::json) as sku_lines,
        json_extract_string(shipment_sku_quantities, '$[0].expectedQuantity.unitOfMeasurement') as unit, _extra, _line_number, _marketplace_id
      from raw.awd_get_inbound_shipment`,
    );
    expect(row).toEqual({
      shipment_id: 'TestShipmentId',
      order_id: 'TestOrderId',
      shipment_status: 'CREATED',
      created_utc: '2023-06-07 12:12:09.061',
      // The sandbox's singular CASE is landed as delivered; staging names it CASES.
      destination_name: 'DestinationName',
      sku_lines: '1',
      unit: 'CASE',
      _extra: null,
      _line_number: '1',
      _marketplace_id: US.marketplaceId,
    });
  });

  it('lands the sandbox listOutbounds, listReplenishmentOrders and listInventory responses, one row per record', async () => {
    expect(await land(wh, 'awd.listOutbounds', US, sample('listOutbounds'))).toMatchObject({
      status: 'landed',
      rows: 1,
    });
    expect(await land(wh, 'awd.listReplenishmentOrders', US, sample('listReplenishmentOrders'))).toMatchObject({
      status: 'landed',
      rows: 1,
    });
    expect(await land(wh, 'awd.listInventory', US, sample('listInventory'))).toMatchObject({
      status: 'landed',
      rows: 2,
    });
    expect(
      await rows(
        wh,
        `select order_id, order_status, outbound_shipments, packages_to_outbound from raw.awd_list_outbounds`,
      ),
    ).toEqual([
      { order_id: 'TEST_ORDER_ID', order_status: 'SUCCESS', outbound_shipments: '[]', packages_to_outbound: '[]' },
    ]);
    expect(
      await rows(
        wh,
        `select order_id, status, timezone('UTC', confirmed_on)::varchar as confirmed_utc, updated_at from raw.awd_list_replenishment_orders`,
      ),
    ).toEqual([
      { order_id: 'TEST_ORDER_ID', status: 'SUCCESS', confirmed_utc: '2024-08-11 23:20:50.52', updated_at: null },
    ]);
    expect(
      await rows(
        wh,
        `select _line_number, sku, total_onhand_quantity, total_inbound_quantity from raw.awd_list_inventory order by _line_number`,
      ),
    ).toEqual([
      { _line_number: '1', sku: '100TestSKU1Pen', total_onhand_quantity: '20', total_inbound_quantity: '10' },
      { _line_number: '2', sku: '2U-BKEX-VW4D', total_onhand_quantity: '20', total_inbound_quantity: '5' },
    ]);
  });

  it('keeps unknown fields of a record in _extra and ignores the nextToken of a page', async () => {
    const page = {
      inventory: [{ sku: 'ACM-TENT-2P-GRN', totalOnhandQuantity: 40, storageRegion: 'us-west' }],
      nextToken: 'page-2',
    };
    expect(await land(wh, 'awd.listInventory', US, writeJson(dir, 'inventory-page-1.json', page))).toMatchObject({
      status: 'landed',
      rows: 1,
    });
    expect(
      await rows(
        wh,
        `select sku, total_onhand_quantity, total_inbound_quantity, inventory_details, _extra from raw.awd_list_inventory`,
      ),
    ).toEqual([
      {
        sku: 'ACM-TENT-2P-GRN',
        total_onhand_quantity: '40',
        total_inbound_quantity: null,
        inventory_details: null,
        _extra: '{"storageRegion":"us-west"}',
      },
    ]);
  });

  it('lands an empty page (no record array, or an empty one) as zero rows, gzip or not', async () => {
    expect(await land(wh, 'awd.listOutbounds', US, writeJson(dir, 'empty.json', { nextToken: 'abc' }))).toMatchObject({
      status: 'landed',
      rows: 0,
    });
    expect(
      await land(
        wh,
        'awd.listReplenishmentOrders',
        US,
        writeJson(dir, 'empty.json.gz', { orders: [] }, { gzip: true }),
      ),
    ).toMatchObject({ status: 'landed', rows: 0 });
  });

  it('refuses a whole response when a record misses its id, naming record and field, and lands none of it', async () => {
    const orders = { outboundOrders: [{ orderId: 'OUT-1', orderStatus: 'DRAFT' }, { orderStatus: 'DRAFT' }] };
    const result = await land(wh, 'awd.listOutbounds', US, writeJson(dir, 'outbounds.json', orders));
    expect(result).toMatchObject({ status: 'refused', line: 2 });
    expect(result.status === 'refused' && result.reason).toMatch(/^record 2: orderId: /);
    expect(await count(wh, 'raw.awd_list_outbounds')).toBe(0);
    expect(await rows(wh, `select source, line::int as line from control.quarantined_files`)).toEqual([
      { source: 'awd.listOutbounds', line: 2 },
    ]);
  });

  it('refuses a nested timestamp or quantity that does not parse, with its path', async () => {
    const shipment = {
      outboundOrders: [
        { orderId: 'OUT-1', outboundShipments: [{ shipmentId: 'S-1', createdAt: '2026-13-01T00:00:00Z' }] },
      ],
    };
    const timestamp = await land(wh, 'awd.listOutbounds', US, writeJson(dir, 'bad-time.json', shipment));
    expect(timestamp.status === 'refused' && timestamp.reason).toBe(
      'record 1: outboundShipments[0].createdAt: Invalid ISO datetime',
    );

    const quantity = {
      shipmentId: 'IN-1',
      shipmentSkuQuantities: [
        { sku: 'ACM-TENT-2P-GRN', expectedQuantity: { quantity: '12', unitOfMeasurement: 'PRODUCT_UNITS' } },
      ],
    };
    const refused = await land(wh, 'awd.getInboundShipment', US, writeJson(dir, 'bad-quantity.json', quantity));
    expect(refused.status === 'refused' && refused.reason).toBe(
      'record 1: shipmentSkuQuantities[0].expectedQuantity.quantity: Invalid input: expected number, received string',
    );
  });

  it("refuses an error response and another operation's response", async () => {
    const error = { errors: [{ code: 'InvalidInput', message: 'Invalid value: UNKNOWN passed for sort order.' }] };
    const refused = await land(wh, 'awd.listInventory', US, writeJson(dir, 'error.json', error));
    expect(refused.status === 'refused' && refused.reason).toBe(
      'an error response of the AWD API, not data: InvalidInput Invalid value: UNKNOWN passed for sort order.',
    );

    const wrong = await land(wh, 'awd.listOutbounds', US, sample('listInventory'));
    expect(wrong.status === 'refused' && wrong.reason).toBe(
      'not an AWD listOutbounds response: no outboundOrders array (fields: inventory)',
    );
    const list = await land(wh, 'awd.getInboundShipment', US, sample('listInboundShipments'));
    expect(list.status === 'refused' && list.reason).toMatch(/^record 1: shipmentId: /);
  });
});
