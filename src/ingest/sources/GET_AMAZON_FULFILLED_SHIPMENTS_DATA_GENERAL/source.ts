import { reportFetch } from '../../fetch-spec.ts';
import { buyerInfoEvents } from '../../order-events.ts';
import { flatFileSource } from '../../flat-file-source.ts';
import { format } from './format.ts';

/**
 * Amazon Fulfilled Shipments report: every landed version of every shipped item line; MKT_ORDER_BUYER_INFO_UPDATE for
 * orders whose buyer data it changes.
 */
export const source = {
  ...flatFileSource(
    'GET_AMAZON_FULFILLED_SHIPMENTS_DATA_GENERAL',
    'raw.get_amazon_fulfilled_shipments_data_general',
    format,
  ),
  events: buyerInfoEvents,
  fetch: reportFetch('GET_AMAZON_FULFILLED_SHIPMENTS_DATA_GENERAL', 'timestamps', { maxDays: 30, historyDays: 540 }),
};
