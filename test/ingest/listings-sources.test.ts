import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import type { Warehouse } from '../../src/db/warehouse.ts';
import { land, makeHome, rows, US, DE } from '../helpers/home.ts';
import { listingsHeader, writeTsv } from '../helpers/listings.ts';
import { writeJson } from '../helpers/profit.ts';

const sample = (name: string) => fileURLToPath(new URL(`../../fixtures/upstream-samples/${name}`, import.meta.url));

const count = async (wh: Warehouse, table: string) => (await rows(wh, `select count(*)::int as n from ${table}`))[0]?.n;
const reason = (result: unknown) => (result as { reason: string }).reason;

describe('ingest GET_MERCHANT_LISTINGS_ALL_DATA', () => {
  const SOURCE = 'GET_MERCHANT_LISTINGS_ALL_DATA';
  const raw = 'raw.get_merchant_listings_all_data';
  let wh: Warehouse;
  let dir: string;
  beforeEach(async () => ({ wh, dir } = await makeHome()));
  afterEach(async () => wh.close());

  it('lands the real UK sample with BST and GMT open-dates in UTC, empty fields null', async () => {
    expect(await land(wh, SOURCE, DE, sample('GET_MERCHANT_LISTINGS_ALL_DATA.example.tsv'))).toMatchObject({
      status: 'landed',
      rows: 3,
    });
    const got = await rows(
      wh,
      `select _line_number, seller_sku, listing_id, price, quantity, timezone('UTC', open_date)::varchar as open_utc,
        item_condition, asin1, pending_quantity, fulfillment_channel, status, item_note, _extra from ${raw} order by _line_number`,
    );
    expect(got).toEqual([
      // 08/07/2016 is 8 July (day first); BST is UTC+1, so 10:12:40 BST is 09:12:40 UTC.
      {
        _line_number: '2',
        seller_sku: '1234567',
        listing_id: '0708QHIDPCS',
        price: '20.0000',
        quantity: '1',
        open_utc: '2016-07-08 09:12:40',
        item_condition: '11',
        asin1: 'B01I53BE4O',
        pending_quantity: '0',
        fulfillment_channel: 'DEFAULT',
        status: 'Active',
        item_note: null,
        _extra: null,
      },
      // 30 March 2011 is after the 27 March switch to BST: 16:23:57 BST is 15:23:57 UTC.
      {
        _line_number: '3',
        seller_sku: '35-GFRR-W3VC',
        listing_id: '0330INLVNF4',
        price: '0.0200',
        quantity: '1',
        open_utc: '2011-03-30 15:23:57',
        item_condition: '4',
        asin1: 'B004ADOCTI',
        pending_quantity: '0',
        fulfillment_channel: 'DEFAULT',
        status: 'Active',
        item_note: 'NOT A REAL ITEM',
        _extra: null,
      },
      // GMT is UTC.
      {
        _line_number: '4',
        seller_sku: 'ATV2',
        listing_id: '0324IL4Y6TS',
        price: '10.0000',
        quantity: '1',
        open_utc: '2011-03-24 09:29:39',
        item_condition: '1',
        asin1: 'B0041IZHVO',
        pending_quantity: '0',
        fulfillment_channel: 'DEFAULT',
        status: 'Inactive',
        item_note: null,
        _extra: null,
      },
    ]);
  });

  it('reads US PST and PDT open-dates, empty FBA quantities and keeps B2B columns in _extra', async () => {
    const header = [...listingsHeader, 'Business Price', 'Quantity Price Type'];
    const file = writeTsv(dir, 'listings-us.tsv', header, [
      {
        'item-name': 'Trail Mug 12" Steel',
        'listing-id': '0107ABCDEFG',
        'seller-sku': 'ACM-MUG-12-BLK',
        price: '24.99',
        quantity: '40',
        'open-date': '2026-01-07 07:35:42 PST',
        'item-condition': '11',
        asin1: 'B05JYC0Q2J',
        'pending-quantity': '2',
        'fulfillment-channel': 'DEFAULT',
        status: 'Active',
        'Business Price': '22.50',
      },
      {
        'item-name': 'Trail Mug 12" Steel',
        'listing-id': '0315ABCDEFG',
        'seller-sku': 'ACM-MUG-12-BLK-FBA',
        price: '25.99',
        quantity: '',
        'open-date': '2026-03-15 02:26:37 PDT',
        'item-condition': '11',
        asin1: 'B05JYC0Q2J',
        'fulfillment-channel': 'AMAZON_NA',
        status: 'Active',
      },
    ]);
    expect(await land(wh, SOURCE, US, file)).toMatchObject({ status: 'landed', rows: 2 });
    expect(
      await rows(
        wh,
        `select seller_sku, item_name, price, quantity, timezone('UTC', open_date)::varchar as open_utc, _extra::varchar as extra from ${raw} order by _line_number`,
      ),
    ).toEqual([
      // PST is UTC-8: 07:35:42 PST is 15:35:42 UTC.
      {
        seller_sku: 'ACM-MUG-12-BLK',
        item_name: 'Trail Mug 12" Steel',
        price: '24.9900',
        quantity: '40',
        open_utc: '2026-01-07 15:35:42',
        extra: '{"Business Price":"22.50","Quantity Price Type":null}',
      },
      // PDT is UTC-7 (15 March 2026 is after the 8 March switch): 02:26:37 PDT is 09:26:37 UTC.
      {
        seller_sku: 'ACM-MUG-12-BLK-FBA',
        item_name: 'Trail Mug 12" Steel',
        price: '25.9900',
        quantity: null,
        open_utc: '2026-03-15 09:26:37',
        extra: '{"Business Price":null,"Quantity Price Type":null}',
      },
    ]);
  });

  it('reads a cp1252 file with a decimal comma and a MEZ open-date', async () => {
    const file = writeTsv(
      dir,
      'listings-de.tsv',
      listingsHeader,
      [
        {
          'item-name': 'Trinkflasche „Trail“ – 1 l €',
          'seller-sku': 'ACM-BOTTLE-1L-WHT',
          price: '12,99',
          'open-date': '15.03.2026 10:00:00 MEZ',
          status: 'Active',
        },
      ],
      { cp1252: true },
    );
    expect(await land(wh, SOURCE, DE, file)).toMatchObject({ status: 'landed', rows: 1 });
    // MEZ is UTC+1: 10:00 MEZ is 09:00 UTC.
    expect(
      await rows(wh, `select item_name, price, timezone('UTC', open_date)::varchar as open_utc from ${raw}`),
    ).toEqual([{ item_name: 'Trinkflasche „Trail“ – 1 l €', price: '12.9900', open_utc: '2026-03-15 09:00:00' }]);
  });

  it('refuses an open-date with an unknown zone whole, naming line and value', async () => {
    const file = writeTsv(dir, 'listings-zone.tsv', listingsHeader, [
      { 'seller-sku': 'A', price: '1.00', 'open-date': '2026-01-07 07:35:42 PST' },
      { 'seller-sku': 'B', price: '1.00', 'open-date': '2026-01-07 07:35:42 XYZ' },
    ]);
    const result = await land(wh, SOURCE, US, file);
    expect(result).toMatchObject({ status: 'refused', line: 3 });
    expect(reason(result)).toContain("open-date: '2026-01-07 07:35:42 XYZ'");
    expect(await count(wh, raw)).toBe(0);
  });

  it('refuses a bad price naming its line and field, and a file without seller-sku', async () => {
    const bad = writeTsv(dir, 'listings-price.tsv', listingsHeader, [{ 'seller-sku': 'A', price: 'abc' }]);
    const result = await land(wh, SOURCE, US, bad);
    expect(result).toMatchObject({ status: 'refused', line: 2 });
    expect(reason(result)).toMatch(/price: abc is not a valid decimal/);
    const noSku = writeTsv(
      dir,
      'listings-nosku.tsv',
      listingsHeader.filter((h) => h !== 'seller-sku'),
      [{ price: '1.00' }],
    );
    const refused = await land(wh, SOURCE, US, noSku);
    expect(refused).toMatchObject({ status: 'refused', line: 1 });
    expect(reason(refused)).toMatch(/missing column\(s\) seller-sku/);
    expect(await count(wh, raw)).toBe(0);
  });
});

