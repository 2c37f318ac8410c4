import type { FlatFormat } from '../../flat-file.ts';

/**
 * Columns of the All Orders flat file (upstream-formats a1): the documented 32, with the header
 * variants seen across marketplaces. Amounts are line totals; promotion discounts may be negative.
 */
export const format: FlatFormat = {
  delimiter: '\t',
  quoted: false,
  columns: [
    { name: 'amazon-order-id', aliases: ['order-id'], type: 'text', required: 'value' },
    { name: 'merchant-order-id', aliases: ['merchant order-id'], type: 'text' },
    { name: 'purchase-date', type: 'timestamp', required: 'value' },
    { name: 'last-updated-date', type: 'timestamp' },
    { name: 'order-status', type: 'text', required: 'header' },
    { name: 'fulfillment-channel', type: 'text' },
    { name: 'sales-channel', type: 'text' },
    { name: 'order-channel', type: 'text' },
    { name: 'ship-service-level', type: 'text' },
    { name: 'product-name', type: 'text' },
    { name: 'sku', type: 'text', required: 'value' },
    { name: 'asin', type: 'text' },
    { name: 'item-status', type: 'text' },
    { name: 'quantity', aliases: ['quantity-purchased'], type: 'integer', required: 'value' },
    { name: 'currency', type: 'text' },
    { name: 'item-price', type: 'decimal' },
    { name: 'item-tax', type: 'decimal' },
    { name: 'shipping-price', type: 'decimal' },
    { name: 'shipping-tax', type: 'decimal' },
    { name: 'gift-wrap-price', type: 'decimal' },
    { name: 'gift-wrap-tax', type: 'decimal' },
    { name: 'item-promotion-discount', type: 'decimal' },
    { name: 'ship-promotion-discount', type: 'decimal' },
    { name: 'ship-city', type: 'text' },
    { name: 'ship-state', type: 'text' },
    { name: 'ship-postal-code', type: 'text' },
    { name: 'ship-country', type: 'text' },
    { name: 'promotion-ids', type: 'text' },
    { name: 'cpf', type: 'text' },
    { name: 'is-business-order', type: 'boolean' },
    { name: 'purchase-order-number', type: 'text' },
    { name: 'price-designation', type: 'text' },
  ],
};
