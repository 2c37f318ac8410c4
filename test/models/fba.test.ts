import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Warehouse } from '../../src/db/warehouse.ts';
import { runModels } from '../../src/models/run-models.ts';
import {
  fulfilledShipmentsHeader,
  recommendedRemovalsHeader,
  removalOrdersHeader,
  removalShipmentsHeader,
  strandedInventoryHeader,
  tsv,
} from '../helpers/fba-reports.ts';
import { land, makeHome, rows, US, DE } from '../helpers/home.ts';

async function build(wh: Warehouse, table: string) {
  const results = await runModels(wh, { select: [table] });
  expect(results.filter((r) => r.status !== 'success' || r.findings.length > 0)).toEqual([]);
}

const usContext = {
  marketplace_id: 'ATVPDKIKX0DER',
  marketplace_country_code: 'US',
  marketplace_country_name: 'United States',
  seller_or_vendor_id: US.id,
  seller_or_vendor_name: 'Test US',
  marketplace_seller_id: 'SELLERUS',
};
const deContext = {
  marketplace_id: 'A1PA6795UKMFR9',
  marketplace_country_code: 'DE',
  marketplace_country_name: 'Germany',
  seller_or_vendor_id: DE.id,
  seller_or_vendor_name: 'Test DE',
  marketplace_seller_id: null,
};

