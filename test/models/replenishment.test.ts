import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import type { Warehouse } from '../../src/db/warehouse.ts';
import { runModels } from '../../src/models/run-models.ts';
import { DE, land, makeHome, rows, US } from '../helpers/home.ts';
import { writeJson } from '../helpers/profit.ts';

const sample = (name: string) => fileURLToPath(new URL(`../../fixtures/upstream-samples/${name}`, import.meta.url));
const interval = (start: string, end = start) => ({ startDate: `${start}T00:00:00Z`, endDate: `${end}T00:00:00Z` });
const common = [
  'marketplace_id',
  'marketplace_country_code',
  'marketplace_country_name',
  'seller_or_vendor_id',
  'seller_or_vendor_name',
  'marketplace_seller_id',
];
const usContext = {
  marketplace_id: US.marketplaceId,
  marketplace_country_code: 'US',
  marketplace_country_name: 'United States',
  seller_or_vendor_id: US.id,
  seller_or_vendor_name: 'Test US',
  marketplace_seller_id: 'SELLERUS',
};

/** The landing time of a file as the tables show it (UTC, no zone). */
async function landedAt(wh: Warehouse, fileId: string): Promise<string> {
  const [row] = await rows(
    wh,
    `select timezone('UTC', landed_at)::varchar as t from control.landed_files where id = $id`,
    { id: fileId },
  );
  return String(row!.t);
}

async function landOk(wh: Warehouse, source: string, connection: typeof US, path: string): Promise<string> {
  const result = await land(wh, source, connection, path);
  expect(result.status).toBe('landed');
  return result.status === 'landed' ? result.fileId : '';
}

async function build(wh: Warehouse, table: string) {
  const results = await runModels(wh, { select: [`marts.${table}`] });
  expect(results.filter((r) => r.status !== 'success')).toEqual([]);
  return results.find((r) => r.model === `marts.${table}`)!;
}

/** Every metric of mkt_replenishment_metrics_by_date at 0, as the table shows a metric the API did not return. */
const noAccountMetrics = Object.fromEntries(
  [
    'not_delivered_due_to_oos',
    'total_subscriptions_revenue',
    'shipped_subscription_units',
    'active_subscriptions',
    'subscriber_average_revenue',
    'non_subscriber_average_revenue',
    'lost_revenue_due_to_oos',
    'subscriber_average_reorders',
    'non_subscriber_average_reorders',
    'coupons_revenue_penetration',
    'revenue_from_subscriptions_with_multiple_deliveries',
    'revenue_from_active_subscriptions_with_single_delivery',
    'revenue_from_cancelled_subscriptions_after_single_delivery',
    'subscriber_retention_for_30_days',
    'subscriber_retention_for_90_days',
    'revenue_penetration_for_0_percent_seller_funding',
    'revenue_penetration_for_5_percent_seller_funding',
    'revenue_penetration_for_10_percent_seller_funding',
    'revenue_penetration_for_5_plus_percent_seller_funding',
    'share_of_coupon_subscriptions',
    'non_subscriber_lifetime_value_from_otp',
    'lost_subscriber_lifetime_value_from_otp',
    'lost_subscriber_lifetime_value_from_sns',
    'growing_subscriber_lifetime_value_from_otp',
    'growing_subscriber_lifetime_value_from_sns',
    'established_subscriber_lifetime_value_from_otp',
    'established_subscriber_lifetime_value_from_sns',
    'signup_conversion_for_0_percent_seller_funding',
    'signup_conversion_for_5_percent_seller_funding',
    'signup_conversion_for_10_percent_seller_funding',
    'signup_conversion_for_5_plus_percent_seller_funding',
    'revenue_penetration',
  ].map((c) => [c, '0.0000']),
);
const constants = {
  mkt_replenishment_program_type: 'SUBSCRIBE_AND_SAVE',
  mkt_replenishment_time_period_type: 'PERFORMANCE',
  mkt_replenishment_aggregation_frequency: 'DAY',
};

