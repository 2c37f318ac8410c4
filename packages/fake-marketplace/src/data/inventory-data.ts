import { awdInboundShipments, awdInventory, awdOutboundOrders, awdReplenishmentOrders } from './awd.ts';
import { inventorySummaries, recommendedRemovalReport, strandedReport } from './fba-inventory.ts';
import { inboundPlans } from './inbound-plans.ts';
import { itemOffers, listingsItems, listingsReport } from './listings.ts';
import { removalOrdersReport, removalShipmentsReport } from './removals.ts';
import { replenishmentMetrics, replenishmentOfferMetrics, replenishmentOffers } from './replenishment.ts';
import type { FakeData, FakeDocument, FakeReportRequest } from './types.ts';
import type { FakeSeller } from './sellers.ts';

const reports: Record<string, (seller: FakeSeller, r: FakeReportRequest) => FakeDocument | null> = {
  GET_MERCHANT_LISTINGS_ALL_DATA: (seller, r) => listingsReport(seller, r.asOf),
  GET_STRANDED_INVENTORY_UI_DATA: (seller, r) => strandedReport(seller, r.asOf),
  GET_FBA_RECOMMENDED_REMOVAL_DATA: (seller, r) => recommendedRemovalReport(seller, r.asOf),
  GET_FBA_FULFILLMENT_REMOVAL_ORDER_DETAIL_DATA: (seller, r) =>
    removalOrdersReport(seller, Date.parse(r.dataStartTime), Date.parse(r.dataEndTime), r.asOf),
  GET_FBA_FULFILLMENT_REMOVAL_SHIPMENT_DETAIL_DATA: (seller, r) =>
    removalShipmentsReport(seller, Date.parse(r.dataStartTime), Date.parse(r.dataEndTime), r.asOf),
};

/** Listings, inventory, removals, AWD, replenishment, pricing and inbound. */
export const inventoryData: Omit<FakeData, 'settlements' | 'adsReport'> & { reportTypes: readonly string[] } = {
  reportTypes: Object.keys(reports),
  report: (seller, request) => reports[request.reportType]?.(seller, request) ?? null,
  inventorySummaries,
  listingsItems,
  itemOffers,
  awdInventory,
  awdInboundShipments,
  awdOutboundOrders,
  awdReplenishmentOrders,
  replenishmentMetrics,
  replenishmentOfferMetrics,
  replenishmentOffers,
  inboundPlans,
};
