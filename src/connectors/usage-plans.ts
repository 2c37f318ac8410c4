import type { RatePlan } from './token-bucket.ts';

/**
 * The documented rate (requests per second) and burst of every SP-API operation the connectors call: each
 * operation's "Usage Plan" in amzn/selling-partner-api-models (docs/design/live-apis.md §2.1, §3). Amazon may grant a
 * seller more; the `x-amzn-RateLimit-Limit` answer header then raises the bucket's rate.
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
  // models/listings-items-api-model/listingsItems_2021-08-01.json
  putListingsItem: { rate: 5, burst: 10 },
  // models/product-fees-api-model/productFeesV0.json
  getMyFeesEstimateForSKU: { rate: 1, burst: 2 },
  // models/product-pricing-api-model/productPricing_2022-05-01.json
  getFeaturedOfferExpectedPriceBatch: { rate: 0.033, burst: 1 },
  getCompetitiveSummary: { rate: 0.033, burst: 1 },
  // actions: orders, shipping, removals, tracking
  // models/feeds-api-model/feeds_2021-06-30.json (order cancellation and FBA removal feeds)
  createFeedDocument: { rate: 0.5, burst: 15 },
  createFeed: { rate: 0.0083, burst: 15 },
  getFeed: { rate: 2, burst: 15 },
  getFeedDocument: { rate: 0.0222, burst: 10 },
  // models/orders-api-model/ordersV0.json
  confirmShipment: { rate: 2, burst: 10 },
  // models/solicitations-api-model/solicitations.json
  createProductReviewAndSellerFeedbackSolicitation: { rate: 1, burst: 5 },
  // models/shipping-api-model/shippingV2.json
  getRates: { rate: 80, burst: 100 },
  purchaseShipment: { rate: 80, burst: 100 },
  getShipmentDocuments: { rate: 80, burst: 100 },
  cancelShipment: { rate: 80, burst: 100 },
  // models/notifications-api-model/notifications.json
  createSubscription: { rate: 1, burst: 5 },
  // actions: A+ content
  // models/aplus-content-api-model/aplusContent_2020-11-01.json
  searchContentDocuments: { rate: 10, burst: 10 },
  createContentDocument: { rate: 10, burst: 10 },
  getContentDocument: { rate: 10, burst: 10 },
  updateContentDocument: { rate: 10, burst: 10 },
  listContentDocumentAsinRelations: { rate: 10, burst: 10 },
  postContentDocumentAsinRelations: { rate: 10, burst: 10 },
  validateContentDocumentAsinRelations: { rate: 10, burst: 10 },
  searchContentPublishRecords: { rate: 10, burst: 10 },
  postContentDocumentApprovalSubmission: { rate: 10, burst: 10 },
  postContentDocumentSuspendSubmission: { rate: 10, burst: 10 },
  // actions: multi-channel fulfillment
  // models/fulfillment-outbound-api-model/fulfillmentOutbound_2020-07-01.json
  createFulfillmentOrder: { rate: 2, burst: 30 },
  updateFulfillmentOrder: { rate: 2, burst: 30 },
  getFulfillmentOrder: { rate: 2, burst: 30 },
  listAllFulfillmentOrders: { rate: 2, burst: 30 },
  cancelFulfillmentOrder: { rate: 2, burst: 30 },
  getFulfillmentPreview: { rate: 2, burst: 30 },
  deliveryOffers: { rate: 5, burst: 30 },
  getFeatures: { rate: 2, burst: 30 },
  getFeatureSKU: { rate: 2, burst: 30 },
  listReturnReasonCodes: { rate: 2, burst: 30 },
  createFulfillmentReturn: { rate: 2, burst: 30 },
  // actions: vendor
  // models/vendor-orders-api-model/vendorOrders.json;
  // models/vendor-direct-fulfillment-orders-api-model/vendorDirectFulfillmentOrders_2021-12-28.json
  // (submitAcknowledgement: both 10/10, one bucket)
  submitAcknowledgement: { rate: 10, burst: 10 },
  // models/vendor-shipments-api-model/vendorShipments.json
  SubmitShipments: { rate: 10, burst: 10 },
  SubmitShipmentConfirmations: { rate: 10, burst: 10 },
  GetShipmentLabels: { rate: 10, burst: 10 },
  // models/vendor-transaction-status-api-model/vendorTransactionStatus.json
  getTransaction: { rate: 10, burst: 20 },
  // models/vendor-direct-fulfillment-shipping-api-model/vendorDirectFulfillmentShipping_2021-12-28.json
  createShippingLabels: { rate: 10, burst: 10 },
  submitShippingLabelRequest: { rate: 10, burst: 10 },
  getShippingLabel: { rate: 10, burst: 10 },
  submitShipmentConfirmations: { rate: 10, burst: 10 },
  submitShipmentStatusUpdates: { rate: 10, burst: 10 },
  getPackingSlip: { rate: 10, burst: 10 },
  // models/vendor-direct-fulfillment-transactions-api-model/vendorDirectFulfillmentTransactions_2021-12-28.json
  getTransactionStatus: { rate: 10, burst: 10 },
};

/**
 * Ads API reporting publishes no numbers (docs/design/live-apis.md §4): a polite bucket per profile, 429s honoured
 * besides.
 */
export const adsPlan: RatePlan = { rate: 1, burst: 5 };
