import { flatFileSource } from '../../flat-file-source.ts';
import { format } from './format.ts';

export const source = flatFileSource(
  'GET_FBA_FULFILLMENT_CUSTOMER_RETURNS_DATA',
  'raw.get_fba_fulfillment_customer_returns_data',
  format,
);
