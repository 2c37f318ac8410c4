import type { FakeData } from './types.ts';

/** Listings, inventory, removals, AWD, replenishment, pricing and inbound (stub: replaced by the data library). */
export const inventoryData: Omit<FakeData, 'settlements' | 'adsReport'> & { reportTypes: readonly string[] } = {
  reportTypes: [],
  report: () => null,
  inventorySummaries: () => [],
  listingsItems: () => [],
  itemOffers: () => null,
  awdInventory: () => [],
  awdInboundShipments: () => [],
  awdOutboundOrders: () => [],
  awdReplenishmentOrders: () => [],
  replenishmentMetrics: () => [],
  replenishmentOfferMetrics: () => [],
  replenishmentOffers: () => [],
  inboundPlans: () => [],
};
