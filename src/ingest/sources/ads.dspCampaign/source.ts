import { adsReportSource, text, decimal, integer, date } from '../../families/ads-reports.ts';

/** Amazon DSP, by order and line item (14-day attribution). */
export const source = adsReportSource(
  'dspCampaign',
  { adProduct: 'DEMAND_SIDE_PLATFORM', groupBy: ['campaign'], maxDays: 31, retentionDays: 95 },
  [
    date,
    text('orderId', 'value'),
    text('orderName'),
    text('lineItemId'),
    { name: 'orderCurrency', aliases: ['currency'], type: 'text' },
    { name: 'totalCost', type: 'decimal', required: 'value' },
    decimal('supplyCost'),
    integer('impressions'),
    integer('clickThroughs'),
    decimal('sales14d'),
    integer('purchases14d'),
    integer('unitsSold14d'),
  ],
);
