import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Warehouse } from '../../src/db/warehouse.ts';
import { loadModels } from '../../src/models/load-models.ts';
import { runModels } from '../../src/models/run-models.ts';
import { makeHome, rows, US, DE } from '../helpers/home.ts';
import { listingsHeader, writeTsv } from '../helpers/listings.ts';
import { landOk, trafficReport, writeJson } from '../helpers/profit.ts';

const sample = (name: string) => fileURLToPath(new URL(`../../fixtures/upstream-samples/${name}`, import.meta.url));

type Connection = { id: string; marketplaceId: string };
type Line = Partial<Record<string, string>>;

async function build(wh: Warehouse, table: string) {
  const results = await runModels(wh, { select: [`marts.${table}`] });
  expect(results.filter((r) => r.status !== 'success' || r.findings.length > 0)).toEqual([]);
}

/** Lands an All Listings report with the documented header. */
const landListings = (wh: Warehouse, dir: string, connection: Connection, name: string, lines: Line[]) =>
  landOk(wh, 'GET_MERCHANT_LISTINGS_ALL_DATA', connection, writeTsv(dir, name, listingsHeader, lines));

/** Lands one getInventorySummaries page for the connection's marketplace. */
const landFba = (wh: Warehouse, dir: string, connection: Connection, name: string, summaries: unknown[]) =>
  landOk(
    wh,
    'fbaInventory.getInventorySummaries',
    connection,
    writeJson(dir, name, {
      pagination: {},
      payload: {
        granularity: { granularityType: 'Marketplace', granularityId: connection.marketplaceId },
        inventorySummaries: summaries,
      },
    }),
  );

/** Lands a COGS upload (CogsUpsertRequest columns). */
function landCogs(wh: Warehouse, dir: string, connection: Connection, name: string, lines: string[]) {
  const path = join(dir, name);
  writeFileSync(
    path,
    ['asin,sku,costCurrency,fromDate,costItemValue,costItemShippingValue,itemSupplierName', ...lines].join('\n') + '\n',
  );
  return landOk(wh, 'cogs', connection, path);
}

/** An FBA inventory summary with details; unnamed buckets are 0. */
function fbaSummary(
  sellerSku: string,
  asin: string,
  fnSku: string,
  q: {
    fulfillable?: number;
    working?: number;
    shipped?: number;
    receiving?: number;
    customerOrders?: number;
    transfer?: number;
    processing?: number;
    unfulfillable?: number;
    total: number;
  },
) {
  const reserved = (q.customerOrders ?? 0) + (q.transfer ?? 0) + (q.processing ?? 0);
  return {
    asin,
    fnSku,
    sellerSku,
    condition: 'NewItem',
    lastUpdatedTime: '2026-10-16T04:00:00Z',
    productName: `Product ${sellerSku}`,
    totalQuantity: q.total,
    inventoryDetails: {
      fulfillableQuantity: q.fulfillable ?? 0,
      inboundWorkingQuantity: q.working ?? 0,
      inboundShippedQuantity: q.shipped ?? 0,
      inboundReceivingQuantity: q.receiving ?? 0,
      reservedQuantity: {
        totalReservedQuantity: reserved,
        pendingCustomerOrderQuantity: q.customerOrders ?? 0,
        pendingTransshipmentQuantity: q.transfer ?? 0,
        fcProcessingQuantity: q.processing ?? 0,
      },
      researchingQuantity: { totalResearchingQuantity: 0, researchingQuantityBreakdown: [] },
      unfulfillableQuantity: { totalUnfulfillableQuantity: q.unfulfillable ?? 0 },
    },
  };
}

