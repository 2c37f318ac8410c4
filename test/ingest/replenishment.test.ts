import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import type { Warehouse } from '../../src/db/warehouse.ts';
import { DE, land, makeHome, rows, US } from '../helpers/home.ts';
import { writeJson } from '../helpers/profit.ts';

const sample = (name: string) => fileURLToPath(new URL(`../../fixtures/upstream-samples/${name}`, import.meta.url));
const count = async (wh: Warehouse, table: string) => (await rows(wh, `select count(*)::int as n from ${table}`))[0]?.n;
const day = (d: string) => ({ startDate: `${d}T00:00:00Z`, endDate: `${d}T00:00:00Z` });

describe('ingest replenishment.getSellingPartnerMetrics', () => {
  const SOURCE = 'replenishment.getSellingPartnerMetrics';
  const raw = 'raw.replenishment_get_selling_partner_metrics';
  let wh: Warehouse;
  let dir: string;
  beforeEach(async () => ({ wh, dir } = await makeHome()));
  afterEach(async () => wh.close());

  it('lands the real sample: one row per metrics element, timeInterval flattened, metrics as decimals', async () => {
    const result = await land(wh, SOURCE, US, sample('replenishment_2022-11-07.getSellingPartnerMetrics.example.json'));
    expect(result).toMatchObject({ status: 'landed', rows: 2 });
    const got = await rows(
      wh,
      `select _line_number, timezone('UTC', start_date)::varchar as start_utc, timezone('UTC', end_date)::varchar as end_utc,
        currency_code, total_subscriptions_revenue, shipped_subscription_units, revenue_from_active_subscriptions_with_single_delivery,
        revenue_penetration_for10percent_seller_funding, revenue_penetration_for5plus_percent_seller_funding, established_subscriber_life_time_value_from_sns, _extra
      from ${raw} order by _line_number`,
    );
    expect(got).toEqual([
      {
        _line_number: '1',
        start_utc: '2024-05-09 22:36:56',
        end_utc: '2025-05-09 22:36:56',
        currency_code: 'USD',
        total_subscriptions_revenue: '131340.2400',
        shipped_subscription_units: '5290',
        revenue_from_active_subscriptions_with_single_delivery: '30345.2000',
        revenue_penetration_for10percent_seller_funding: '67.5700',
        revenue_penetration_for5plus_percent_seller_funding: null,
        established_subscriber_life_time_value_from_sns: null,
        _extra: null,
      },
      {
        _line_number: '2',
        start_utc: '2023-05-09 22:36:56',
        end_utc: '2025-05-09 22:36:56',
        currency_code: 'USD',
        total_subscriptions_revenue: null,
        shipped_subscription_units: null,
        revenue_from_active_subscriptions_with_single_delivery: null,
        revenue_penetration_for10percent_seller_funding: null,
        revenue_penetration_for5plus_percent_seller_funding: null,
        established_subscriber_life_time_value_from_sns: '316.2500',
        _extra: null,
      },
    ]);
  });

  it('keeps unknown fields in _extra and reads a bare-date interval as that day at 00:00 UTC', async () => {
    const path = writeJson(dir, 'm.json', {
      metrics: [
        {
          totalSubscriptionsRevenue: 10.5,
          subscriberChurnRate: 3.2,
          currencyCode: 'EUR',
          timeInterval: { startDate: '2026-03-01', endDate: '2026-03-01' },
        },
      ],
    });
    expect(await land(wh, SOURCE, DE, path)).toMatchObject({ status: 'landed', rows: 1 });
    expect(
      await rows(
        wh,
        `select timezone('UTC', start_date)::varchar as start_utc, total_subscriptions_revenue, _extra::varchar as extra from ${raw}`,
      ),
    ).toEqual([
      {
        start_utc: '2026-03-01 00:00:00',
        total_subscriptions_revenue: '10.5000',
        extra: '{"subscriberChurnRate":3.2}',
      },
    ]);
  });

  it('refuses an API error response saved as a file, naming it, and lands nothing', async () => {
    const path = writeJson(dir, 'error.json', {
      errors: [{ code: 'InvalidInput', message: 'Unsupported aggregationFrequency is provided.' }],
    });
    const result = await land(wh, SOURCE, US, path);
    expect(result).toMatchObject({
      status: 'refused',
      line: null,
      reason:
        'an API error response, not getSellingPartnerMetrics data (InvalidInput: Unsupported aggregationFrequency is provided.)',
    });
    expect(await count(wh, raw)).toBe(0);
  });

  it('refuses the whole file when one record has no timeInterval, naming the record and field', async () => {
    const path = writeJson(dir, 'm.json', {
      metrics: [{ totalSubscriptionsRevenue: 1, timeInterval: day('2026-03-01') }, { totalSubscriptionsRevenue: 2 }],
    });
    expect(await land(wh, SOURCE, US, path)).toMatchObject({
      status: 'refused',
      line: 2,
      reason: 'record 2: timeInterval.startDate is missing',
    });
    expect(await count(wh, raw)).toBe(0);
  });

  it('refuses a metric that is not a number, naming the record and field', async () => {
    const path = writeJson(dir, 'm.json', {
      metrics: [
        { totalSubscriptionsRevenue: 1, timeInterval: day('2026-03-01') },
        { totalSubscriptionsRevenue: 'n/a', timeInterval: day('2026-03-02') },
      ],
    });
    const result = await land(wh, SOURCE, US, path);
    expect(result).toMatchObject({ status: 'refused', line: 2 });
    expect(result.status === 'refused' && result.reason).toMatch(
      /^record 2: totalSubscriptionsRevenue: n\/a is not a valid decimal/,
    );
    expect(await count(wh, raw)).toBe(0);
  });
});

