import type { FlatFormat } from '../../flat-file.ts';

/** FBA customer returns (upstream-formats c): 13 columns; return-date is ISO with offset in downloads. */
export const format: FlatFormat = {
  delimiter: '\t',
  quoted: false,
  columns: [
    { name: 'return-date', type: 'timestamp', required: 'value' },
    { name: 'order-id', aliases: ['amazon-order-id'], type: 'text', required: 'value' },
    { name: 'sku', type: 'text', required: 'value' },
    { name: 'asin', type: 'text' },
    { name: 'fnsku', type: 'text' },
    { name: 'product-name', type: 'text' },
    { name: 'quantity', type: 'integer', required: 'value' },
    { name: 'fulfillment-center-id', type: 'text' },
    { name: 'detailed-disposition', type: 'text' },
    { name: 'reason', type: 'text' },
    { name: 'status', type: 'text' },
    { name: 'license-plate-number', type: 'text' },
    { name: 'customer-comments', type: 'text' },
  ],
};