/** The calendar date in a time zone, shifted by whole days. */
function localDate(timeZone: string, shiftDays = 0): string {
  const today = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date());
  const date = new Date(`${today}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + shiftDays);
  return date.toISOString().slice(0, 10);
}

const listings = (wh: Warehouse, columns = '*') =>
  rows(wh, `select ${columns} from marts.mkt_listings_with_cogs order by seller_or_vendor_id, sku`);

describe('mkt_listings_with_cogs', () => {
  let wh: Warehouse;
  let dir: string;
  beforeEach(async () => ({ wh, dir } = await makeHome()));
  afterEach(async () => wh.close());

  it('combines the latest listings report with FBA buckets, AWD quantities and the unit cost valid today', async () => {
    await landListings(wh, dir, US, 'listings.tsv', [
      {
        'item-name': 'Trail Mug 12" Steel',
        'listing-id': '0107MUG0001',
        'seller-sku': 'ACM-MUG-12-BLK',
        price: '24.99',
        quantity: '40',
        'pending-quantity': '2',
        'open-date': '2026-01-07 07:35:42 PST',
        'item-condition': '11',
        asin1: 'B05JYC0Q2J',
        'fulfillment-channel': 'DEFAULT',
        status: 'Active',
      },
      // An FBA listing: the report leaves quantity and pending-quantity empty. 07:30 UTC on 2 March is 23:30 on 1 March
      // in Los Angeles.
      {
        'item-name': 'Trail Mug 12" Steel',
        'listing-id': '0301MUG0002',
        'seller-sku': 'ACM-MUG-12-BLK-FBA',
        price: '25.99',
        'open-date': '2026-03-02 07:30:00 UTC',
        'item-condition': '11',
        asin1: 'B05JYC0Q2J',
        'fulfillment-channel': 'AMAZON_NA',
        status: 'Active',
      },
      {
        'item-name': 'Headlamp 300 lm',
        'listing-id': '1120LAMP003',
        'seller-sku': 'ACM-LAMP-HEAD-300',
        price: '19.99',
        'open-date': '2025-11-20 10:00:00 PST',
        'item-condition': '1',
        asin1: 'B0XWVDUR8M',
        'fulfillment-channel': 'AMAZON_NA',
        status: 'Inactive',
      },
    ]);
    await landFba(wh, dir, US, 'fba.json', [
      // 30 available + 17 inbound (5 + 10 + 2) + 4 reserved + 1 unfulfillable = 52 in FBA.
      fbaSummary('ACM-MUG-12-BLK-FBA', 'B05JYC0Q2J', 'X00MUGFBA1', {
        fulfillable: 30,
        working: 5,
        shipped: 10,
        receiving: 2,
        customerOrders: 1,
        transfer: 2,
        processing: 1,
        unfulfillable: 1,
        total: 52,
      }),
      fbaSummary('ACM-LAMP-HEAD-300', 'B0XWVDUR8M', 'X00LAMP001', { fulfillable: 5, total: 5 }),
    ]);
    await landOk(
      wh,
      'awd.listInventory',
      US,
      writeJson(dir, 'awd.json', {
        inventory: [
          {
            sku: 'ACM-MUG-12-BLK-FBA',
            totalOnhandQuantity: 120,
            totalInboundQuantity: 48,
            inventoryDetails: {
              availableDistributableQuantity: 100,
              reservedDistributableQuantity: 20,
              replenishmentQuantity: 24,
            },
            expirationDetails: [
              { expiration: '2027-06-30T00:00:00.000Z', onhandQuantity: 70 },
              { expiration: '2027-03-31T00:00:00.000Z', onhandQuantity: 50 },
            ],
          },
        ],
      }),
    );
    await landOk(
      wh,
      'listingsItems.searchListingsItems',
      US,
      writeJson(dir, 'items.json', {
        numberOfResults: 1,
        items: [
          {
            sku: 'ACM-MUG-12-BLK',
            summaries: [
              { marketplaceId: US.marketplaceId, asin: 'B05JYC0Q2J', productType: 'DRINKING_CUP', status: ['BUYABLE'] },
            ],
            attributes: {
              title_differentiation: [{ value: 'Double-wall steel, 350 ml', marketplace_id: US.marketplaceId }],
            },
          },
        ],
      }),
    );
    await landCogs(wh, dir, US, 'cogs.csv', [
      'B05JYC0Q2J,ACM-MUG-12-BLK,USD,2020-01-01,8.4802,1.8127,Pacific Gear',
      // A row from 2099 does not apply yet, but names the current supplier.
      'B05JYC0Q2J,ACM-MUG-12-BLK,USD,2099-01-01,9.9999,1.8127,New Supplier',
      'B05JYC0Q2J,ACM-MUG-12-BLK-FBA,USD,2020-01-01,7.8411,2.1961,',
    ]);
    await build(wh, 'mkt_listings_with_cogs');

    const context = {
      marketplace_id: US.marketplaceId,
      marketplace_country_code: 'US',
      marketplace_country_name: 'United States',
      seller_or_vendor_id: US.id,
      seller_or_vendor_name: 'Test US',
      marketplace_seller_id: 'SELLERUS',
    };
    const noAwd = {
      awd_total_inbound_quantity: null,
      awd_total_onhand_quantity: null,
      awd_available_distributable_quantity: null,
      awd_replenishment_quantity: null,
      awd_reserved_distributable_quantity: null,
      awd_next_expiration_at: null,
      awd_next_expiration_quantity: null,
      awd_expirations: null,
    };
    const noCogs = {
      cogs_item_value: null,
      cogs_shipping_value: null,
      cogs_total_value: null,
      cogs_present: false,
      cogs_currency: null,
      item_current_supplier_name: null,
    };
    expect(await listings(wh)).toEqual([
      {
        ...context,
        listing_id: '1120LAMP003',
        sku: 'ACM-LAMP-HEAD-300',
        fnsku: 'X00LAMP001',
        child_asin: 'B0XWVDUR8M',
        title_differentiation: null,
        listing_condition: 'Used - Like New',
        listing_name: 'Headlamp 300 lm',
        listing_price_value: '19.9900',
        listing_estimated_per_item_referral_fee: null,
        listing_price_currency: 'USD',
        listing_current_quantity: '0.0000',
        listing_pending_quantity: '0.0000',
        fba_quantity_available: '5.0000',
        fba_quantity_pending_removal: '0.0000',
        fba_quantity_inbound: '0.0000',
        fba_quantity_reserved: '0.0000',
        fba_quantity_fc_transfer: '0.0000',
        fba_inventory_supply_at_fba: '5.0000',
        // 5 sellable units in FBA behind an inactive listing: stranded.
        fba_has_stranded_inventory: true,
        ...noAwd,
        listing_fulfillment_channel: 'AMAZON_NA',
        listing_open_date: '2025-11-20',
        listing_status: 'Inactive',
        ...noCogs,
      },
      {
        ...context,
        listing_id: '0107MUG0001',
        sku: 'ACM-MUG-12-BLK',
        fnsku: '',
        child_asin: 'B05JYC0Q2J',
        title_differentiation: 'Double-wall steel, 350 ml',
        listing_condition: 'New',
        listing_name: 'Trail Mug 12" Steel',
        listing_price_value: '24.9900',
        listing_estimated_per_item_referral_fee: null,
        listing_price_currency: 'USD',
        listing_current_quantity: '40.0000',
        listing_pending_quantity: '2.0000',
        fba_quantity_available: '0.0000',
        fba_quantity_pending_removal: '0.0000',
        fba_quantity_inbound: '0.0000',
        fba_quantity_reserved: '0.0000',
        fba_quantity_fc_transfer: null,
        fba_inventory_supply_at_fba: null,
        fba_has_stranded_inventory: false,
        ...noAwd,
        // 07:35:42 PST on 7 January is still 7 January in Los Angeles.
        listing_fulfillment_channel: 'DEFAULT',
        listing_open_date: '2026-01-07',
        listing_status: 'Active',
        // 8.4802 + 1.8127 = 10.2929; the supplier is the 2099 row's.
        cogs_item_value: '8.4802',
        cogs_shipping_value: '1.8127',
        cogs_total_value: '10.2929',
        cogs_present: true,
        cogs_currency: 'USD',
        item_current_supplier_name: 'New Supplier',
      },
      {
        ...context,
        listing_id: '0301MUG0002',
        sku: 'ACM-MUG-12-BLK-FBA',
        fnsku: 'X00MUGFBA1',
        child_asin: 'B05JYC0Q2J',
        title_differentiation: null,
        listing_condition: 'New',
        listing_name: 'Trail Mug 12" Steel',
        listing_price_value: '25.9900',
        listing_estimated_per_item_referral_fee: null,
        listing_price_currency: 'USD',
        listing_current_quantity: '0.0000',
        listing_pending_quantity: '0.0000',
        // The FBA total 52 already holds the 30 available units; fc transfers (2) are part of the 4 reserved.
        fba_quantity_available: '30.0000',
        fba_quantity_pending_removal: '0.0000',
        fba_quantity_inbound: '17.0000',
        fba_quantity_reserved: '4.0000',
        fba_quantity_fc_transfer: '2.0000',
        fba_inventory_supply_at_fba: '52.0000',
        fba_has_stranded_inventory: false,
        // AWD quantities stay apart from FBA's: 120 on hand, 48 inbound; the earliest expiration is 31 March 2027 with
        // 50 units.
        awd_total_inbound_quantity: '48.0000',
        awd_total_onhand_quantity: '120.0000',
        awd_available_distributable_quantity: '100.0000',
        awd_replenishment_quantity: '24.0000',
        awd_reserved_distributable_quantity: '20.0000',
        awd_next_expiration_at: '2027-03-31 00:00:00',
        awd_next_expiration_quantity: '50.0000',
        awd_expirations:
          '[{"expiration":"2027-06-30T00:00:00.000Z","onhandQuantity":70},{"expiration":"2027-03-31T00:00:00.000Z","onhandQuantity":50}]',
        listing_fulfillment_channel: 'AMAZON_NA',
        listing_open_date: '2026-03-01',
        listing_status: 'Active',
        // 7.8411 + 2.1961 = 10.0372; the row names no supplier.
        cogs_item_value: '7.8411',
        cogs_shipping_value: '2.1961',
        cogs_total_value: '10.0372',
        cogs_present: true,
        cogs_currency: 'USD',
        item_current_supplier_name: null,
      },
    ]);
  });

  it('keeps only the latest listings report: a deleted listing leaves, an empty report empties the table', async () => {
    await landListings(wh, dir, US, 'day1.tsv', [
      {
        'seller-sku': 'ACM-TARP-3X3',
        'listing-id': 'L1',
        price: '39.99',
        'open-date': '2026-01-01 10:00:00 PST',
        status: 'Active',
      },
      {
        'seller-sku': 'ACM-STAKE-ALU-10',
        'listing-id': 'L2',
        price: '9.99',
        'open-date': '2026-01-01 10:00:00 PST',
        status: 'Active',
      },
    ]);
    await landListings(wh, dir, US, 'day2.tsv', [
      {
        'seller-sku': 'ACM-TARP-3X3',
        'listing-id': 'L1',
        price: '34.99',
        'open-date': '2026-01-01 10:00:00 PST',
        status: 'Active',
      },
    ]);
    await landListings(wh, dir, DE, 'de.tsv', [
      {
        'seller-sku': 'ACM-TARP-3X3',
        'listing-id': 'L9',
        price: '36,99',
        'open-date': '01.01.2026 10:00:00 MEZ',
        status: 'Active',
      },
    ]);
    await build(wh, 'mkt_listings_with_cogs');
    expect(await listings(wh, 'seller_or_vendor_id, sku, listing_price_value, listing_price_currency')).toEqual([
      {
        seller_or_vendor_id: US.id,
        sku: 'ACM-TARP-3X3',
        listing_price_value: '34.9900',
        listing_price_currency: 'USD',
      },
      {
        seller_or_vendor_id: DE.id,
        sku: 'ACM-TARP-3X3',
        listing_price_value: '36.9900',
        listing_price_currency: 'EUR',
      },
    ]);
    await landListings(wh, dir, US, 'day3.tsv', []);
    await build(wh, 'mkt_listings_with_cogs');
    expect(await listings(wh, 'seller_or_vendor_id, sku')).toEqual([
      { seller_or_vendor_id: DE.id, sku: 'ACM-TARP-3X3' },
    ]);
  });

  it("takes the unit cost valid today in the marketplace's timezone, not tomorrow's", async () => {
    const todayLosAngeles = localDate('America/Los_Angeles');
    const todayBerlin = localDate('Europe/Berlin');
    const line = {
      'seller-sku': 'ACM-KNIFE-FOLD',
      asin1: 'B0ZQXXFDLP',
      price: '29.99',
      'open-date': '2026-01-01 10:00:00 UTC',
      status: 'Active',
    };
    await landListings(wh, dir, US, 'us.tsv', [line]);
    await landListings(wh, dir, DE, 'de.tsv', [line]);
    await landCogs(wh, dir, US, 'us.csv', [
      'B0ZQXXFDLP,ACM-KNIFE-FOLD,USD,2020-01-01,4.00,1.00,Old Supplier',
      `B0ZQXXFDLP,ACM-KNIFE-FOLD,USD,${todayLosAngeles},5.00,1.00,Today Supplier`,
      `B0ZQXXFDLP,ACM-KNIFE-FOLD,USD,${localDate('America/Los_Angeles', 1)},6.00,1.00,Tomorrow Supplier`,
    ]);
    await landCogs(wh, dir, DE, 'de.csv', [
      `B0ZQXXFDLP,ACM-KNIFE-FOLD,EUR,${todayBerlin},7.00,0.50,`,
      `B0ZQXXFDLP,ACM-KNIFE-FOLD,EUR,${localDate('Europe/Berlin', 1)},8.00,0.50,`,
    ]);
    await build(wh, 'mkt_listings_with_cogs');
    expect(
      await listings(
        wh,
        'seller_or_vendor_id, cogs_item_value, cogs_total_value, cogs_currency, cogs_present, item_current_supplier_name',
      ),
    ).toEqual([
      {
        seller_or_vendor_id: US.id,
        cogs_item_value: '5.0000',
        cogs_total_value: '6.0000',
        cogs_currency: 'USD',
        cogs_present: true,
        item_current_supplier_name: 'Tomorrow Supplier',
      },
      {
        seller_or_vendor_id: DE.id,
        cogs_item_value: '7.0000',
        cogs_total_value: '7.5000',
        cogs_currency: 'EUR',
        cogs_present: true,
        item_current_supplier_name: null,
      },
    ]);
  });

  it('counts units of open removal orders as pending removal and flags SKUs of the stranded report', async () => {
    const base = {
      price: '19.99',
      'open-date': '2026-01-01 10:00:00 PST',
      'fulfillment-channel': 'AMAZON_NA',
      status: 'Active',
    };
    await landListings(wh, dir, US, 'listings.tsv', [
      { ...base, 'seller-sku': 'ACM-LAMP-HEAD-300', asin1: 'B0XWVDUR8M' },
      { ...base, 'seller-sku': 'ACM-GLOVE-FLC', asin1: 'B0HWMJCKRB' },
    ]);
    const removalHeader =
      'request-date order-id order-source order-type service-speed order-status last-updated-date sku fnsku disposition requested-quantity cancelled-quantity disposed-quantity shipped-quantity in-process-quantity removal-fee currency'.split(
        ' ',
      );
    const removal = {
      'request-date': '2026-10-01T10:00:00+00:00',
      'order-type': 'Return',
      'last-updated-date': '2026-10-02T10:00:00+00:00',
      sku: 'ACM-LAMP-HEAD-300',
      fnsku: 'X00LAMP001',
      disposition: 'Sellable',
      'cancelled-quantity': '0',
      'disposed-quantity': '0',
      currency: 'USD',
    };
    await landOk(
      wh,
      'GET_FBA_FULFILLMENT_REMOVAL_ORDER_DETAIL_DATA',
      US,
      writeTsv(dir, 'removals.tsv', removalHeader, [
        {
          ...removal,
          'order-id': 'R1',
          'order-status': 'Pending',
          'requested-quantity': '3',
          'shipped-quantity': '0',
          'in-process-quantity': '3',
        },
        {
          ...removal,
          'order-id': 'R2',
          'order-status': 'Processing',
          'requested-quantity': '4',
          'shipped-quantity': '3',
          'in-process-quantity': '1',
        },
        {
          ...removal,
          'order-id': 'R3',
          'order-status': 'Completed',
          'requested-quantity': '2',
          'shipped-quantity': '2',
          'in-process-quantity': '0',
        },
      ]),
    );
    const strandedHeader =
      'primary-action date-stranded date-to-take-auto-removal status-primary status-secondary error-message stranded-reason asin sku fnsku product-name condition fulfilled-by fulfillable-qty your-price unfulfillable-qty reserved-quantity inbound-shipped-qty'.split(
        ' ',
      );
    await landOk(
      wh,
      'GET_STRANDED_INVENTORY_UI_DATA',
      US,
      writeTsv(dir, 'stranded.tsv', strandedHeader, [
        {
          'primary-action': 'Fix listing',
          'date-stranded': '2026-10-10T00:00:00+00:00',
          'stranded-reason': 'Listing error',
          asin: 'B0HWMJCKRB',
          sku: 'ACM-GLOVE-FLC',
          fnsku: 'X00GLOVE01',
          'product-name': 'Fleece gloves',
          'fulfillable-qty': '6',
        },
      ]),
    );
    await build(wh, 'mkt_listings_with_cogs');
    expect(await listings(wh, 'sku, fba_quantity_pending_removal, fba_has_stranded_inventory')).toEqual([
      // Listed by the stranded report, though its listing is Active.
      { sku: 'ACM-GLOVE-FLC', fba_quantity_pending_removal: '0.0000', fba_has_stranded_inventory: true },
      // 3 (Pending) + 1 (Processing) in process; the completed order counts no more.
      { sku: 'ACM-LAMP-HEAD-300', fba_quantity_pending_removal: '4.0000', fba_has_stranded_inventory: false },
    ]);
  });

  it('lands the real listings and FBA inventory samples into the table', async () => {
    await landOk(wh, 'GET_MERCHANT_LISTINGS_ALL_DATA', DE, sample('GET_MERCHANT_LISTINGS_ALL_DATA.example.tsv'));
    await landOk(
      wh,
      'fbaInventory.getInventorySummaries',
      US,
      sample('fbaInventory.getInventorySummaries.example.json'),
    );
    // A US listing of the sample's FBA SKU, so that its summary reaches the table.
    await landListings(wh, dir, US, 'us.tsv', [
      {
        'seller-sku': 'Silicon Power 32GB',
        asin1: 'B00T9QONN6',
        price: '9.99',
        'open-date': '2018-01-01 10:00:00 PST',
        'fulfillment-channel': 'AMAZON_NA',
        status: 'Active',
      },
    ]);
    await build(wh, 'mkt_listings_with_cogs');
    expect(
      await listings(
        wh,
        `seller_or_vendor_id = '${US.id}' as us, sku, child_asin, fnsku, listing_condition, listing_status, listing_open_date, listing_price_currency,
        fba_quantity_available, fba_quantity_inbound, fba_inventory_supply_at_fba`,
      ),
    ).toEqual([
      {
        us: true,
        sku: 'Silicon Power 32GB',
        child_asin: 'B00T9QONN6',
        fnsku: 'B00T9QONN6',
        listing_condition: '',
        listing_status: 'Active',
        listing_open_date: '2018-01-01',
        listing_price_currency: 'USD',
        fba_quantity_available: '66.0000',
        fba_quantity_inbound: '21.0000',
        fba_inventory_supply_at_fba: '87.0000',
      },
      // The UK sample landed for the DE test connection: dates in Berlin time (09:12:40 UTC is 11:12:40 CEST on 8 July
      // 2016).
      {
        us: false,
        sku: '1234567',
        child_asin: 'B01I53BE4O',
        fnsku: '',
        listing_condition: 'New',
        listing_status: 'Active',
        listing_open_date: '2016-07-08',
        listing_price_currency: 'EUR',
        fba_quantity_available: '0.0000',
        fba_quantity_inbound: '0.0000',
        fba_inventory_supply_at_fba: null,
      },
      {
        us: false,
        sku: '35-GFRR-W3VC',
        child_asin: 'B004ADOCTI',
        fnsku: '',
        listing_condition: 'Used - Acceptable',
        listing_status: 'Active',
        listing_open_date: '2011-03-30',
        listing_price_currency: 'EUR',
        fba_quantity_available: '0.0000',
        fba_quantity_inbound: '0.0000',
        fba_inventory_supply_at_fba: null,
      },
      {
        us: false,
        sku: 'ATV2',
        child_asin: 'B0041IZHVO',
        fnsku: '',
        listing_condition: 'Used - Like New',
        listing_status: 'Inactive',
        listing_open_date: '2011-03-24',
        listing_price_currency: 'EUR',
        fba_quantity_available: '0.0000',
        fba_quantity_inbound: '0.0000',
        fba_inventory_supply_at_fba: null,
      },
    ]);
  });
});

describe('mkt_listings_raw', () => {
  let wh: Warehouse;
  let dir: string;
  beforeEach(async () => ({ wh, dir } = await makeHome()));
  afterEach(async () => wh.close());

  const CA = 'A2EUQ1WTGCTBG2';
  const parent = {
    sku: 'ACM-MUG-PARENT',
    summaries: [
      {
        marketplaceId: US.marketplaceId,
        asin: 'B0MUGPARNT',
        productType: 'DRINKING_CUP',
        status: ['DISCOVERABLE'],
        itemName: 'Trail Mug',
      },
    ],
    productTypes: [{ marketplaceId: US.marketplaceId, productType: 'DRINKING_CUP' }],
    relationships: [
      {
        marketplaceId: US.marketplaceId,
        relationships: [
          {
            type: 'VARIATION',
            childSkus: ['ACM-MUG-12-BLK'],
            variationTheme: { attributes: ['color'], theme: 'COLOR' },
          },
        ],
      },
    ],
  };
  const child = {
    sku: 'ACM-MUG-12-BLK',
    summaries: [
      { marketplaceId: CA, asin: 'B0CAONLY01', productType: 'CUP_CA', status: ['BUYABLE'] },
      {
        marketplaceId: US.marketplaceId,
        asin: 'B05JYC0Q2J',
        productType: 'DRINKING_CUP',
        status: ['BUYABLE', 'DISCOVERABLE'],
        fnSku: 'X00MUG0001',
        itemName: 'Trail Mug 12" Steel',
      },
    ],
    productTypes: [{ marketplaceId: US.marketplaceId, productType: 'CUP' }],
    attributes: {
      title_differentiation: [
        { value: 'Highlights CA', marketplace_id: CA },
        { value: 'Double-wall steel', marketplace_id: US.marketplaceId },
      ],
      item_name: [{ value: 'Trail Mug 12" Steel', marketplace_id: US.marketplaceId }],
    },
    issues: [
      {
        code: '90220',
        message: "'color' is required but not supplied.",
        severity: 'WARNING',
        attributeNames: ['color'],
        categories: [],
      },
    ],
    offers: [{ marketplaceId: US.marketplaceId, offerType: 'B2C', price: { currencyCode: 'USD', amount: '24.99' } }],
    fulfillmentAvailability: [{ fulfillmentChannelCode: 'DEFAULT', quantity: 40 }],
    relationships: [
      { marketplaceId: US.marketplaceId, relationships: [{ type: 'VARIATION', parentSkus: ['ACM-MUG-PARENT'] }] },
    ],
  };
  const bottle = {
    sku: 'ACM-BOTTLE-2PK',
    summaries: [{ marketplaceId: US.marketplaceId, asin: 'B0WHJSZGUH', productType: 'BOTTLE', status: ['BUYABLE'] }],
  };
  const draft = { sku: 'ACM-DRAFT-1', summaries: [] };

  it("keeps the upstream JSON and reads ASINs, parents, product types and highlights of the connection's marketplace", async () => {
    await landOk(
      wh,
      'listingsItems.searchListingsItems',
      US,
      writeJson(dir, 'page1.json', { numberOfResults: 4, items: [parent, child, bottle, draft] }),
    );
    // The sales and traffic report names the bottle's parent ASIN.
    await landOk(
      wh,
      'GET_SALES_AND_TRAFFIC_REPORT',
      US,
      writeJson(
        dir,
        'traffic.json',
        trafficReport('2026-10-01', US.marketplaceId, [{ childAsin: 'B0WHJSZGUH', parentAsin: 'B0BOTTLEPA' }]),
      ),
    );
    await build(wh, 'mkt_listings_raw');
    const got = await rows(
      wh,
      `select sku, child_asin, parent_asin, mkt_product_type, product_type, title_differentiation, marketplace_country_code,
        summaries::varchar as summaries, attributes::varchar as attributes, issues::varchar as issues, offers::varchar as offers,
        fulfillment_availability::varchar as fulfillment_availability, relationships::varchar as relationships, classifications, sales_ranks
      from marts.mkt_listings_raw order by sku`,
    );
    const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value));
    const asUpstream = (item: Record<string, unknown>) => ({
      summaries: json(item.summaries),
      attributes: json(item.attributes),
      issues: json(item.issues),
      offers: json(item.offers),
      fulfillment_availability: json(item.fulfillmentAvailability),
      relationships: json(item.relationships),
      classifications: null,
      sales_ranks: null,
    });
    expect(got).toEqual([
      // Standalone bottle: the parent named by the sales and traffic report.
      {
        sku: 'ACM-BOTTLE-2PK',
        child_asin: 'B0WHJSZGUH',
        parent_asin: 'B0BOTTLEPA',
        mkt_product_type: 'BOTTLE',
        product_type: 'BOTTLE',
        title_differentiation: null,
        marketplace_country_code: 'US',
        ...asUpstream(bottle),
      },
      // No summary yet: empty texts.
      {
        sku: 'ACM-DRAFT-1',
        child_asin: '',
        parent_asin: '',
        mkt_product_type: '',
        product_type: '',
        title_differentiation: null,
        marketplace_country_code: 'US',
        ...asUpstream(draft),
      },
      // The US summary, not the first (CA) one; the parent is the ASIN of the VARIATION parent SKU's listing.
      {
        sku: 'ACM-MUG-12-BLK',
        child_asin: 'B05JYC0Q2J',
        parent_asin: 'B0MUGPARNT',
        mkt_product_type: 'DRINKING_CUP',
        product_type: 'CUP',
        title_differentiation: 'Double-wall steel',
        marketplace_country_code: 'US',
        ...asUpstream(child),
      },
      // The parent listing is its own parent.
      {
        sku: 'ACM-MUG-PARENT',
        child_asin: 'B0MUGPARNT',
        parent_asin: 'B0MUGPARNT',
        mkt_product_type: 'DRINKING_CUP',
        product_type: 'DRINKING_CUP',
        title_differentiation: null,
        marketplace_country_code: 'US',
        ...asUpstream(parent),
      },
    ]);
    // last_seen_at is the landing time of the page, in UTC.
    expect(
      await rows(
        wh,
        `select count(*)::int as n from marts.mkt_listings_raw as l join control.landed_files as f on f.source = 'listingsItems.searchListingsItems' and l.last_seen_at = timezone('UTC', f.landed_at)`,
      ),
    ).toEqual([{ n: 4 }]);
  });

  it('keeps the latest landed item of each SKU across pages', async () => {
    await landOk(
      wh,
      'listingsItems.searchListingsItems',
      US,
      writeJson(dir, 'old.json', {
        items: [
          bottle,
          { ...draft, summaries: [{ marketplaceId: US.marketplaceId, productType: 'KNIFE', status: [] }] },
        ],
      }),
    );
    await landOk(
      wh,
      'listingsItems.searchListingsItems',
      DE,
      writeJson(dir, 'de.json', {
        items: [
          {
            ...bottle,
            summaries: [{ marketplaceId: DE.marketplaceId, asin: 'B0WHJSZGUH', productType: 'BOTTLE', status: [] }],
          },
        ],
      }),
    );
    await landOk(
      wh,
      'listingsItems.searchListingsItems',
      US,
      writeJson(dir, 'new.json', {
        items: [
          {
            ...draft,
            summaries: [
              { marketplaceId: US.marketplaceId, asin: 'B0DRAFT001', productType: 'KNIFE', status: ['BUYABLE'] },
            ],
          },
        ],
      }),
    );
    await build(wh, 'mkt_listings_raw');
    expect(
      await rows(
        wh,
        `select marketplace_country_code, sku, child_asin, mkt_product_type from marts.mkt_listings_raw order by all`,
      ),
    ).toEqual([
      { marketplace_country_code: 'DE', sku: 'ACM-BOTTLE-2PK', child_asin: 'B0WHJSZGUH', mkt_product_type: 'BOTTLE' },
      { marketplace_country_code: 'US', sku: 'ACM-BOTTLE-2PK', child_asin: 'B0WHJSZGUH', mkt_product_type: 'BOTTLE' },
      { marketplace_country_code: 'US', sku: 'ACM-DRAFT-1', child_asin: 'B0DRAFT001', mkt_product_type: 'KNIFE' },
    ]);
  });
});

describe('mkt_item_offers', () => {
  let wh: Warehouse;
  let dir: string;
  beforeEach(async () => ({ wh, dir } = await makeHome()));
  afterEach(async () => wh.close());

  it('lands the real sample with Summary and Offers as the API returns them', async () => {
    await landOk(wh, 'productPricing.getItemOffers', US, sample('productPricingV0.getItemOffers.example.json'));
    await build(wh, 'mkt_item_offers');
    const upstream = JSON.parse(readFileSync(sample('productPricingV0.getItemOffers.example.json'), 'utf8')).payload;
    const [row] = await rows(wh, 'select * from marts.mkt_item_offers');
    expect(row).toMatchObject({
      marketplace_id: US.marketplaceId,
      seller_or_vendor_id: US.id,
      asin: 'B00V5DG6IQ',
      item_condition: 'New',
      status: 'Success',
      sku: null,
    });
    expect(JSON.parse(String(row!.summary))).toEqual(upstream.Summary);
    expect(JSON.parse(String(row!.offers))).toEqual(upstream.Offers);
  });

  it("keeps each ASIN and condition's latest response and finds the SKU when it is unambiguous", async () => {
    await landListings(wh, dir, US, 'listings.tsv', [
      {
        'seller-sku': 'ACM-MUG-12-BLK',
        asin1: 'B05JYC0Q2J',
        price: '24.99',
        'open-date': '2026-01-01 10:00:00 PST',
        status: 'Active',
      },
      {
        'seller-sku': 'ACM-MUG-12-BLK-FBA',
        asin1: 'B05JYC0Q2J',
        price: '25.99',
        'open-date': '2026-01-01 10:00:00 PST',
        status: 'Active',
      },
      {
        'seller-sku': 'ACM-BOTTLE-2PK',
        asin1: 'B0WHJSZGUH',
        price: '19.99',
        'open-date': '2026-01-01 10:00:00 PST',
        status: 'Active',
      },
    ]);
    const response = (asin: string, condition: string, totalOffers: number, sellerSku?: string) => ({
      payload: {
        ASIN: asin,
        status: 'Success',
        ItemCondition: condition,
        marketplaceId: US.marketplaceId,
        Identifier: {
          MarketplaceId: US.marketplaceId,
          ASIN: asin,
          ItemCondition: condition,
          ...(sellerSku ? { SellerSKU: sellerSku } : {}),
        },
        Summary: { TotalOfferCount: totalOffers },
        Offers: [],
      },
    });
    const offers = (name: string, body: unknown) =>
      landOk(wh, 'productPricing.getItemOffers', US, writeJson(dir, name, body));
    await offers('bottle-1.json', response('B0WHJSZGUH', 'New', 2));
    await offers('mug-new.json', response('B05JYC0Q2J', 'New', 5));
    await offers('mug-used.json', response('B05JYC0Q2J', 'Used', 1, 'ACM-MUG-12-BLK'));
    await offers('bottle-2.json', response('B0WHJSZGUH', 'New', 3));
    await build(wh, 'mkt_item_offers');
    expect(
      await rows(
        wh,
        `select asin, item_condition, sku, summary ->> 'TotalOfferCount' as total_offers from marts.mkt_item_offers order by asin, item_condition`,
      ),
    ).toEqual([
      // Two SKUs share the mug ASIN: unknown unless the response names it.
      { asin: 'B05JYC0Q2J', item_condition: 'New', sku: null, total_offers: '5' },
      { asin: 'B05JYC0Q2J', item_condition: 'Used', sku: 'ACM-MUG-12-BLK', total_offers: '1' },
      // The later response (3 offers) replaces the earlier one (2).
      { asin: 'B0WHJSZGUH', item_condition: 'New', sku: 'ACM-BOTTLE-2PK', total_offers: '3' },
    ]);
  });
});

describe('listings catalog entries', () => {
  const model = (name: string) => loadModels().find((m) => m.name === name)!;
  const columns = (name: string) =>
    model(name)
      .config.columns.slice(6)
      .map((c) => `${c.name}${c.nullable ? '?' : ''} ${c.type[0]}`)
      .join(', ');

  it('list the columns of spec documents 001 and 002 in order, `?` marking nullable, with their types', () => {
    // Spec 001 "mkt_listings_with_cogs", "mkt_listings_raw"; spec 002 "mkt_item_offers" (after the common columns C).
    expect(columns('mkt_listings_with_cogs')).toBe(
      'listing_id T, sku T, fnsku T, child_asin T, title_differentiation? T, listing_condition T, listing_name T, listing_price_value N, ' +
        'listing_estimated_per_item_referral_fee? N, listing_price_currency T, listing_current_quantity N, listing_pending_quantity N, ' +
        'fba_quantity_available N, fba_quantity_pending_removal N, fba_quantity_inbound N, fba_quantity_reserved N, fba_quantity_fc_transfer? N, ' +
        'fba_inventory_supply_at_fba? N, fba_has_stranded_inventory L, awd_total_inbound_quantity? N, awd_total_onhand_quantity? N, ' +
        'awd_available_distributable_quantity? N, awd_replenishment_quantity? N, awd_reserved_distributable_quantity? N, awd_next_expiration_at? D, ' +
        'awd_next_expiration_quantity? N, awd_expirations? J, listing_fulfillment_channel T, listing_open_date D, listing_status T, ' +
        'cogs_item_value? N, cogs_shipping_value? N, cogs_total_value? N, cogs_present L, cogs_currency? T, item_current_supplier_name? T',
    );
    expect(columns('mkt_listings_raw')).toBe(
      'child_asin T, parent_asin T, sku T, mkt_product_type T, product_type T, summaries? J, attributes? J, classifications? J, dimensions? J, ' +
        'identifiers? J, images? J, sales_ranks? J, offers? J, fulfillment_availability? J, issues? J, relationships? J, title_differentiation? T, last_seen_at D',
    );
    expect(columns('mkt_item_offers')).toBe(
      'asin T, item_condition T, status? T, sku? T, summary? J, offers? J, last_seen_at D',
    );
  });

  it('carry the metadata of the spec', () => {
    const continuous = {
      requiresDatePeriod: false,
      fetchPeriods: [{ type: 'CONTINUOUS' }],
      type: 'SELLER_CENTRAL',
      containsPii: false,
      enabled: true,
      rowCountBilling: true,
    };
    expect(model('mkt_listings_with_cogs').config.catalog).toMatchObject({
      ...continuous,
      name: 'Listings',
      isPremium: true,
      defaultDataset: true,
      dataAvailability: { type: 'INTRADAY', refreshAt: '10am, 1pm, 4pm' },
    });
    expect(model('mkt_listings_raw').config.catalog).toMatchObject({
      ...continuous,
      name: 'Listings (Raw JSON)',
      isPremium: false,
      defaultDataset: false,
    });
    expect(model('mkt_item_offers').config.catalog).toMatchObject({
      ...continuous,
      name: 'Item Offers',
      isPremium: false,
      defaultDataset: false,
    });
    const actions = [
      'MKT_LISTINGS_CREATE writes',
      'MKT_LISTINGS_UPDATE writes',
      'MKT_LISTINGS_PRICING_UPDATE writes',
      'MKT_LISTINGS_DETAILS_UPDATE writes',
      'MKT_LISTINGS_FIND live',
    ];
    for (const name of ['mkt_listings_with_cogs', 'mkt_listings_raw']) {
      expect(model(name).config.catalog!.relatedActions!.map((a) => `${a.type} ${a.relation}`)).toEqual(actions);
    }
  });
});
