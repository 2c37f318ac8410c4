import { operationFetch } from '../../fetch-spec.ts';
import { sellingPartnerMetrics } from '../../families/replenishment.ts';
import { replenishmentColumns } from '../../families/replenishment-columns.ts';
import { jsonSource } from '../../json-records.ts';
import type { Source } from '../../source.ts';

/** Subscribe and Save performance of the selling partner, per interval and metric group. */
export const source: Source = {
  ...jsonSource(
    'replenishment.getSellingPartnerMetrics',
    'raw.replenishment_get_selling_partner_metrics',
    replenishmentColumns.getSellingPartnerMetrics,
    sellingPartnerMetrics,
  ),
  fetch: operationFetch('replenishment.getSellingPartnerMetrics', 'dates'),
};
