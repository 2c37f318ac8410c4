import type { FlatColumn, FlatFormat } from '../../flat-file.ts';

const text = (name: string, required?: FlatColumn['required']): FlatColumn => ({
  name,
  type: 'text',
  ...(required ? { required } : {}),
});

/**
 * Stranded Inventory report (FBA inventory reports): the current list of units in fulfillment centers
 * without an active offer. The header writes `Date-to-take-auto-removal` capitalized (headers are matched
 * case-insensitively); dates are ISO with offset. Newer files add a `program` column, kept in `_extra`.
 */
export const format: FlatFormat = {
  delimiter: '\t',
  quoted: false,
  columns: [
    text('primary-action'),
    { name: 'date-stranded', type: 'timestamp' },
    { name: 'date-to-take-auto-removal', type: 'timestamp' },
    text('status-primary'),
    text('status-secondary'),
    text('error-message'),
    text('stranded-reason'),
    text('asin', 'value'),
    text('sku', 'value'),
    text('fnsku', 'value'),
    text('product-name', 'header'),
    text('condition'),
    text('fulfilled-by'),
    { name: 'fulfillable-qty', type: 'integer' },
    { name: 'your-price', type: 'decimal' },
    { name: 'unfulfillable-qty', type: 'integer' },
    { name: 'reserved-quantity', type: 'integer' },
    { name: 'inbound-shipped-qty', type: 'integer' },
  ],
};
