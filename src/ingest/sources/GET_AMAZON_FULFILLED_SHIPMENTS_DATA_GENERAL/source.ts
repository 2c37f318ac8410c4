import { flatFileSource } from '../../flat-file.ts';
import { format } from './format.ts';

/** Amazon Fulfilled Shipments report: every landed version of every shipped item line. */
export const source = flatFileSource('GET_AMAZON_FULFILLED_SHIPMENTS_DATA_GENERAL', 'raw.get_amazon_fulfilled_shipments_data_general', format);
