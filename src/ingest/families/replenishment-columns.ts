import type { FlatColumn } from '../flat-file.ts';

const text = (name: string, required?: FlatColumn['required']): FlatColumn => ({
  name,
  type: 'text',
  ...(required ? { required } : {}),
});
const decimal = (name: string): FlatColumn => ({ name, type: 'decimal' });
const integer = (name: string): FlatColumn => ({ name, type: 'integer' });

/** `timeInterval` of a metrics record, flattened; the API sends UTC date-times whose date part is the day. */
const interval: FlatColumn[] = [
  { name: 'startDate', type: 'timestamp', required: 'value' },
  { name: 'endDate', type: 'timestamp', required: 'value' },
];

/** PERFORMANCE metrics that both the account-level and the offer-level responses carry. */
const performance: FlatColumn[] = [
  decimal('notDeliveredDueToOOS'),
  decimal('totalSubscriptionsRevenue'),
  integer('shippedSubscriptionUnits'),
  integer('activeSubscriptions'),
  decimal('lostRevenueDueToOOS'),
  decimal('couponsRevenuePenetration'),
  decimal('shareOfCouponSubscriptions'),
  decimal('revenuePenetration'),
];

/**
 * Account-level metrics only getSellingPartnerMetrics returns (averages, deliveries, retention, funding tiers, lifetime
 * values).
 */
const accountOnly: FlatColumn[] = [
  'subscriberAverageRevenue',
  'nonSubscriberAverageRevenue',
  'subscriberAverageReorders',
  'nonSubscriberAverageReorders',
  'revenueFromSubscriptionsWithMultipleDeliveries',
  'revenueFromActiveSubscriptionsWithSingleDelivery',
  'revenueFromCancelledSubscriptionsAfterSingleDelivery',
  'subscriberRetentionFor30Days',
  'subscriberRetentionFor90Days',
  'revenuePenetrationFor0PercentSellerFunding',
  'revenuePenetrationFor5PercentSellerFunding',
  'revenuePenetrationFor10PercentSellerFunding',
  'revenuePenetrationFor5PlusPercentSellerFunding',
  'nonSubscriberLifeTimeValueFromOTP',
  'lostSubscriberLifeTimeValueFromOTP',
  'lostSubscriberLifeTimeValueFromSNS',
  'growingSubscriberLifeTimeValueFromOTP',
  'growingSubscriberLifeTimeValueFromSNS',
  'establishedSubscriberLifeTimeValueFromOTP',
  'establishedSubscriberLifeTimeValueFromSNS',
  'signupConversionFor0PercentSellerFunding',
  'signupConversionFor5PercentSellerFunding',
  'signupConversionFor10PercentSellerFunding',
  'signupConversionFor5PlusPercentSellerFunding',
].map(decimal);

/** FORECAST metrics of listOfferMetrics (kept in raw; the catalog tables hold PERFORMANCE metrics only). */
const forecast: FlatColumn[] = [
  decimal('next30DayTotalSubscriptionsRevenue'),
  decimal('next60DayTotalSubscriptionsRevenue'),
  decimal('next90DayTotalSubscriptionsRevenue'),
  integer('next30DayShippedSubscriptionUnits'),
  integer('next60DayShippedSubscriptionUnits'),
  integer('next90DayShippedSubscriptionUnits'),
];

/**
 * The fields of the Replenishment API 2022-11-07 responses (upstream-formats g) that mktdata types, by operation;
 * every other field of a record is kept in `_extra`. JSON-valued offer fields land as JSON text.
 */
export const replenishmentColumns = {
  getSellingPartnerMetrics: [...interval, text('currencyCode'), ...performance, ...accountOnly],
  listOfferMetrics: [
    ...interval,
    text('asin', 'value'),
    text('sku', 'value'),
    text('fulfillmentChannelType'),
    text('brandName'),
    text('productGroup'),
    text('currencyCode'),
    ...performance,
    ...forecast,
  ],
  listOffers: [
    text('asin', 'value'),
    text('sku', 'value'),
    text('marketplaceId'),
    text('programType'),
    text('eligibility'),
    { name: 'fulfillmentNetworkIdType', aliases: ['fulfillmentNetworkIDType'], type: 'text' },
    decimal('price'),
    text('priceCurrencyCode'),
    text('inventory'),
    text('subscriptions'),
    text('stockRisk'),
    text('vendorCodes'),
    text('offerProgramConfiguration'),
    text('deliveriesConditions'),
    text('forecastDeliveries'),
  ],
} satisfies Record<string, FlatColumn[]>;

/** Offer fields whose value (a number, object or array) the catalog keeps as JSON. */
export const offerJsonFields = [
  'inventory',
  'subscriptions',
  'vendorCodes',
  'offerProgramConfiguration',
  'deliveriesConditions',
  'forecastDeliveries',
];
