import {
  adsReportSource,
  text,
  decimal,
  integer,
  date,
  currency,
  campaign,
  adGroup,
  delivery,
} from '../../families/ads-reports.ts';

/** Sponsored Products, by advertised product (SKU): spend and 7-day attributed sales. */
export const source = adsReportSource(
  'spAdvertisedProduct',
  { adProduct: 'SPONSORED_PRODUCTS', groupBy: ['advertiser'], maxDays: 31, retentionDays: 95 },
  [
    date,
    ...campaign,
    ...adGroup,
    text('adId'),
    text('advertisedAsin'),
    text('advertisedSku', 'value'),
    currency,
    ...delivery,
    integer('purchases7d'),
    integer('purchasesSameSku7d'),
    integer('unitsSoldClicks7d'),
    integer('unitsSoldSameSku7d'),
    decimal('sales7d'),
    decimal('attributedSalesSameSku7d'),
  ],
);
