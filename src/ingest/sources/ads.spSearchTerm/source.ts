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

/** Sponsored Products, by the shopper's search term. */
export const source = adsReportSource(
  'spSearchTerm',
  { adProduct: 'SPONSORED_PRODUCTS', groupBy: ['searchTerm'], maxDays: 31, retentionDays: 95 },
  [
    date,
    ...campaign,
    ...adGroup,
    text('keywordId'),
    text('keyword'),
    text('searchTerm', 'header'),
    text('matchType'),
    currency,
    ...delivery,
    decimal('sales7d'),
    integer('purchases7d'),
    integer('unitsSoldClicks7d'),
  ],
);
