import { reportFetch } from '../../fetch-spec.ts';
import { flatFileSource } from '../../flat-file-source.ts';
import { format } from './format.ts';
import type { Source } from '../../source.ts';

/** Removal Shipment Detail report: every landed version of every removal shipment line. */
export const source: Source = {
  ...flatFileSource(
    'GET_FBA_FULFILLMENT_REMOVAL_SHIPMENT_DETAIL_DATA',
    'raw.get_fba_fulfillment_removal_shipment_detail_data',
    format,
  ),
  fetch: reportFetch('GET_FBA_FULFILLMENT_REMOVAL_SHIPMENT_DETAIL_DATA', 'timestamps'),
};