describe('mkt_fba_shipments', () => {
  let wh: Warehouse;
  let dir: string;
  beforeEach(async () => ({ wh, dir } = await makeHome()));
  afterEach(async () => wh.close());

  const SOURCE = 'GET_AMAZON_FULFILLED_SHIPMENTS_DATA_GENERAL';
  const tent = {
    'amazon-order-id': '111-0000001-0000001',
    'shipment-id': 'DsHt1kq2B',
    'shipment-item-id': 'DQ3lN1zJ1',
    'amazon-order-item-id': '11111111111111',
    'purchase-date': '2026-02-28T23:10:00+00:00',
    'payments-date': '2026-03-01T01:00:00+00:00',
    'shipment-date': '2026-03-01T07:30:00+00:00',
    'reporting-date': '2026-03-01T10:00:00-07:00',
    'buyer-email': 'jane@marketplace.amazon.com',
    'buyer-name': 'Jane Doe',
    sku: 'ACM-TENT-2P-GRN',
    'product-name': 'Acme Ridgeline 2-Person Backpacking Tent, Green',
    'quantity-shipped': '2',
    currency: 'USD',
    'item-price': '399.98',
    'item-tax': '32.00',
    'shipping-price': '5.99',
    'shipping-tax': '0.48',
    'gift-wrap-price': '0.00',
    'gift-wrap-tax': '0.00',
    'ship-service-level': 'Expedited',
    'recipient-name': 'Jane Doe',
    'ship-address-1': '1 Main St',
    'ship-address-2': 'Apt 5',
    'ship-city': 'SEATTLE',
    'ship-state': 'WA',
    'ship-postal-code': '98101-1234',
    'ship-country': 'US',
    'item-promotion-discount': '-20.00',
    'ship-promotion-discount': '-5.99',
    carrier: 'AMZN_US',
    'tracking-number': 'TBA000000000001',
    'estimated-arrival-date': '2026-03-04T04:00:00+00:00',
    'fulfillment-center-id': 'ONT8',
    'fulfillment-channel': 'AFN',
    'sales-channel': 'Amazon.com',
  };

  it('keeps the latest landed version of a line and dates every column in the marketplace timezone', async () => {
    const mug = {
      'amazon-order-id': '111-0000002-0000002',
      'shipment-id': 'DsHt2',
      'shipment-item-id': 'DQi3',
      'amazon-order-item-id': '22222222222222',
      'shipment-date': '2026-03-01T08:30:00+00:00',
      sku: 'ACM-MUG-12-BLK-FBA',
      'product-name': 'Trail Mug 12" Steel, Black',
      'quantity-shipped': '1',
      currency: 'USD',
      'item-price': '24.99',
    };
    await land(wh, SOURCE, US, tsv(dir, 'v1.tsv', fulfilledShipmentsHeader, [tent, mug]));
    // A later report over an overlapping range: the carrier changed.
    await land(
      wh,
      SOURCE,
      US,
      tsv(dir, 'v2.tsv', fulfilledShipmentsHeader, [
        { ...tent, carrier: 'UPS', 'tracking-number': '1Z999AA10123456784' },
      ]),
    );
    await build(wh, 'mkt_fba_shipments');
    const got = await rows(wh, `select * from marts.mkt_fba_shipments order by date`);
    expect(got).toEqual([
      {
        ...usContext,
        // 07:30 UTC on 1 March is 23:30 on 28 February in Los Angeles (PST, UTC-8).
        date: '2026-02-28',
        shipment_item_id: 'DQ3lN1zJ1',
        mkt_order_id: '111-0000001-0000001',
        merchant_order_id: null,
        shipment_id: 'DsHt1kq2B',
        mkt_order_item_id: '11111111111111',
        merchant_order_item_id: null,
        purchase_date: '2026-02-28', // 23:10 UTC on 28 Feb is 15:10 PST
        payments_date: '2026-02-28', // 01:00 UTC on 1 Mar is 17:00 PST on 28 Feb
        shipment_date: '2026-02-28',
        reporting_date: '2026-03-01', // 10:00 at UTC-7 is 17:00 UTC, 09:00 PST
        buyer_email: 'jane@marketplace.amazon.com',
        buyer_name: 'Jane Doe',
        buyer_phone_number: null,
        sku: 'ACM-TENT-2P-GRN',
        product_name: 'Acme Ridgeline 2-Person Backpacking Tent, Green',
        quantity_shipped: '2.0000',
        currency: 'USD',
        item_price: '399.9800',
        item_tax: '32.0000',
        shipping_price: '5.9900',
        shipping_tax: '0.4800',
        gift_wrap_price: '0.0000',
        gift_wrap_tax: '0.0000',
        ship_service_level: 'Expedited',
        recipient_name: 'Jane Doe',
        ship_address_1: '1 Main St',
        ship_address_2: 'Apt 5',
        ship_address_3: null,
        ship_city: 'SEATTLE',
        ship_state: 'WA',
        ship_postal_code: '98101-1234',
        ship_country: 'US',
        ship_phone_number: null,
        bill_address_1: null,
        bill_address_2: null,
        bill_address_3: null,
        bill_city: null,
        bill_state: null,
        bill_postal_code: null,
        bill_country: null,
        item_promotion_discount: '20.0000',
        ship_promotion_discount: '5.9900', // magnitudes
        carrier: 'UPS',
        fba_shipment_tracking_number: '1Z999AA10123456784',
        estimated_arrival_date: '2026-03-03', // 04:00 UTC on 4 Mar is 20:00 PST on 3 Mar
        fulfillment_center_id: 'ONT8',
        fulfillment_channel: 'AFN',
        sales_channel: 'Amazon.com',
      },
      // 08:30 UTC is 00:30 PST on 1 March; the product name keeps its double quote (unquoted flat file).
      expect.objectContaining({
        date: '2026-03-01',
        shipment_item_id: 'DQi3',
        product_name: 'Trail Mug 12" Steel, Black',
        item_price: '24.9900',
        carrier: null,
      }),
    ]);
  });

  it('dates a German line in Berlin time and reads its decimal comma', async () => {
    const line = {
      ...tent,
      'shipment-date': '2026-07-01T22:00:00+00:00',
      currency: 'EUR',
      'item-price': '24,99',
      'item-promotion-discount': '',
      'ship-promotion-discount': '',
    };
    await land(wh, SOURCE, DE, tsv(dir, 'de.tsv', fulfilledShipmentsHeader, [line]));
    await build(wh, 'mkt_fba_shipments');
    // 22:00 UTC on 1 July is midnight on 2 July in Berlin (CEST, UTC+2).
    expect(
      await rows(
        wh,
        `select marketplace_id, marketplace_country_code, marketplace_country_name, seller_or_vendor_id, seller_or_vendor_name, marketplace_seller_id,
      date, currency, item_price, item_promotion_discount from marts.mkt_fba_shipments`,
      ),
    ).toEqual([
      { ...deContext, date: '2026-07-02', currency: 'EUR', item_price: '24.9900', item_promotion_discount: null },
    ]);
  });
});