describe('ingest fbaInventory.getInventorySummaries', () => {
  const SOURCE = 'fbaInventory.getInventorySummaries';
  const raw = 'raw.fba_inventory_get_inventory_summaries';
  let wh: Warehouse;
  let dir: string;
  beforeEach(async () => ({ wh, dir } = await makeHome()));
  afterEach(async () => wh.close());

  it('lands the real sample with the detail buckets as columns', async () => {
    expect(await land(wh, SOURCE, US, sample('fbaInventory.getInventorySummaries.example.json'))).toMatchObject({
      status: 'landed',
      rows: 3,
    });
    const got = await rows(
      wh,
      `select _line_number, granularity_id, seller_sku, asin, fn_sku, condition, last_updated_time::varchar as updated,
        total_quantity, fulfillable_quantity, inbound_working_quantity, total_reserved_quantity, total_unfulfillable_quantity,
        _extra ->> '$.researchingQuantityBreakdown[2].name' as third_breakdown from ${raw} order by _line_number`,
    );
    const zero = {
      total_quantity: '0',
      fulfillable_quantity: '0',
      inbound_working_quantity: '0',
      total_reserved_quantity: '0',
      total_unfulfillable_quantity: '0',
    };
    expect(got).toEqual([
      // lastUpdatedTime is an empty string in the sample: null.
      {
        _line_number: '1',
        granularity_id: 'ATVPDKIKX0DER',
        seller_sku: 'EMTEC 1 GB',
        asin: 'B0020MLK00',
        fn_sku: 'B0020MLK00',
        condition: 'NewItem',
        updated: null,
        ...zero,
        third_breakdown: null,
      },
      {
        _line_number: '2',
        granularity_id: 'ATVPDKIKX0DER',
        seller_sku: 'EMTEC-SdCard-reader',
        asin: 'B0020MLK00',
        fn_sku: 'B0020MLK00',
        condition: 'NewItem',
        updated: null,
        ...zero,
        third_breakdown: null,
      },
      {
        _line_number: '3',
        granularity_id: 'ATVPDKIKX0DER',
        seller_sku: 'Silicon Power 32GB',
        asin: 'B00T9QONN6',
        fn_sku: 'B00T9QONN6',
        condition: 'NewItem',
        updated: '2018-03-31 23:40:39+00',
        total_quantity: '87',
        fulfillable_quantity: '66',
        inbound_working_quantity: '21',
        total_reserved_quantity: '0',
        total_unfulfillable_quantity: '0',
        third_breakdown: 'researchingQuantityInLongTerm',
      },
    ]);
  });

  it('refuses an error response, a summary without sellerSku and a quantity that is not a number', async () => {
    const error = await land(
      wh,
      SOURCE,
      US,
      writeJson(dir, 'error.json', { errors: [{ code: 'InvalidInput', message: 'granularityId is invalid' }] }),
    );
    expect(error).toMatchObject({ status: 'refused' });
    expect(reason(error)).toBe('the response is an error: InvalidInput granularityId is invalid');
    const page = (summaries: unknown[]) => ({
      payload: {
        granularity: { granularityType: 'Marketplace', granularityId: US.marketplaceId },
        inventorySummaries: summaries,
      },
    });
    const noSku = await land(
      wh,
      SOURCE,
      US,
      writeJson(
        dir,
        'nosku.json',
        page([
          { sellerSku: 'A', totalQuantity: 1 },
          { asin: 'B000000002', totalQuantity: 1 },
        ]),
      ),
    );
    expect(noSku).toMatchObject({ status: 'refused', line: 2 });
    expect(reason(noSku)).toBe('record 2: sellerSku is missing');
    const badQuantity = await land(
      wh,
      SOURCE,
      US,
      writeJson(dir, 'bad.json', page([{ sellerSku: 'A', inventoryDetails: { fulfillableQuantity: 'many' } }])),
    );
    expect(badQuantity).toMatchObject({ status: 'refused', line: 1 });
    expect(reason(badQuantity)).toMatch(/record 1: fulfillableQuantity: many is not a valid integer/);
    expect(await count(wh, raw)).toBe(0);
  });
});