describe('mkt_replenishment_metrics_by_date', () => {
  let wh: Warehouse;
  let dir: string;
  beforeEach(async () => ({ wh, dir } = await makeHome()));
  afterEach(async () => wh.close());

  it('gives one row per metric day, merging trailing-window records into the day they end on, the latest pull of a day winning', async () => {
    const first = await landOk(
      wh,
      'replenishment.getSellingPartnerMetrics',
      US,
      writeJson(dir, 'metrics-1.json', {
        metrics: [
          {
            totalSubscriptionsRevenue: 100.5,
            shippedSubscriptionUnits: 10,
            activeSubscriptions: 50,
            notDeliveredDueToOOS: 2.5,
            currencyCode: 'USD',
            timeInterval: interval('2026-03-01'),
          },
          {
            totalSubscriptionsRevenue: 80.25,
            shippedSubscriptionUnits: 8,
            activeSubscriptions: 51,
            currencyCode: 'USD',
            timeInterval: interval('2026-03-02'),
          },
          // The trailing 12 months ending on 2 March: its revenue total must not replace the day's own.
          {
            subscriberAverageRevenue: 95.4,
            totalSubscriptionsRevenue: 30000,
            revenuePenetrationFor5PercentSellerFunding: 22.2,
            currencyCode: 'USD',
            timeInterval: interval('2025-03-03', '2026-03-02'),
          },
          {
            establishedSubscriberLifeTimeValueFromSNS: 316.25,
            currencyCode: 'USD',
            timeInterval: interval('2024-03-03', '2026-03-02'),
          },
        ],
      }),
    );
    // 2 March pulled again: revised revenue, units and subscriptions.
    const second = await landOk(
      wh,
      'replenishment.getSellingPartnerMetrics',
      US,
      writeJson(dir, 'metrics-2.json', {
        metrics: [
          {
            totalSubscriptionsRevenue: 82.75,
            shippedSubscriptionUnits: 9,
            activeSubscriptions: 52,
            currencyCode: 'USD',
            timeInterval: interval('2026-03-02'),
          },
        ],
      }),
    );
    await build(wh, 'mkt_replenishment_metrics_by_date');

    const got = await rows(wh, `select * from marts.mkt_replenishment_metrics_by_date order by date`);
    expect(got).toEqual([
      {
        ...usContext,
        date: '2026-03-01',
        period_start_date: '2026-03-01',
        period_end_date: '2026-03-01',
        ...constants,
        currency_code: 'USD',
        last_seen_at: await landedAt(wh, first),
        ...noAccountMetrics,
        total_subscriptions_revenue: '100.5000',
        shipped_subscription_units: '10.0000',
        active_subscriptions: '50.0000',
        not_delivered_due_to_oos: '2.5000',
      },
      {
        ...usContext,
        date: '2026-03-02',
        period_start_date: '2026-03-02',
        period_end_date: '2026-03-02',
        ...constants,
        currency_code: 'USD',
        last_seen_at: await landedAt(wh, second),
        ...noAccountMetrics,
        total_subscriptions_revenue: '82.7500',
        shipped_subscription_units: '9.0000',
        active_subscriptions: '52.0000',
        subscriber_average_revenue: '95.4000',
        revenue_penetration_for_5_percent_seller_funding: '22.2000',
        established_subscriber_lifetime_value_from_sns: '316.2500',
      },
    ]);
    expect(Object.keys(got[0]!).slice(0, 6)).toEqual(common);
  });

  it('uses the marketplace currency when a record has no currencyCode', async () => {
    await landOk(
      wh,
      'replenishment.getSellingPartnerMetrics',
      DE,
      writeJson(dir, 'de.json', {
        metrics: [{ totalSubscriptionsRevenue: 12.3, timeInterval: interval('2026-03-05') }],
      }),
    );
    await build(wh, 'mkt_replenishment_metrics_by_date');
    expect(
      await rows(
        wh,
        `select seller_or_vendor_name, date, currency_code, total_subscriptions_revenue from marts.mkt_replenishment_metrics_by_date`,
      ),
    ).toEqual([
      {
        seller_or_vendor_name: 'Test DE',
        date: '2026-03-05',
        currency_code: 'EUR',
        total_subscriptions_revenue: '12.3000',
      },
    ]);
  });

  it('takes the real sample: both records end on 2025-05-09 and form that day', async () => {
    await landOk(
      wh,
      'replenishment.getSellingPartnerMetrics',
      US,
      sample('replenishment_2022-11-07.getSellingPartnerMetrics.example.json'),
    );
    await build(wh, 'mkt_replenishment_metrics_by_date');
    expect(
      await rows(
        wh,
        `select date, period_start_date, period_end_date, total_subscriptions_revenue, revenue_penetration, established_subscriber_lifetime_value_from_sns,
        signup_conversion_for_5_plus_percent_seller_funding from marts.mkt_replenishment_metrics_by_date`,
      ),
    ).toEqual([
      {
        date: '2025-05-09',
        period_start_date: '2024-05-09',
        period_end_date: '2025-05-09',
        total_subscriptions_revenue: '131340.2400',
        revenue_penetration: '21.6700',
        established_subscriber_lifetime_value_from_sns: '316.2500',
        signup_conversion_for_5_plus_percent_seller_funding: '0.0000',
      },
    ]);
  });
});