describe('mkt_fba_removal_orders', () => {
  let wh: Warehouse;
  let dir: string;
  beforeEach(async () => ({ wh, dir } = await makeHome()));
  afterEach(async () => wh.close());

  it('keeps the latest update of each line whatever the landing order, dated by the local request date', async () => {
    const SOURCE = 'GET_FBA_FULFILLMENT_REMOVAL_ORDER_DETAIL_DATA';
    const pending = {
      'request-date': '2026-03-01T06:00:00+00:00',
      'order-id': 'R-1',
      'order-source': 'Seller-initiated Manual Removal',
      'order-type': 'Return',
      'service-speed': 'Standard',
      'order-status': 'Pending',
      'last-updated-date': '2026-03-01T06:00:00+00:00',
      sku: 'ACM-TENT-2P-GRN',
      fnsku: 'X0080T9W7T',
      disposition: 'Sellable',
      'requested-quantity': '5',
      'cancelled-quantity': '0',
      'disposed-quantity': '0',
      'shipped-quantity': '0',
      'in-process-quantity': '5',
      currency: 'USD',
    };
    const completed = {
      ...pending,
      'order-status': 'Completed',
      'last-updated-date': '2026-03-05T18:00:00+00:00',
      'cancelled-quantity': '1',
      'shipped-quantity': '4',
      'in-process-quantity': '0',
      'removal-fee': '2.16',
    };
    const disposal = {
      'request-date': '2026-03-02T10:00:00+00:00',
      'order-id': 'R-2',
      'order-type': 'Disposal',
      'order-status': 'Completed',
      'last-updated-date': '2026-03-03T07:59:00+00:00',
      sku: 'ACM-MUG-12-BLK-FBA',
      fnsku: 'X00BXG95U5',
      disposition: 'Unsellable',
      'requested-quantity': '3',
      'cancelled-quantity': '0',
      'disposed-quantity': '3',
      'shipped-quantity': '0',
      'in-process-quantity': '0',
      'removal-fee': '0.97',
      currency: 'USD',
    };
    // The newer version lands first: last-updated-date decides, not landing order.
    await land(wh, SOURCE, US, tsv(dir, 'new.tsv', removalOrdersHeader, [completed, disposal]));
    await land(wh, SOURCE, US, tsv(dir, 'old.tsv', removalOrdersHeader, [pending]));
    await build(wh, 'mkt_fba_removal_orders');
    expect(await rows(wh, `select * from marts.mkt_fba_removal_orders order by fba_removal_order_id`)).toEqual([
      {
        ...usContext,
        // 06:00 UTC on 1 March is 22:00 PST on 28 February; 18:00 UTC on 5 March is 10:00 PST.
        date: '2026-02-28',
        request_date: '2026-02-28',
        fba_removal_order_id: 'R-1',
        sku: 'ACM-TENT-2P-GRN',
        fnsku: 'X0080T9W7T',
        disposition: 'Sellable',
        last_updated_date: '2026-03-05',
        fba_removal_order_source: 'Seller-initiated Manual Removal',
        fba_removal_order_type: 'Return',
        service_speed: 'Standard',
        fba_removal_order_status: 'Completed',
        requested_quantity: '5.0000',
        cancelled_quantity: '1.0000',
        disposed_quantity: '0.0000',
        shipped_quantity: '4.0000',
        in_process_quantity: '0.0000',
        removal_fee: '2.1600',
        currency: 'USD',
      },
      {
        ...usContext,
        // 10:00 UTC on 2 March is 02:00 PST; 07:59 UTC on 3 March is 23:59 PST on 2 March.
        date: '2026-03-02',
        request_date: '2026-03-02',
        fba_removal_order_id: 'R-2',
        sku: 'ACM-MUG-12-BLK-FBA',
        fnsku: 'X00BXG95U5',
        disposition: 'Unsellable',
        last_updated_date: '2026-03-02',
        fba_removal_order_source: null,
        fba_removal_order_type: 'Disposal',
        service_speed: null,
        fba_removal_order_status: 'Completed',
        requested_quantity: '3.0000',
        cancelled_quantity: '0.0000',
        disposed_quantity: '3.0000',
        shipped_quantity: '0.0000',
        in_process_quantity: '0.0000',
        removal_fee: '0.9700',
        currency: 'USD',
      },
    ]);
  });
});

