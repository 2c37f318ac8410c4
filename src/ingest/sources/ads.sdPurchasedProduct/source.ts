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

/** Sponsored Display, by the brand-halo ASIN purchased. */
export const source = adsReportSource(
  'sdPurchasedProduct',
  { adProduct: 'SPONSORED_DISPLAY', groupBy: ['asin'], maxDays: 31, retentionDays: 65 },
  [
    date,
    ...campaign,
    ...adGroup,
    text('promotedAsin'),
    text('promotedSku'),
    text('asinBrandHalo'),
    currency,
    decimal('salesBrandHalo'),
    integer('conversionsBrandHalo'),
    integer('unitsSoldBrandHalo'),
  ],
);
