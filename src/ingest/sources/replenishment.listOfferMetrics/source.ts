import { operationFetch } from '../../fetch-spec.ts';
import { offerMetrics } from '../../families/replenishment.ts';
import { replenishmentColumns } from '../../families/replenishment-columns.ts';
import { jsonSource } from '../../json-records.ts';
import type { Source } from '../../source.ts';

/** Subscribe and Save performance per offer (SKU) and interval. */
export const source: Source = {
  ...jsonSource(
    'replenishment.listOfferMetrics',
    'raw.replenishment_list_offer_metrics',
    replenishmentColumns.listOfferMetrics,
    offerMetrics,
  ),
  fetch: operationFetch('replenishment.listOfferMetrics', 'dates'),
};