describe('mkt_fba_removal_shipments', () => {
  let wh: Warehouse;
  let dir: string;
  beforeEach(async () => ({ wh, dir } = await makeHome()));
  afterEach(async () => wh.close());

  it('takes each shipment line from the latest file that holds it and adds up its packages there', async () => {
    const SOURCE = 'GET_FBA_FULFILLMENT_REMOVAL_SHIPMENT_DETAIL_DATA';
    const line = {
      'request-date': '2026-03-01T06:00:00+00:00',
      'order-id': 'R-1',
      'shipment-date': '2026-03-04T20:00:00+00:00',
      sku: 'ACM-TENT-2P-GRN',
      fnsku: 'X0080T9W7T',
      disposition: 'Sellable',
      carrier: 'UPS',
      'tracking-number': '1Z001',
      'removal-order-type': 'Return',
    };
    // 07:00 UTC on 5 March is 23:00 PST on 4 March: the same local day as the first package.
    const second = {
      ...line,
      'shipment-date': '2026-03-05T07:00:00+00:00',
      'tracking-number': '1Z002',
      'shipped-quantity': '1',
    };
    await land(
      wh,
      SOURCE,
      US,
      tsv(dir, 'first.tsv', removalShipmentsHeader, [
        { ...line, 'shipped-quantity': '1' },
        { ...line, 'shipped-quantity': '2' },
        second,
      ]),
    );
    // A re-pull corrects 1Z001 to 4 units in one line; 1Z002 is not in it and stays as first landed.
    await land(wh, SOURCE, US, tsv(dir, 'second.tsv', removalShipmentsHeader, [{ ...line, 'shipped-quantity': '4' }]));
    await build(wh, 'mkt_fba_removal_shipments');
    const common = {
      ...usContext,
      date: '2026-03-04',
      request_date: '2026-02-28',
      fba_removal_order_id: 'R-1',
      sku: 'ACM-TENT-2P-GRN',
      fnsku: 'X0080T9W7T',
      disposition: 'Sellable',
      carrier: 'UPS',
      fba_removal_order_type: 'Return',
    };
    expect(await rows(wh, `select * from marts.mkt_fba_removal_shipments order by tracking_number`)).toEqual([
      { ...common, shipped_quantity: '4.0000', tracking_number: '1Z001' },
      { ...common, shipped_quantity: '1.0000', tracking_number: '1Z002' },
    ]);
  });

  it("lands a file with Seller Central's headers (removal-date, quantity shipped) as the developer-docs spelling", async () => {
    const sellerCentral: Record<string, string> = {
      'request-date': 'removal-date',
      'shipped-quantity': 'quantity shipped',
    };
    const header = removalShipmentsHeader.map((h) => sellerCentral[h] ?? h);
    await land(
      wh,
      'GET_FBA_FULFILLMENT_REMOVAL_SHIPMENT_DETAIL_DATA',
      US,
      tsv(dir, 'seller-central.tsv', header, [
        {
          'removal-date': '2026-03-01T06:00:00+00:00',
          'order-id': 'R-1',
          'shipment-date': '2026-03-04T20:00:00+00:00',
          sku: 'ACM-TENT-2P-GRN',
          fnsku: 'X0080T9W7T',
          disposition: 'Sellable',
          'quantity shipped': '3',
          carrier: 'UPS',
          'tracking-number': '1Z001',
          'removal-order-type': 'Return',
        },
      ]),
    );
    await build(wh, 'mkt_fba_removal_shipments');
    // removal-date 06:00 UTC on 1 March is 22:00 PST on 28 February; quantity shipped 3.
    expect(
      await rows(wh, `select request_date, shipped_quantity, tracking_number from marts.mkt_fba_removal_shipments`),
    ).toEqual([{ request_date: '2026-02-28', shipped_quantity: '3.0000', tracking_number: '1Z001' }]);
  });

  it('adds up package lines within one file', async () => {
    const line = {
      'request-date': '2026-03-01T06:00:00+00:00',
      'order-id': 'R-1',
      'shipment-date': '2026-03-04T20:00:00+00:00',
      sku: 'ACM-TENT-2P-GRN',
      fnsku: 'X0080T9W7T',
      disposition: 'Sellable',
    };
    await land(
      wh,
      'GET_FBA_FULFILLMENT_REMOVAL_SHIPMENT_DETAIL_DATA',
      US,
      tsv(dir, 'one.tsv', removalShipmentsHeader, [
        { ...line, 'shipped-quantity': '1' },
        { ...line, 'shipped-quantity': '2' },
      ]),
    );
    await build(wh, 'mkt_fba_removal_shipments');
    // Neither carrier nor tracking number: one line of 1 + 2 units.
    expect(
      await rows(wh, `select date, carrier, tracking_number, shipped_quantity from marts.mkt_fba_removal_shipments`),
    ).toEqual([{ date: '2026-03-04', carrier: null, tracking_number: null, shipped_quantity: '3.0000' }]);
  });
});

