import { flatFileSource } from '../../flat-file-source.ts';
import { format } from './format.ts';

/** Removal Shipment Detail report: every landed version of every removal shipment line. */
export const source = flatFileSource(
  'GET_FBA_FULFILLMENT_REMOVAL_SHIPMENT_DETAIL_DATA',
  'raw.get_fba_fulfillment_removal_shipment_detail_data',
  format,
);
