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

/** Sponsored Display, by promoted product (SKU). */
export const source = adsReportSource(
  'sdAdvertisedProduct',
  { adProduct: 'SPONSORED_DISPLAY', groupBy: ['advertiser'], maxDays: 31, retentionDays: 65 },
  [
    date,
    ...campaign,
    ...adGroup,
    text('adId'),
    text('promotedAsin'),
    text('promotedSku', 'value'),
    currency,
    ...delivery,
    decimal('sales'),
    decimal('salesPromotedClicks'),
    integer('purchases'),
    integer('purchasesPromotedClicks'),
    integer('unitsSold'),
    integer('unitsSoldClicks'),
  ],
);
