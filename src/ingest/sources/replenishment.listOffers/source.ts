import { operationFetch } from '../../fetch-spec.ts';
import { offers } from '../../families/replenishment.ts';
import { replenishmentColumns } from '../../families/replenishment-columns.ts';
import { jsonSource } from '../../json-records.ts';
import type { Source } from '../../source.ts';

/** The selling partner's Subscribe and Save offers; their records are checked against the connection's marketplace. */
export const source: Source = {
  ...jsonSource(
    'replenishment.listOffers',
    'raw.replenishment_list_offers',
    replenishmentColumns.listOffers,
    (document, connection) => offers(document, connection.marketplaceId),
  ),
  fetch: operationFetch('replenishment.listOffers', 'none'),
};
