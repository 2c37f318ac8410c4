import type { FlatColumn, FlatFormat } from '../../flat-file.ts';

const units = (name: string, aliases?: string[]): FlatColumn => ({
  name,
  type: 'integer',
  ...(aliases ? { aliases } : {}),
});

/**
 * Recommended Removal report (developer-docs `fba-removals-reports-attributes`): one line per SKU and condition
 * of a daily snapshot, with units by inventory age. The file writes `sellable-365+-days`; its raw column is
 * `sellable_365_plus_days`. The age buckets are not in ascending order in the file.
 */
export const format: FlatFormat = {
  delimiter: '\t',
  quoted: false,
  columns: [
    { name: 'snapshot-date', type: 'timestamp' },
    { name: 'sku', type: 'text', required: 'value' },
    { name: 'fnsku', type: 'text', required: 'value' },
    { name: 'asin', type: 'text', required: 'value' },
    { name: 'product-name', type: 'text', required: 'header' },
    { name: 'condition', type: 'text' },
    units('sellable-quantity'),
    units('sellable-271-365-days'),
    units('sellable-365-plus-days', ['sellable-365+-days']),
    units('sellable-removal-quantity'),
    units('unsellable-quantity'),
    units('unsellable-0-7-days'),
    units('unsellable-8-60-days'),
    units('unsellable-61-90-days'),
    units('sellable-121-180-days'),
    units('sellable-181-270-days'),
  ],
};
