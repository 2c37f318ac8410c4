import type { FlatColumn, FlatFormat } from '../../flat-file.ts';

const text = (name: string, required?: FlatColumn['required']): FlatColumn => ({
  name,
  type: 'text',
  ...(required ? { required } : {}),
});
const money = (name: string): FlatColumn => ({ name, type: 'decimal' });

/**
 * Amazon Fulfilled Shipments report (FBA sales reports; Seller Central help 200453120): 48 columns,
 * one line per shipped item. Dates are ISO with offset (`2012-07-14T18:53:56+00:00`); amounts are line totals.
 * Buyer and address columns hold personal data. The tax-invoicing variant's extra columns land in `_extra`.
 */
export const format: FlatFormat = {
  delimiter: '\t',
  quoted: false,
  columns: [
    text('amazon-order-id', 'value'),
    text('merchant-order-id'),
    text('shipment-id', 'value'),
    text('shipment-item-id', 'value'),
    text('amazon-order-item-id', 'value'),
    text('merchant-order-item-id'),
    { name: 'purchase-date', type: 'timestamp' },
    { name: 'payments-date', type: 'timestamp' },
    { name: 'shipment-date', type: 'timestamp', required: 'value' },
    { name: 'reporting-date', type: 'timestamp' },
    text('buyer-email'),
    text('buyer-name'),
    text('buyer-phone-number'),
    text('sku', 'value'),
    text('product-name', 'header'),
    { name: 'quantity-shipped', type: 'integer' },
    text('currency'),
    money('item-price'),
    money('item-tax'),
    money('shipping-price'),
    money('shipping-tax'),
    money('gift-wrap-price'),
    money('gift-wrap-tax'),
    text('ship-service-level'),
    text('recipient-name'),
    text('ship-address-1'),
    text('ship-address-2'),
    text('ship-address-3'),
    text('ship-city'),
    text('ship-state'),
    text('ship-postal-code'),
    text('ship-country'),
    text('ship-phone-number'),
    text('bill-address-1'),
    text('bill-address-2'),
    text('bill-address-3'),
    text('bill-city'),
    text('bill-state'),
    text('bill-postal-code'),
    text('bill-country'),
    money('item-promotion-discount'),
    money('ship-promotion-discount'),
    text('carrier'),
    text('tracking-number'),
    { name: 'estimated-arrival-date', type: 'timestamp' },
    text('fulfillment-center-id'),
    text('fulfillment-channel'),
    text('sales-channel'),
  ],
};