describe('mkt_replenishment_metrics_by_sku_and_date', () => {
  let wh: Warehouse;
  let dir: string;
  beforeEach(async () => ({ wh, dir } = await makeHome()));
  afterEach(async () => wh.close());

  const zeros = {
    not_delivered_due_to_oos: '0.0000',
    total_subscriptions_revenue: '0.0000',
    shipped_subscription_units: '0.0000',
    active_subscriptions: '0.0000',
    revenue_penetration: '0.0000',
    lost_revenue_due_to_oos: '0.0000',
    coupons_revenue_penetration: '0.0000',
    share_of_coupon_subscriptions: '0.0000',
  };

  it('gives one row per SKU and day: the shortest interval ending that day wins, then the latest pull; forecasts stay out', async () => {
    const first = await landOk(
      wh,
      'replenishment.listOfferMetrics',
      US,
      writeJson(dir, 'offers-1.json', {
        offers: [
          {
            asin: 'B0000000A1',
            sku: 'SKU-A',
            fulfillmentChannelType: 'AMAZON',
            totalSubscriptionsRevenue: 50,
            shippedSubscriptionUnits: 5,
            activeSubscriptions: 20,
            revenuePenetration: 12.5,
            currencyCode: 'USD',
            timeInterval: interval('2026-03-01'),
          },
          // A week ending the same day: longer than the day, so it loses.
          {
            asin: 'B0000000A1',
            sku: 'SKU-A',
            fulfillmentChannelType: 'AMAZON',
            totalSubscriptionsRevenue: 300,
            shippedSubscriptionUnits: 30,
            currencyCode: 'USD',
            timeInterval: interval('2026-02-24', '2026-03-01'),
          },
          {
            asin: 'B0000000B2',
            sku: 'SKU-B',
            fulfillmentChannelType: 'MERCHANT',
            totalSubscriptionsRevenue: 20,
            shippedSubscriptionUnits: 2,
            activeSubscriptions: 7,
            couponsRevenuePenetration: 5,
            currencyCode: 'USD',
            timeInterval: interval('2026-03-01'),
          },
          // A FORECAST record: no performance metric.
          {
            asin: 'B0000000A1',
            sku: 'SKU-A',
            fulfillmentChannelType: 'AMAZON',
            next30DayTotalSubscriptionsRevenue: 400,
            currencyCode: 'USD',
            timeInterval: interval('2026-03-02', '2026-05-30'),
          },
        ],
        pagination: { totalResults: 4 },
      }),
    );
    const second = await landOk(
      wh,
      'replenishment.listOfferMetrics',
      US,
      writeJson(dir, 'offers-2.json', {
        offers: [
          {
            asin: 'B0000000B2',
            sku: 'SKU-B',
            fulfillmentChannelType: 'MERCHANT',
            totalSubscriptionsRevenue: 22,
            shippedSubscriptionUnits: 2,
            activeSubscriptions: 8,
            currencyCode: 'USD',
            timeInterval: interval('2026-03-01'),
          },
        ],
      }),
    );
    await build(wh, 'mkt_replenishment_metrics_by_sku_and_date');

    expect(await rows(wh, `select * from marts.mkt_replenishment_metrics_by_sku_and_date order by sku`)).toEqual([
      {
        ...usContext,
        date: '2026-03-01',
        period_start_date: '2026-03-01',
        period_end_date: '2026-03-01',
        child_asin: 'B0000000A1',
        sku: 'SKU-A',
        ...constants,
        mkt_replenishment_fulfillment_channel_type: 'AMAZON',
        currency_code: 'USD',
        last_seen_at: await landedAt(wh, first),
        ...zeros,
        total_subscriptions_revenue: '50.0000',
        shipped_subscription_units: '5.0000',
        active_subscriptions: '20.0000',
        revenue_penetration: '12.5000',
      },
      {
        ...usContext,
        date: '2026-03-01',
        period_start_date: '2026-03-01',
        period_end_date: '2026-03-01',
        child_asin: 'B0000000B2',
        sku: 'SKU-B',
        ...constants,
        mkt_replenishment_fulfillment_channel_type: 'MERCHANT',
        currency_code: 'USD',
        last_seen_at: await landedAt(wh, second),
        // The later pull replaces the record whole: its missing coupon share is 0, not the earlier 5.
        ...zeros,
        total_subscriptions_revenue: '22.0000',
        shipped_subscription_units: '2.0000',
        active_subscriptions: '8.0000',
      },
    ]);
  });

  it('takes the real sample: two yearly offer records dated by their last day', async () => {
    await landOk(
      wh,
      'replenishment.listOfferMetrics',
      US,
      sample('replenishment_2022-11-07.listOfferMetrics.example.json'),
    );
    const result = await build(wh, 'mkt_replenishment_metrics_by_sku_and_date');
    expect(result.findings).toEqual([]);
    expect(
      await rows(
        wh,
        `select date, period_start_date, child_asin, sku, mkt_replenishment_fulfillment_channel_type as channel, total_subscriptions_revenue, share_of_coupon_subscriptions
        from marts.mkt_replenishment_metrics_by_sku_and_date order by sku`,
      ),
    ).toEqual([
      {
        date: '2022-12-31',
        period_start_date: '2022-01-01',
        child_asin: 'B07CYBR5GZ',
        sku: 'SD-RES-101973',
        channel: 'AMAZON',
        total_subscriptions_revenue: '100.4500',
        share_of_coupon_subscriptions: '20.0400',
      },
      {
        date: '2022-12-31',
        period_start_date: '2022-01-01',
        child_asin: 'B07CYJJW8H',
        sku: 'SD-RES-121973',
        channel: 'MERCHANT',
        total_subscriptions_revenue: '80.1100',
        share_of_coupon_subscriptions: '19.2000',
      },
    ]);
  });
});

