import type { FlatFormat } from '../../flat-file.ts';

/** Unit-cost CSV: the columns of a CogsUpsertRequest row (docs/design/API.md), one row per line. */
export const format: FlatFormat = {
  delimiter: ',',
  quoted: true,
  columns: [
    { name: 'asin', type: 'text', required: 'value' },
    { name: 'sku', type: 'text', required: 'value' },
    { name: 'costCurrency', aliases: ['cost-currency'], type: 'text', required: 'value' },
    { name: 'fromDate', aliases: ['from-date'], type: 'date', required: 'value' },
    { name: 'costItemValue', aliases: ['cost-item-value'], type: 'decimal', required: 'value' },
    { name: 'costItemShippingValue', aliases: ['cost-item-shipping-value'], type: 'decimal', required: 'value' },
    { name: 'itemSupplierName', aliases: ['item-supplier-name'], type: 'text' },
  ],
};
