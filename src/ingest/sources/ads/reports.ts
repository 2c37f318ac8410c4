import type { FlatColumn } from '../../flat-file.ts';

const text = (name: string, required?: FlatColumn['required']): FlatColumn => ({
  name,
  type: 'text',
  ...(required ? { required } : {}),
});
const decimal = (name: string): FlatColumn => ({ name, type: 'decimal' });
const integer = (name: string): FlatColumn => ({ name, type: 'integer' });
const date: FlatColumn = { name: 'date', type: 'date', required: 'value' };
const currency: FlatColumn = { name: 'campaignBudgetCurrencyCode', type: 'text' };
const campaign = [text('campaignId', 'value'), text('campaignName')];
const adGroup = [text('adGroupId'), text('adGroupName')];
const delivery = [
  integer('impressions'),
  integer('clicks'),
  { name: 'cost', aliases: ['spend'], type: 'decimal' } satisfies FlatColumn,
];

/**
 * The Ads API v3 report rows mktdata reads (upstream-formats e2), by report type: the columns the
 * tables use are typed; every other column a report carries is kept in `_extra`.
 * SP metrics use the 7-day window, SB and SD the 14-day one (unsuffixed names), DSP 14 days.
 */
export const adsReports: Record<string, FlatColumn[]> = {
  spAdvertisedProduct: [
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
  sdAdvertisedProduct: [
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
  sdPurchasedProduct: [
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
  sbCampaigns: [date, ...campaign, currency, ...delivery, decimal('sales'), integer('purchases'), integer('unitsSold')],
  sbPurchasedProduct: [
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
  stCampaigns: [date, ...campaign, currency, ...delivery, decimal('sales'), integer('purchases'), integer('unitsSold')],
  spTargeting: [
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
  spSearchTerm: [
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
  dspCampaign: [
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
};
