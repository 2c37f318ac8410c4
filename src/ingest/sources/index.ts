import { MktdataError } from '../../errors.ts';
import type { Source } from '../source.ts';
import { source as flatFileAllOrdersDataByOrderDateGeneral } from './GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL/source.ts';
import { source as v2SettlementReportDataFlatFileV2 } from './GET_V2_SETTLEMENT_REPORT_DATA_FLAT_FILE_V2/source.ts';
import { source as fbaFulfillmentCustomerReturnsData } from './GET_FBA_FULFILLMENT_CUSTOMER_RETURNS_DATA/source.ts';
import { source as salesAndTrafficReport } from './GET_SALES_AND_TRAFFIC_REPORT/source.ts';
import { source as merchantListingsAllData } from './GET_MERCHANT_LISTINGS_ALL_DATA/source.ts';
import { source as amazonFulfilledShipmentsDataGeneral } from './GET_AMAZON_FULFILLED_SHIPMENTS_DATA_GENERAL/source.ts';
import { source as fbaFulfillmentRemovalOrderDetailData } from './GET_FBA_FULFILLMENT_REMOVAL_ORDER_DETAIL_DATA/source.ts';
import { source as fbaFulfillmentRemovalShipmentDetailData } from './GET_FBA_FULFILLMENT_REMOVAL_SHIPMENT_DETAIL_DATA/source.ts';
import { source as fbaRecommendedRemovalData } from './GET_FBA_RECOMMENDED_REMOVAL_DATA/source.ts';
import { source as strandedInventoryUiData } from './GET_STRANDED_INVENTORY_UI_DATA/source.ts';
import { source as adsSpAdvertisedProduct } from './ads.spAdvertisedProduct/source.ts';
import { source as adsSpTargeting } from './ads.spTargeting/source.ts';
import { source as adsSpSearchTerm } from './ads.spSearchTerm/source.ts';
import { source as adsSbCampaigns } from './ads.sbCampaigns/source.ts';
import { source as adsSbPurchasedProduct } from './ads.sbPurchasedProduct/source.ts';
import { source as adsSdAdvertisedProduct } from './ads.sdAdvertisedProduct/source.ts';
import { source as adsSdPurchasedProduct } from './ads.sdPurchasedProduct/source.ts';
import { source as adsStCampaigns } from './ads.stCampaigns/source.ts';
import { source as adsDspCampaign } from './ads.dspCampaign/source.ts';
import { source as fbaInventoryGetInventorySummaries } from './fbaInventory.getInventorySummaries/source.ts';
import { source as listingsItemsSearchListingsItems } from './listingsItems.searchListingsItems/source.ts';
import { source as productPricingGetItemOffers } from './productPricing.getItemOffers/source.ts';
import { source as awdListInventory } from './awd.listInventory/source.ts';
import { source as awdGetInboundShipment } from './awd.getInboundShipment/source.ts';
import { source as awdListOutbounds } from './awd.listOutbounds/source.ts';
import { source as awdListReplenishmentOrders } from './awd.listReplenishmentOrders/source.ts';
import { source as replenishmentListOffers } from './replenishment.listOffers/source.ts';
import { source as fulfillmentInboundShipments } from './fulfillmentInbound.shipments/source.ts';
import { source as replenishmentGetSellingPartnerMetrics } from './replenishment.getSellingPartnerMetrics/source.ts';
import { source as replenishmentListOfferMetrics } from './replenishment.listOfferMetrics/source.ts';
import { source as cogs } from './cogs/source.ts';
import { source as promotions } from './promotions/source.ts';
import { source as notifications } from './notifications/source.ts';

/**
 * Every source mktdata can land, by name: one folder each under src/ingest/sources/, named as the source is, whose
 * `source.ts` declares how it is fetched, its format and how it lands. The fetch stage plans requests in this order.
 */
export const sources: Source[] = [
  flatFileAllOrdersDataByOrderDateGeneral,
  v2SettlementReportDataFlatFileV2,
  fbaFulfillmentCustomerReturnsData,
  salesAndTrafficReport,
  merchantListingsAllData,
  amazonFulfilledShipmentsDataGeneral,
  fbaFulfillmentRemovalOrderDetailData,
  fbaFulfillmentRemovalShipmentDetailData,
  fbaRecommendedRemovalData,
  strandedInventoryUiData,
  adsSpAdvertisedProduct,
  adsSpTargeting,
  adsSpSearchTerm,
  adsSbCampaigns,
  adsSbPurchasedProduct,
  adsSdAdvertisedProduct,
  adsSdPurchasedProduct,
  adsStCampaigns,
  adsDspCampaign,
  fbaInventoryGetInventorySummaries,
  listingsItemsSearchListingsItems,
  productPricingGetItemOffers,
  awdListInventory,
  awdGetInboundShipment,
  awdListOutbounds,
  awdListReplenishmentOrders,
  replenishmentListOffers,
  fulfillmentInboundShipments,
  replenishmentGetSellingPartnerMetrics,
  replenishmentListOfferMetrics,
  cogs,
  promotions,
  notifications,
];

/** The source of that name, or ERR_SOURCE_UNKNOWN listing the known ones. */
export function findSource(name: string): Source {
  const found = sources.find((s) => s.name === name);
  if (!found)
    throw new MktdataError('ERR_SOURCE_UNKNOWN', {
      name,
      known: sources
        .map((s) => s.name)
        .sort()
        .join(', '),
    });
  return found;
}
