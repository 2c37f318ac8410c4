import { reportFetch } from '../../fetch-spec.ts';
import { flatFileSource } from '../../flat-file-source.ts';
import { format } from './format.ts';
import type { Source } from '../../source.ts';

export const source: Source = {
  ...flatFileSource(
    'GET_FBA_FULFILLMENT_CUSTOMER_RETURNS_DATA',
    'raw.get_fba_fulfillment_customer_returns_data',
    format,
  ),
  fetch: reportFetch('GET_FBA_FULFILLMENT_CUSTOMER_RETURNS_DATA', 'timestamps'),
};