describe('mkt_fba_removal_recommended', () => {
  let wh: Warehouse;
  let dir: string;
  beforeEach(async () => ({ wh, dir } = await makeHome()));
  afterEach(async () => wh.close());

  it('keeps the latest snapshot of each local day, dropping SKUs it no longer lists', async () => {
    const SOURCE = 'GET_FBA_RECOMMENDED_REMOVAL_DATA';
    // 07:00 UTC is midnight in Los Angeles on 10 and 11 March (PDT, UTC-7, since 8 March).
    const tent = {
      'snapshot-date': '2026-03-10T07:00:00+00:00',
      sku: 'ACM-TENT-2P-GRN',
      fnsku: 'X0080T9W7T',
      asin: 'B08FCHRZNY',
      'product-name': 'Acme Ridgeline 2-Person Backpacking Tent, Green',
      condition: 'New',
    };
    const mug = {
      'snapshot-date': '2026-03-10T07:00:00+00:00',
      sku: 'ACM-MUG-12-BLK-FBA',
      fnsku: 'X00BXG95U5',
      asin: 'B05JYC0Q2J',
      'product-name': 'Trail Mug 12" Steel, Black',
      condition: 'New',
      'sellable-quantity': '10',
    };
    await land(
      wh,
      SOURCE,
      US,
      tsv(dir, 'd10-a.tsv', recommendedRemovalsHeader, [{ ...tent, 'sellable-quantity': '40' }, mug]),
    );
    await land(
      wh,
      SOURCE,
      US,
      tsv(dir, 'd10-b.tsv', recommendedRemovalsHeader, [
        {
          ...tent,
          'sellable-quantity': '38',
          'sellable-121-180-days': '6',
          'sellable-181-270-days': '5',
          'sellable-271-365-days': '4',
          'sellable-365+-days': '7',
          'sellable-removal-quantity': '7',
          'unsellable-quantity': '3',
          'unsellable-0-7-days': '1',
          'unsellable-8-60-days': '2',
          'unsellable-61-90-days': '0',
        },
      ]),
    );
    await land(
      wh,
      SOURCE,
      US,
      tsv(dir, 'd11.tsv', recommendedRemovalsHeader, [
        { ...mug, 'snapshot-date': '2026-03-11T07:00:00+00:00', 'sellable-quantity': '9' },
      ]),
    );
    // 23:30 UTC on 10 March is 00:30 on 11 March in Berlin (CET, UTC+1).
    await land(
      wh,
      SOURCE,
      DE,
      tsv(dir, 'de.tsv', recommendedRemovalsHeader, [
        { ...tent, 'snapshot-date': '2026-03-10T23:30:00+00:00', 'sellable-quantity': '12' },
      ]),
    );
    await build(wh, 'mkt_fba_removal_recommended');
    const got = await rows(wh, `select * from marts.mkt_fba_removal_recommended order by marketplace_id desc, date`);
    expect(got).toEqual([
      {
        ...usContext,
        date: '2026-03-10',
        snapshot_date: '2026-03-10',
        sku: 'ACM-TENT-2P-GRN',
        fnsku: 'X0080T9W7T',
        child_asin: 'B08FCHRZNY',
        product_name: 'Acme Ridgeline 2-Person Backpacking Tent, Green',
        condition: 'New',
        sellable_quantity: '38.0000',
        sellable_121_180_days: '6.0000',
        sellable_181_270_days: '5.0000',
        sellable_271_365_days: '4.0000',
        sellable_365_plus_days: '7.0000',
        sellable_removal_quantity: '7.0000',
        unsellable_quantity: '3.0000',
        unsellable_0_7_days: '1.0000',
        unsellable_8_60_days: '2.0000',
        unsellable_61_90_days: '0.0000',
      },
      expect.objectContaining({
        marketplace_id: 'ATVPDKIKX0DER',
        date: '2026-03-11',
        sku: 'ACM-MUG-12-BLK-FBA',
        sellable_quantity: '9.0000',
        sellable_365_plus_days: null,
      }),
      expect.objectContaining({
        marketplace_id: 'A1PA6795UKMFR9',
        date: '2026-03-11',
        snapshot_date: '2026-03-11',
        sku: 'ACM-TENT-2P-GRN',
        sellable_quantity: '12.0000',
      }),
    ]);
  });
});

