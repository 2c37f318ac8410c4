import { MktdataError } from '../../errors.ts';
import type { Source } from '../source.ts';
import { source as allOrders } from './GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL/source.ts';
import { source as returns } from './GET_FBA_FULFILLMENT_CUSTOMER_RETURNS_DATA/source.ts';
import { source as salesAndTraffic } from './GET_SALES_AND_TRAFFIC_REPORT/source.ts';
import { source as settlements } from './GET_V2_SETTLEMENT_REPORT_DATA_FLAT_FILE_V2/source.ts';
import { adsSources } from './ads/source.ts';
import { awdSources } from './awd/source.ts';
import { source as cogs } from './cogs/source.ts';
import { source as merchantListings } from './GET_MERCHANT_LISTINGS_ALL_DATA/source.ts';
import { source as fbaInventory } from './fbaInventory.getInventorySummaries/source.ts';
import { source as listingsItems } from './listingsItems.searchListingsItems/source.ts';
import { source as itemOffers } from './productPricing.getItemOffers/source.ts';
import { replenishmentSources } from './replenishment/source.ts';
import { source as promotions } from './promotions/source.ts';
import { source as notifications } from './notifications/source.ts';
import { fbaSources } from './fba/source.ts';

/** Every source mktdata can land, by name. */
export const sources: Source[] = [
  allOrders,
  settlements,
  returns,
  salesAndTraffic,
  ...adsSources,
  ...awdSources,
  cogs,
  ...replenishmentSources,
  promotions,
  notifications,
  merchantListings,
  fbaInventory,
  listingsItems,
  itemOffers,
  ...fbaSources,
];

/** The source of that name, or ERR_SOURCE_UNKNOWN listing the known ones. */
export function findSource(name: string): Source {
  const found = sources.find((s) => s.name === name);
  if (!found) throw new MktdataError('ERR_SOURCE_UNKNOWN', { name, known: sources.map((s) => s.name).join(', ') });
  return found;
}