describe('mkt_replenishment_offers', () => {
  let wh: Warehouse;
  let dir: string;
  beforeEach(async () => ({ wh, dir } = await makeHome()));
  afterEach(async () => wh.close());

  it('keeps the latest record of each SKU across pages, with JSON columns as delivered, and warns about a missing price', async () => {
    const config = { preferences: { autoEnrollment: 'OPTED_IN' }, enrollmentMethod: 'MANUAL' };
    const first = await landOk(
      wh,
      'replenishment.listOffers',
      US,
      writeJson(dir, 'page-1.json', {
        offers: [
          {
            asin: 'B0000000A1',
            sku: 'SKU-A',
            marketplaceId: US.marketplaceId,
            eligibility: 'ELIGIBLE',
            programType: 'SUBSCRIBE_AND_SAVE',
            price: 8.99,
            priceCurrencyCode: 'USD',
            inventory: 420,
            subscriptions: 303,
            stockRisk: 'LOW',
            fulfillmentNetworkIDType: 'AFN',
            offerProgramConfiguration: config,
          },
          {
            asin: 'B0000000B2',
            sku: 'SKU-B',
            marketplaceId: US.marketplaceId,
            eligibility: 'ELIGIBLE',
            price: 19.95,
            fulfillmentNetworkIDType: 'MFN',
            deliveriesConditions: [{ condition: 'NO_ISSUES_FOR_NEXT_30_DAYS_DELIVERIES', next30DaysDeliveries: 4 }],
          },
        ],
      }),
    );
    // Pulled again later: SKU-A is suspended at a new price; SKU-B is not on this page.
    const second = await landOk(
      wh,
      'replenishment.listOffers',
      US,
      writeJson(dir, 'page-1-later.json', {
        offers: [
          {
            asin: 'B0000000A1',
            sku: 'SKU-A',
            marketplaceId: US.marketplaceId,
            eligibility: 'SUSPENDED',
            price: 9.49,
            priceCurrencyCode: 'USD',
            inventory: 0,
            subscriptions: 301,
            stockRisk: 'HIGH',
            fulfillmentNetworkIDType: 'AFN',
            forecastDeliveries: { next30DaysDeliveries: 110 },
          },
        ],
      }),
    );
    await landOk(
      wh,
      'replenishment.listOffers',
      DE,
      writeJson(dir, 'de.json', {
        offers: [{ asin: 'B0000000C3', sku: 'SKU-C', eligibility: 'INELIGIBLE', fulfillmentNetworkIDType: 'AFN' }],
      }),
    );
    const result = await build(wh, 'mkt_replenishment_offers');
    expect(result.findings).toEqual([
      {
        name: 'the offer has the eligibility, fulfillment network and price the spec declares non-null',
        severity: 'warn',
        badRows: 1,
      },
    ]);

    const none = {
      stock_risk: null,
      vendor_codes: null,
      offer_program_configuration: null,
      deliveries_conditions: null,
      forecast_deliveries: null,
    };
    expect(
      await rows(
        wh,
        `select * exclude (marketplace_country_code, marketplace_country_name, seller_or_vendor_id, marketplace_seller_id) from marts.mkt_replenishment_offers order by sku`,
      ),
    ).toEqual([
      {
        marketplace_id: US.marketplaceId,
        seller_or_vendor_name: 'Test US',
        child_asin: 'B0000000A1',
        sku: 'SKU-A',
        mkt_replenishment_program_type: 'SUBSCRIBE_AND_SAVE',
        mkt_replenishment_program_eligibility: 'SUSPENDED',
        mkt_replenishment_fulfillment_network_id_type: 'AFN',
        price: '9.4900',
        price_currency_code: 'USD',
        inventory: '0',
        subscriptions: '301',
        ...none,
        stock_risk: 'HIGH',
        forecast_deliveries: '{"next30DaysDeliveries":110}',
        last_seen_at: await landedAt(wh, second),
      },
      {
        marketplace_id: US.marketplaceId,
        seller_or_vendor_name: 'Test US',
        child_asin: 'B0000000B2',
        sku: 'SKU-B',
        mkt_replenishment_program_type: 'SUBSCRIBE_AND_SAVE',
        mkt_replenishment_program_eligibility: 'ELIGIBLE',
        mkt_replenishment_fulfillment_network_id_type: 'MFN',
        price: '19.9500',
        // No priceCurrencyCode: the US marketplace's currency.
        price_currency_code: 'USD',
        inventory: null,
        subscriptions: null,
        ...none,
        deliveries_conditions: '[{"condition":"NO_ISSUES_FOR_NEXT_30_DAYS_DELIVERIES","next30DaysDeliveries":4}]',
        last_seen_at: await landedAt(wh, first),
      },
      {
        marketplace_id: DE.marketplaceId,
        seller_or_vendor_name: 'Test DE',
        child_asin: 'B0000000C3',
        sku: 'SKU-C',
        mkt_replenishment_program_type: 'SUBSCRIBE_AND_SAVE',
        mkt_replenishment_program_eligibility: 'INELIGIBLE',
        mkt_replenishment_fulfillment_network_id_type: 'AFN',
        price: null,
        price_currency_code: 'EUR',
        inventory: null,
        subscriptions: null,
        ...none,
        last_seen_at: expect.any(String),
      },
    ]);
  });
});
