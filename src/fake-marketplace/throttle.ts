/**
 * The marketplace's usage plans (rate per second, burst), as each operation's model states them
 * (amzn/selling-partner-api-models; live-apis.md §2.1, §3). Kept apart from the client's own table on purpose:
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
  // actions: orders, shipping, removals, tracking
  // actions: A+ content
  // actions: multi-channel fulfillment
  // actions: vendor
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

  check(sellerId: string, operation: string, arrival: { earliest: number; latest: number }): { overRate: boolean; allowed: boolean; rate: number | null } {
    const plan = documentedPlans[operation];
    if (!plan) return { overRate: false, allowed: true, rate: null };
    const key = `${sellerId}/${operation}`;
    const level = this.#levels.get(key) ?? { tokens: plan.burst, at: arrival.earliest };
    const at = (t: number) => Math.min(plan.burst, level.tokens + (Math.max(0, t - level.at) / 1000) * plan.rate);
    const overRate = at(arrival.latest) < 1 - tolerance(plan.rate, this.speed());
    const allowed = !overRate || !this.enforce;
    const taken = allowed ? Math.max(0, at(Math.max(level.at, arrival.earliest)) - 1) : at(arrival.latest);
    this.#levels.set(key, allowed ? { tokens: taken, at: Math.max(level.at, arrival.earliest) } : { tokens: taken, at: arrival.latest });
    return { overRate, allowed, rate: plan.rate };
  }
}
