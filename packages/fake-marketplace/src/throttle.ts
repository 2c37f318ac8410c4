/**
 * The marketplace's usage plans (rate per second, burst), as each operation's model states them
 * (amzn/selling-partner-api-models; docs/design/live-apis.md §2.1, §3). Kept apart from the client's own table on
 * purpose:
 * the fake must catch a client that gets a number wrong.
 */
export const documentedPlans: Record<string, { rate: number; burst: number }> = {
  createReport: { rate: 0.0167, burst: 15 },
  getReports: { rate: 0.0222, burst: 10 },
  getReport: { rate: 2, burst: 15 },
  cancelReport: { rate: 0.0222, burst: 10 },
  getReportDocument: { rate: 0.0167, burst: 15 },
  getInventorySummaries: { rate: 2, burst: 2 },
  searchListingsItems: { rate: 5, burst: 5 },
  patchListingsItem: { rate: 5, burst: 5 },
  searchDefinitionsProductTypes: { rate: 5, burst: 10 },
  getDefinitionsProductType: { rate: 5, burst: 10 },
  getItemOffers: { rate: 0.5, burst: 1 },
  getItemOffersBatch: { rate: 0.1, burst: 1 },
  listInventory: { rate: 2, burst: 2 },
  listInboundShipments: { rate: 1, burst: 1 },
  getInboundShipment: { rate: 2, burst: 2 },
  listOutbounds: { rate: 1, burst: 1 },
  listReplenishmentOrders: { rate: 1, burst: 1 },
  getSellingPartnerMetrics: { rate: 1, burst: 1 },
  listOfferMetrics: { rate: 1, burst: 1 },
  listOffers: { rate: 1, burst: 1 },
  listInboundPlans: { rate: 2, burst: 6 },
  getInboundPlan: { rate: 2, burst: 6 },
  getShipment: { rate: 2, burst: 6 },
  listShipmentItems: { rate: 2, burst: 30 },
  getMarketplaceParticipations: { rate: 0.016, burst: 15 },
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
 * How early a request may arrive and still count as within the rate: 5 % of a token, or 20 real milliseconds of
 * arrival jitter (a loaded machine delays a stamp by that much; a clock running many times faster turns it into
 * seconds) if that is more. A client that is systematically fast still falls behind by more with every request.
 */
const tolerance = (rate: number, speed: number) => Math.max(0.05, 0.02 * speed * rate);

/**
 * Buckets per (seller, operation), full at first use. A request arrived within a window (`earliest` to `latest`, one
 * instant unless the event loop had stalled), and is judged as favourably as that window allows: over the rate only
 * if the bucket lacked a token even at `latest`, and the token taken from the bucket at `earliest` (so refill after
 * it is not lost). With enforcement on, a request over the rate is refused and takes nothing.
 */
export class Throttle {
  readonly #levels = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly enforce: boolean,
    /** Clock milliseconds per real one. */
    private readonly speed: () => number = () => 1,
  ) {}

  check(
    sellerId: string,
    operation: string,
    arrival: { earliest: number; latest: number },
  ): { overRate: boolean; allowed: boolean; rate: number | null } {
    const plan = documentedPlans[operation];
    if (!plan) return { overRate: false, allowed: true, rate: null };
    const key = `${sellerId}/${operation}`;
    const level = this.#levels.get(key) ?? { tokens: plan.burst, at: arrival.earliest };
    const at = (t: number) => Math.min(plan.burst, level.tokens + (Math.max(0, t - level.at) / 1000) * plan.rate);
    const overRate = at(arrival.latest) < 1 - tolerance(plan.rate, this.speed());
    const allowed = !overRate || !this.enforce;
    const taken = allowed ? Math.max(0, at(Math.max(level.at, arrival.earliest)) - 1) : at(arrival.latest);
    this.#levels.set(
      key,
      allowed ? { tokens: taken, at: Math.max(level.at, arrival.earliest) } : { tokens: taken, at: arrival.latest },
    );
    return { overRate, allowed, rate: plan.rate };
  }
}
