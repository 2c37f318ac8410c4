import type { FlatFormat } from '../../flat-file.ts';

/**
 * Removal Shipment Detail report (developer-docs `fba-removals-reports-attributes`): one line per shipped
 * package line of a removal order. Seller Central help 200989100 names two headers differently
 * (`removal-date`, `quantity shipped`); both spellings are read. Disposals and cancellations are not here.
 */
export const format: FlatFormat = {
  delimiter: '\t',
  quoted: false,
  columns: [
    { name: 'request-date', aliases: ['removal-date'], type: 'timestamp' },
    { name: 'order-id', type: 'text', required: 'value' },
    { name: 'shipment-date', type: 'timestamp', required: 'value' },
    { name: 'sku', type: 'text', required: 'value' },
    { name: 'fnsku', type: 'text', required: 'value' },
    { name: 'disposition', type: 'text' },
    { name: 'shipped-quantity', aliases: ['quantity-shipped'], type: 'integer' },
    { name: 'carrier', type: 'text' },
    { name: 'tracking-number', type: 'text' },
    { name: 'removal-order-type', type: 'text' },
  ],
};
