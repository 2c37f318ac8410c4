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

/** Sponsored Products, by keyword or product target. */
export const source = adsReportSource(
  'spTargeting',
  { adProduct: 'SPONSORED_PRODUCTS', groupBy: ['targeting'], maxDays: 31, retentionDays: 95 },
  [
    date,
    ...campaign,
    ...adGroup,
    text('keywordId'),
    text('keyword'),
    text('targeting'),
    text('keywordType'),
    text('matchType'),
    currency,
    ...delivery,
    decimal('sales7d'),
    integer('purchases7d'),
    integer('unitsSoldClicks7d'),
  ],
);