describe('ingest listingsItems.searchListingsItems', () => {
  const SOURCE = 'listingsItems.searchListingsItems';
  const raw = 'raw.listings_items_search_listings_items';
  let wh: Warehouse;
  let dir: string;
  beforeEach(async () => ({ wh, dir } = await makeHome()));
  afterEach(async () => wh.close());

  const item = {
    sku: 'ACM-MUG-12-BLK',
    summaries: [
      {
        marketplaceId: US.marketplaceId,
        asin: 'B05JYC0Q2J',
        productType: 'DRINKING_CUP',
        status: ['BUYABLE', 'DISCOVERABLE'],
        itemName: 'Trail Mug',
        createdDate: '2026-01-07T15:35:42Z',
        lastUpdatedDate: '2026-09-01T00:00:00Z',
      },
    ],
    attributes: { item_name: [{ value: 'Trail Mug', language_tag: 'en_US', marketplace_id: US.marketplaceId }] },
    issues: [],
    offers: [{ marketplaceId: US.marketplaceId, offerType: 'B2C', price: { currencyCode: 'USD', amount: '24.99' } }],
    fulfillmentAvailability: [{ fulfillmentChannelCode: 'DEFAULT', quantity: 40 }],
  };

  it('lands a search page and a single getListingsItem answer, keeping unknown fields in _extra', async () => {
    const page = {
      numberOfResults: 2,
      pagination: { nextToken: 'xyz' },
      items: [item, { sku: 'ACM-BOTTLE-2PK', summaries: [], futureField: { a: 1 } }],
    };
    expect(await land(wh, SOURCE, US, writeJson(dir, 'page.json', page))).toMatchObject({ status: 'landed', rows: 2 });
    expect(
      await land(wh, SOURCE, US, writeJson(dir, 'one.json', { ...item, sku: 'ACM-MUG-12-BLK-FBA' })),
    ).toMatchObject({ status: 'landed', rows: 1 });
    const got = await rows(
      wh,
      `select sku, summaries::json ->> '$[0].productType' as product_type, offers::json ->> '$[0].price.amount' as price,
        fulfillment_availability::json ->> '$[0].quantity' as quantity, issues, relationships, _extra::varchar as extra from ${raw} order by _file_id = (select _file_id from ${raw} where sku = 'ACM-MUG-12-BLK-FBA'), _line_number`,
    );
    expect(got).toEqual([
      {
        sku: 'ACM-MUG-12-BLK',
        product_type: 'DRINKING_CUP',
        price: '24.99',
        quantity: '40',
        issues: '[]',
        relationships: null,
        extra: null,
      },
      {
        sku: 'ACM-BOTTLE-2PK',
        product_type: null,
        price: null,
        quantity: null,
        issues: null,
        relationships: null,
        extra: '{"futureField":{"a":1}}',
      },
      {
        sku: 'ACM-MUG-12-BLK-FBA',
        product_type: 'DRINKING_CUP',
        price: '24.99',
        quantity: '40',
        issues: '[]',
        relationships: null,
        extra: null,
      },
    ]);
  });

  it('refuses an item without sku, or with a data set that is not JSON structure, naming the record', async () => {
    const noSku = await land(wh, SOURCE, US, writeJson(dir, 'nosku.json', { items: [item, { summaries: [] }] }));
    expect(noSku).toMatchObject({ status: 'refused', line: 2 });
    expect(reason(noSku)).toMatch(/^record 2: sku: /);
    const badSet = await land(wh, SOURCE, US, writeJson(dir, 'bad.json', { items: [{ ...item, offers: 'none' }] }));
    expect(badSet).toMatchObject({ status: 'refused', line: 1 });
    expect(reason(badSet)).toBe('record 1: offers: expected an array or object');
    expect(await count(wh, raw)).toBe(0);
  });
});