describe('mkt_fba_stranded_inventory', () => {
  let wh: Warehouse;
  let dir: string;
  beforeEach(async () => ({ wh, dir } = await makeHome()));
  afterEach(async () => wh.close());

  it('shows each connection as of its latest report, which an empty report empties', async () => {
    const SOURCE = 'GET_STRANDED_INVENTORY_UI_DATA';
    const tent = {
      'primary-action': 'Relist',
      'date-stranded': '2026-03-01T07:30:00+00:00',
      'Date-to-take-auto-removal': '2026-04-15T12:00:00+00:00',
      'status-primary': 'Inactive',
      'status-secondary': 'Listing closed',
      'error-message': 'Listing closed by seller',
      'stranded-reason': 'Closed listing',
      asin: 'B08FCHRZNY',
      sku: 'ACM-TENT-2P-GRN',
      fnsku: 'X0080T9W7T',
      'product-name': 'Acme Ridgeline 2-Person Backpacking Tent, Green',
      condition: 'New',
      'fulfilled-by': 'Amazon',
      'fulfillable-qty': '3',
      'your-price': '199.99',
      'unfulfillable-qty': '0',
      'reserved-quantity': '1',
      'inbound-shipped-qty': '0',
    };
    const mug = {
      asin: 'B05JYC0Q2J',
      sku: 'ACM-MUG-12-BLK-FBA',
      fnsku: 'X00BXG95U5',
      'product-name': 'Trail Mug 12" Steel, Black',
      'fulfillable-qty': '5',
    };
    await land(wh, SOURCE, US, tsv(dir, 'us-1.tsv', strandedInventoryHeader, [tent, mug]));
    await land(wh, SOURCE, US, tsv(dir, 'us-2.tsv', strandedInventoryHeader, [{ ...tent, 'fulfillable-qty': '2' }]));
    await land(wh, SOURCE, DE, tsv(dir, 'de-1.tsv', strandedInventoryHeader, [{ ...mug, 'your-price': '19,99' }]));
    await land(wh, SOURCE, DE, tsv(dir, 'de-2.tsv', strandedInventoryHeader, []));
    await build(wh, 'mkt_fba_stranded_inventory');
    expect(await rows(wh, `select * from marts.mkt_fba_stranded_inventory`)).toEqual([
      {
        ...usContext,
        sku: 'ACM-TENT-2P-GRN',
        fnsku: 'X0080T9W7T',
        child_asin: 'B08FCHRZNY',
        primary_action: 'Relist',
        date_stranded: '2026-02-28', // 07:30 UTC on 1 March is 23:30 PST on 28 February
        date_to_take_auto_removal: '2026-04-15', // 12:00 UTC is 05:00 PDT
        status_primary: 'Inactive',
        status_secondary: 'Listing closed',
        error_message: 'Listing closed by seller',
        stranded_reason: 'Closed listing',
        product_name: 'Acme Ridgeline 2-Person Backpacking Tent, Green',
        condition: 'New',
        fulfilled_by: 'Amazon',
        fulfillable_qty: '2.0000',
        your_price: '199.9900',
        unfulfillable_qty: '0.0000',
        reserved_quantity: '1.0000',
        inbound_shipped_qty: '0.0000',
      },
    ]);
  });
});