describe('ingest replenishment.listOfferMetrics', () => {
  const SOURCE = 'replenishment.listOfferMetrics';
  const raw = 'raw.replenishment_list_offer_metrics';
  let wh: Warehouse;
  let dir: string;
  beforeEach(async () => ({ wh, dir } = await makeHome()));
  afterEach(async () => wh.close());

  it('lands the real sample: one row per offer, pagination is no record', async () => {
    expect(await land(wh, SOURCE, US, sample('replenishment_2022-11-07.listOfferMetrics.example.json'))).toMatchObject({
      status: 'landed',
      rows: 2,
    });
    expect(
      await rows(
        wh,
        `select asin, sku, fulfillment_channel_type, timezone('UTC', end_date)::date::varchar as end_day, revenue_penetration, coupons_revenue_penetration from ${raw} order by _line_number`,
      ),
    ).toEqual([
      {
        asin: 'B07CYBR5GZ',
        sku: 'SD-RES-101973',
        fulfillment_channel_type: 'AMAZON',
        end_day: '2022-12-31',
        revenue_penetration: '23.6000',
        coupons_revenue_penetration: '10.0000',
      },
      {
        asin: 'B07CYJJW8H',
        sku: 'SD-RES-121973',
        fulfillment_channel_type: 'MERCHANT',
        end_day: '2022-12-31',
        revenue_penetration: '35.9000',
        coupons_revenue_penetration: '17.0000',
      },
    ]);
  });

  it('refuses a vendor response (offers without SKU) with the reason', async () => {
    const path = writeJson(dir, 'vendor.json', {
      offers: [
        { asin: 'B000000001', productGroup: 'Grocery', totalSubscriptionsRevenue: 5, timeInterval: day('2026-03-01') },
      ],
    });
    expect(await land(wh, SOURCE, US, path)).toMatchObject({
      status: 'refused',
      line: 1,
      reason:
        'record 1: sku is missing (vendor responses carry no SKU; the replenishment SKU tables are for seller accounts)',
    });
  });

  it('refuses a document that is not a listOfferMetrics response', async () => {
    expect(await land(wh, SOURCE, US, writeJson(dir, 'x.json', [{ asin: 'B1' }]))).toMatchObject({
      status: 'refused',
      reason: 'expected a listOfferMetrics response: a JSON object with an array "offers"',
    });
  });
});

describe('ingest replenishment.listOffers', () => {
  const SOURCE = 'replenishment.listOffers';
  const raw = 'raw.replenishment_list_offers';
  let wh: Warehouse;
  let dir: string;
  beforeEach(async () => ({ wh, dir } = await makeHome()));
  afterEach(async () => wh.close());

  it('lands offers with their counts, objects and arrays as JSON text', async () => {
    const path = writeJson(dir, 'offers.json', {
      offers: [
        {
          asin: 'B0E54BJT7R',
          sku: 'CAN-1',
          marketplaceId: US.marketplaceId,
          eligibility: 'ELIGIBLE',
          programType: 'SUBSCRIBE_AND_SAVE',
          price: 8.99,
          priceCurrencyCode: 'USD',
          inventory: 420,
          subscriptions: 303,
          stockRisk: 'LOW',
          fulfillmentNetworkIDType: 'AFN',
          vendorCodes: ['ABCDE'],
          deliveriesConditions: [{ condition: 'NO_ISSUES_FOR_NEXT_30_DAYS_DELIVERIES', next30DaysDeliveries: 118 }],
          forecastDeliveries: { next30DaysDeliveries: 118 },
        },
      ],
      pagination: { totalResults: 1 },
    });
    expect(await land(wh, SOURCE, US, path)).toMatchObject({ status: 'landed', rows: 1 });
    expect(
      await rows(
        wh,
        `select sku, fulfillment_network_id_type, price, inventory, subscriptions, vendor_codes, deliveries_conditions, forecast_deliveries, offer_program_configuration from ${raw}`,
      ),
    ).toEqual([
      {
        sku: 'CAN-1',
        fulfillment_network_id_type: 'AFN',
        price: '8.9900',
        inventory: '420',
        subscriptions: '303',
        vendor_codes: '["ABCDE"]',
        deliveries_conditions: '[{"condition":"NO_ISSUES_FOR_NEXT_30_DAYS_DELIVERIES","next30DaysDeliveries":118}]',
        forecast_deliveries: '{"next30DaysDeliveries":118}',
        offer_program_configuration: null,
      },
    ]);
  });

  it("refuses an offer of another marketplace than the connection's", async () => {
    const path = writeJson(dir, 'offers.json', {
      offers: [{ asin: 'B1', sku: 'S1', marketplaceId: DE.marketplaceId, price: 1 }],
    });
    expect(await land(wh, SOURCE, US, path)).toMatchObject({
      status: 'refused',
      line: 1,
      reason: `record 1: marketplaceId ${DE.marketplaceId} is not the connection's marketplace ${US.marketplaceId}`,
    });
    expect(await count(wh, raw)).toBe(0);
  });
});
