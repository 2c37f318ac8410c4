import type { FlatColumn, FlatFormat } from '../../flat-file.ts';

const quantity = (name: string): FlatColumn => ({ name, type: 'integer' });

/**
 * Removal Order Detail report (developer-docs `fba-removals-reports-attributes`, Seller Central help 200989110):
 * one line per removal order, SKU, FNSKU and disposition. Dates are ISO with offset; `order-source` is not in
 * every marketplace's file; removal-fee is the fee charged for the line, in `currency`.
 */
export const format: FlatFormat = {
  delimiter: '\t',
  quoted: false,
  columns: [
    { name: 'request-date', type: 'timestamp', required: 'value' },
    { name: 'order-id', type: 'text', required: 'value' },
    { name: 'order-source', type: 'text' },
    { name: 'order-type', type: 'text' },
    { name: 'service-speed', type: 'text' },
    { name: 'order-status', type: 'text' },
    { name: 'last-updated-date', type: 'timestamp' },
    { name: 'sku', type: 'text', required: 'value' },
    { name: 'fnsku', type: 'text', required: 'value' },
    { name: 'disposition', type: 'text' },
    quantity('requested-quantity'),
    quantity('cancelled-quantity'),
    quantity('disposed-quantity'),
    quantity('shipped-quantity'),
    quantity('in-process-quantity'),
    { name: 'removal-fee', type: 'decimal' },
    { name: 'currency', type: 'text' },
  ],
};
