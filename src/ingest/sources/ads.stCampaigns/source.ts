import { adsReportSource, decimal, integer, date, currency, campaign, delivery } from '../../families/ads-reports.ts';

/** Sponsored Television, by campaign. */
export const source = adsReportSource(
  'stCampaigns',
  { adProduct: 'SPONSORED_TELEVISION', groupBy: ['campaign'], maxDays: 31, retentionDays: 95 },
  [date, ...campaign, currency, ...delivery, decimal('sales'), integer('purchases'), integer('unitsSold')],
);
