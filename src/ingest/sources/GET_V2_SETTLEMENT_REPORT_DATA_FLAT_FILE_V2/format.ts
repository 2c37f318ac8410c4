import type { FlatFormat } from '../../flat-file.ts';

/**
 * Settlement report V2 (upstream-formats b1): 24 columns, the first data line a summary with the
 * settlement totals. Amounts are signed (credit to the seller positive). Dates vary by locale:
 * timestamps parse ISO or day-first; `posted-date` (`09/06/25`) stays text, `posted-date-time` is used.
 */
export const format: FlatFormat = {
  delimiter: '\t',
  quoted: false,
  columns: [
    { name: 'settlement-id', type: 'text', required: 'value' },
    { name: 'settlement-start-date', type: 'timestamp' },
    { name: 'settlement-end-date', type: 'timestamp' },
    { name: 'deposit-date', type: 'timestamp' },
    { name: 'total-amount', type: 'decimal' },
    { name: 'currency', type: 'text' },
    { name: 'transaction-type', type: 'text', required: 'header' },
    { name: 'order-id', type: 'text' },
    { name: 'merchant-order-id', type: 'text' },
    { name: 'adjustment-id', type: 'text' },
    { name: 'shipment-id', type: 'text' },
    { name: 'marketplace-name', type: 'text' },
    { name: 'amount-type', type: 'text', required: 'header' },
    { name: 'amount-description', type: 'text', required: 'header' },
    { name: 'amount', type: 'decimal', required: 'header' },
    { name: 'fulfillment-id', type: 'text' },
    { name: 'posted-date', type: 'text' },
    { name: 'posted-date-time', type: 'timestamp' },
    { name: 'order-item-code', type: 'text' },
    { name: 'merchant-order-item-id', type: 'text' },
    { name: 'merchant-adjustment-item-id', type: 'text' },
    { name: 'sku', type: 'text' },
    { name: 'quantity-purchased', type: 'integer' },
    { name: 'promotion-id', type: 'text' },
  ],
};
