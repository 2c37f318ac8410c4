import { adsReportSource, decimal, integer, date, currency, campaign, delivery } from '../../families/ads-reports.ts';

/** Sponsored Brands, by campaign. */
export const source = adsReportSource(
  'sbCampaigns',
  { adProduct: 'SPONSORED_BRANDS', groupBy: ['campaign'], maxDays: 31, retentionDays: 60 },
  [date, ...campaign, currency, ...delivery, decimal('sales'), integer('purchases'), integer('unitsSold')],
);
