import { reportFetch } from '../../fetch-spec.ts';
import { orderUpdateEvents } from '../../order-events.ts';
import { flatFileSource } from '../../flat-file-source.ts';
import { format } from './format.ts';

/**
 * All Orders flat file: every version of every order line, as delivered; MKT_ORDER_UPDATE for the orders it changes.
 */
export const source = {
  ...flatFileSource(
    'GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL',
    'raw.get_flat_file_all_orders_data_by_order_date_general',
    format,
  ),
  events: orderUpdateEvents,
  fetch: reportFetch('GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL', 'timestamps', { historyDays: 730 }),
};
