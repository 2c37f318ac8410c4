import type { RatePlan } from './token-bucket.ts';

/**
 * The documented rate (requests per second) and burst of every SP-API operation the connectors call: each
 * operation's "Usage Plan" in amzn/selling-partner-api-models (live-apis.md §2.1, §3). Amazon may grant a seller
 * more; the `x-amzn-RateLimit-Limit` answer header then raises the bucket's rate.
 */
export const usagePlans: Record<string, RatePlan> = {
  // models/reports-api-model/reports_2021-06-30.json
  createReport: { rate: 0.0167, burst: 15 },
  getReports: { rate: 0.0222, burst: 10 },
  getReport: { rate: 2, burst: 15 },
  cancelReport: { rate: 0.0222, burst: 10 },
  getReportDocument: { rate: 0.0167, burst: 15 },
  // models/fba-inventory-api-model/fbaInventory.json
  getInventorySummaries: { rate: 2, burst: 2 },
  // models/listings-items-api-model/listingsItems_2021-08-01.json
  searchListingsItems: { rate: 5, burst: 5 },
  patchListingsItem: { rate: 5, burst: 5 },
  // models/product-type-definitions-api-model/definitionsProductTypes_2020-09-01.json
  searchDefinitionsProductTypes: { rate: 5, burst: 10 },
  getDefinitionsProductType: { rate: 5, burst: 10 },
  // models/product-pricing-api-model/productPricingV0.json
  getItemOffers: { rate: 0.5, burst: 1 },
  getItemOffersBatch: { rate: 0.1, burst: 1 },
  // models/awd_2024-05-09/awd_2024-05-09.json (listReplenishmentOrders has no usage plan there: assumed 1/1)
  listInventory: { rate: 2, burst: 2 },
  listInboundShipments: { rate: 1, burst: 1 },
  getInboundShipment: { rate: 2, burst: 2 },
  listOutbounds: { rate: 1, burst: 1 },
  listReplenishmentOrders: { rate: 1, burst: 1 },
  // models/replenishment-api-model/replenishment-2022-11-07.json
  getSellingPartnerMetrics: { rate: 1, burst: 1 },
  listOfferMetrics: { rate: 1, burst: 1 },
  listOffers: { rate: 1, burst: 1 },
  // models/fulfillment-inbound-api-model/fulfillmentInbound_2024-03-20.json
  listInboundPlans: { rate: 2, burst: 6 },
  getInboundPlan: { rate: 2, burst: 6 },
  getShipment: { rate: 2, burst: 6 },
  listShipmentItems: { rate: 2, burst: 30 },
  // models/sellers-api-model/sellers.json; models/tokens-api-model/tokens_2021-03-01.json
  getMarketplaceParticipations: { rate: 0.016, burst: 15 },
  createRestrictedDataToken: { rate: 1, burst: 10 },
  // actions: pricing and fees (listings estimates)
  // actions: orders, shipping, removals, tracking
  // actions: A+ content
  // actions: multi-channel fulfillment
  // actions: vendor
};

/** Ads API reporting publishes no numbers (live-apis.md §4): a polite bucket per profile, 429s honoured besides. */
export const adsPlan: RatePlan = { rate: 1, burst: 5 };
