import {
  adsReportSource,
  text,
  decimal,
  integer,
  date,
  currency,
  campaign,
  adGroup,
} from '../../families/ads-reports.ts';

/** Sponsored Brands, by the ASIN purchased after a click (14-day attribution). */
export const source = adsReportSource(
  'sbPurchasedProduct',
  { adProduct: 'SPONSORED_BRANDS', groupBy: ['purchasedAsin'], maxDays: 731, retentionDays: 731 },
  [
    date,
    ...campaign,
    ...adGroup,
    text('purchasedAsin', 'value'),
    text('productName'),
    currency,
    decimal('sales14d'),
    integer('orders14d'),
    integer('unitsSold14d'),
  ],
);