describe('ingest productPricing.getItemOffers', () => {
  const SOURCE = 'productPricing.getItemOffers';
  const raw = 'raw.product_pricing_get_item_offers';
  let wh: Warehouse;
  let dir: string;
  beforeEach(async () => ({ wh, dir } = await makeHome()));
  afterEach(async () => wh.close());

  it('lands the real sample: one row with Summary and Offers as JSON', async () => {
    expect(await land(wh, SOURCE, US, sample('productPricingV0.getItemOffers.example.json'))).toMatchObject({
      status: 'landed',
      rows: 1,
    });
    expect(
      await rows(
        wh,
        `select asin, item_condition, marketplace_id, status, seller_sku, summary::json ->> '$.TotalOfferCount' as total_offers,
        offers::json ->> '$[0].SellerId' as seller, identifier::json ->> '$.MarketplaceId' as identifier_marketplace, _extra from ${raw}`,
      ),
    ).toEqual([
      {
        asin: 'B00V5DG6IQ',
        item_condition: 'New',
        marketplace_id: 'ATVPDKIKX0DER',
        status: 'Success',
        seller_sku: null,
        total_offers: '1',
        seller: 'AXXXXXXXXXXXXX',
        identifier_marketplace: 'ATVPDKIKX0DER',
        _extra: null,
      },
    ]);
  });

  it('takes ASIN, condition and SellerSKU from Identifier and refuses an error response', async () => {
    const payload = {
      status: 'Success',
      Identifier: {
        MarketplaceId: DE.marketplaceId,
        ASIN: 'B05JYC0Q2J',
        ItemCondition: 'Used',
        SellerSKU: 'ACM-MUG-12-BLK',
      },
      Summary: { TotalOfferCount: 0 },
      Offers: [],
    };
    expect(await land(wh, SOURCE, DE, writeJson(dir, 'offers.json', { payload }))).toMatchObject({
      status: 'landed',
      rows: 1,
    });
    expect(await rows(wh, `select asin, item_condition, seller_sku, offers from ${raw}`)).toEqual([
      { asin: 'B05JYC0Q2J', item_condition: 'Used', seller_sku: 'ACM-MUG-12-BLK', offers: '[]' },
    ]);
    const error = await land(
      wh,
      SOURCE,
      DE,
      writeJson(dir, 'error.json', { errors: [{ code: 'InvalidInput', message: 'Invalid ASIN' }] }),
    );
    expect(error).toMatchObject({ status: 'refused' });
    expect(reason(error)).toBe('the response is an error: InvalidInput Invalid ASIN');
  });
});
