import { adsReports } from '../../ingest/sources/ads/reports.ts';
import type { Api } from '../../connectors/credentials.ts';

/** How a report's window is sent: instants with the marketplace's offset, dates only, or none (a snapshot). */
export type WindowForm = 'timestamps' | 'dates' | 'none';

/** How the connectors obtain one ingest source upstream (docs/design/live-apis.md §2–§4). */
export type FetchSpec =
  | {
      kind: 'report';
      api: 'sp-api';
      reportType: string;
      window: WindowForm;
      reportOptions?: Record<string, string>;
      historyDays?: number;
      maxDays?: number;
    }
  | { kind: 'settlements'; api: 'sp-api'; reportType: string }
  | {
      kind: 'ads-report';
      api: 'ads';
      reportTypeId: string;
      adProduct: string;
      groupBy: string[];
      columns: string[];
      retentionDays: number;
      maxDays: number;
    }
  | { kind: 'operation'; api: 'sp-api'; operation: string; window: 'dates' | 'none' };

const report = (
  reportType: string,
  window: WindowForm,
  extra: { reportOptions?: Record<string, string>; historyDays?: number; maxDays?: number } = {},
): FetchSpec => ({ kind: 'report', api: 'sp-api', reportType, window, ...extra });

/**
 * Ads API v3 report types: ad product, grouping, the longest range and the days of history kept
 * (docs/design/live-apis.md §4).
 */
const adsTypes: Record<string, { adProduct: string; groupBy: string[]; maxDays: number; retentionDays: number }> = {
  spAdvertisedProduct: { adProduct: 'SPONSORED_PRODUCTS', groupBy: ['advertiser'], maxDays: 31, retentionDays: 95 },
  spTargeting: { adProduct: 'SPONSORED_PRODUCTS', groupBy: ['targeting'], maxDays: 31, retentionDays: 95 },
  spSearchTerm: { adProduct: 'SPONSORED_PRODUCTS', groupBy: ['searchTerm'], maxDays: 31, retentionDays: 95 },
  sbCampaigns: { adProduct: 'SPONSORED_BRANDS', groupBy: ['campaign'], maxDays: 31, retentionDays: 60 },
  sbPurchasedProduct: { adProduct: 'SPONSORED_BRANDS', groupBy: ['purchasedAsin'], maxDays: 731, retentionDays: 731 },
  sdAdvertisedProduct: { adProduct: 'SPONSORED_DISPLAY', groupBy: ['advertiser'], maxDays: 31, retentionDays: 65 },
  sdPurchasedProduct: { adProduct: 'SPONSORED_DISPLAY', groupBy: ['asin'], maxDays: 31, retentionDays: 65 },
  stCampaigns: { adProduct: 'SPONSORED_TELEVISION', groupBy: ['campaign'], maxDays: 31, retentionDays: 95 },
  dspCampaign: { adProduct: 'DEMAND_SIDE_PLATFORM', groupBy: ['campaign'], maxDays: 31, retentionDays: 95 },
};

/**
 * Every ingest source the connectors can fetch, by source name. Unit costs and promotions have no public
 * operation: they come from dropped files (and the API, for unit costs) only.
 */
export const fetchSpecs: ReadonlyMap<string, FetchSpec> = new Map<string, FetchSpec>([
  [
    'GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL',
    report('GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL', 'timestamps', { historyDays: 730 }),
  ],
  [
    'GET_V2_SETTLEMENT_REPORT_DATA_FLAT_FILE_V2',
    { kind: 'settlements', api: 'sp-api', reportType: 'GET_V2_SETTLEMENT_REPORT_DATA_FLAT_FILE_V2' },
  ],
  ['GET_FBA_FULFILLMENT_CUSTOMER_RETURNS_DATA', report('GET_FBA_FULFILLMENT_CUSTOMER_RETURNS_DATA', 'timestamps')],
  // Per ASIN and day needs one-day reports: the by-ASIN block aggregates over the whole window (upstream-formats §d).
  [
    'GET_SALES_AND_TRAFFIC_REPORT',
    report('GET_SALES_AND_TRAFFIC_REPORT', 'dates', {
      reportOptions: { dateGranularity: 'DAY', asinGranularity: 'CHILD' },
      historyDays: 730,
      maxDays: 1,
    }),
  ],
  ['GET_MERCHANT_LISTINGS_ALL_DATA', report('GET_MERCHANT_LISTINGS_ALL_DATA', 'none')],
  [
    'GET_AMAZON_FULFILLED_SHIPMENTS_DATA_GENERAL',
    report('GET_AMAZON_FULFILLED_SHIPMENTS_DATA_GENERAL', 'timestamps', { maxDays: 30, historyDays: 540 }),
  ],
  [
    'GET_FBA_FULFILLMENT_REMOVAL_ORDER_DETAIL_DATA',
    report('GET_FBA_FULFILLMENT_REMOVAL_ORDER_DETAIL_DATA', 'timestamps'),
  ],
  [
    'GET_FBA_FULFILLMENT_REMOVAL_SHIPMENT_DETAIL_DATA',
    report('GET_FBA_FULFILLMENT_REMOVAL_SHIPMENT_DETAIL_DATA', 'timestamps'),
  ],
  ['GET_FBA_RECOMMENDED_REMOVAL_DATA', report('GET_FBA_RECOMMENDED_REMOVAL_DATA', 'none')],
  ['GET_STRANDED_INVENTORY_UI_DATA', report('GET_STRANDED_INVENTORY_UI_DATA', 'none')],
  ...Object.entries(adsTypes).map(([reportTypeId, t]): [string, FetchSpec] => [
    `ads.${reportTypeId}`,
    { kind: 'ads-report', api: 'ads', reportTypeId, ...t, columns: adsReports[reportTypeId]!.map((c) => c.name) },
  ]),
  ...[
    'fbaInventory.getInventorySummaries',
    'listingsItems.searchListingsItems',
    'productPricing.getItemOffers',
    'awd.listInventory',
    'awd.getInboundShipment',
    'awd.listOutbounds',
    'awd.listReplenishmentOrders',
    'replenishment.listOffers',
    'fulfillmentInbound.shipments',
  ].map((name): [string, FetchSpec] => [name, { kind: 'operation', api: 'sp-api', operation: name, window: 'none' }]),
  ...['replenishment.getSellingPartnerMetrics', 'replenishment.listOfferMetrics'].map((name): [string, FetchSpec] => [
    name,
    { kind: 'operation', api: 'sp-api', operation: name, window: 'dates' },
  ]),
]);

/** The API a source is fetched from, or null when it has no upstream operation. */
export const sourceApi = (source: string): Api | null => fetchSpecs.get(source)?.api ?? null;

/** Whether a spec's requests carry a date window. */
export const isDated = (spec: FetchSpec): boolean =>
  spec.kind === 'ads-report' || ((spec.kind === 'report' || spec.kind === 'operation') && spec.window !== 'none');
